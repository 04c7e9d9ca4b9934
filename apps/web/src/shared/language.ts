import type { Locale } from 'antd/es/locale';
import { create } from 'zustand';
import { messages } from '../i18n/firstScreen';
import { isLanguage, type Language } from '../i18n/texts';
import { notify } from './notify';
import { readString, removeKey, STORAGE_KEYS, writeString } from './storage';

/**
 * The language setting (user menu): 'default' is the spec's texts, 'en' and 'zh-CN' put every
 * text in English or Simplified Chinese. Kept in localStorage; applied without a reload (the
 * texts are loaded on demand by i18n/switch.ts, then the pages are drawn again, not remounted).
 */
type LanguageState = {
  language: Language;
  /** Ant Design's own texts (pagination, pickers) for the language; its default otherwise. */
  antdLocale: Locale | undefined;
};

export const useLanguageStore = create<LanguageState>(() => ({
  language: 'default',
  antdLocale: undefined,
}));

/**
 * The current language. A component calling it is drawn again when the language changes
 * (its state kept): the pages (routes.tsx) and the memoised parts that show texts call it.
 */
export function useLanguage(): Language {
  return useLanguageStore((s) => s.language);
}

export function storedLanguage(): Language {
  const raw = readString(STORAGE_KEYS.language);
  return isLanguage(raw) ? raw : 'default';
}

const HTML_LANG: Record<Language, string> = { default: 'en', en: 'en', 'zh-CN': 'zh-CN' };

/** Switches every text to `language` and keeps the choice; rejects if it cannot be loaded. */
export async function setLanguage(language: Language): Promise<void> {
  const [{ switchTo }, antdLocale] = await Promise.all([
    import('../i18n/switch'),
    language === 'zh-CN'
      ? import('antd/locale/zh_CN').then((m) => m.default)
      : Promise.resolve(undefined),
  ]);
  await switchTo(language);
  if (language === 'default') removeKey(STORAGE_KEYS.language);
  else writeString(STORAGE_KEYS.language, language);
  document.documentElement.lang = HTML_LANG[language];
  useLanguageStore.setState({ language, antdLocale });
}

/** At start-up: the kept language, before the first screen is drawn (nothing to do for the default). */
export async function applyStoredLanguage(): Promise<void> {
  const language = storedLanguage();
  if (language === 'default') return;
  try {
    await setLanguage(language);
  } catch {
    // The default texts stay; the setting is kept for the next visit.
  }
}

/** A language's name in the setting: the default's in the current language, the others their own. */
export function languageName(language: Language): string {
  const t = messages.language;
  return language === 'default' ? t.default : language === 'en' ? t.en : t.zh;
}

/** Switches the language from the user menu; a failure to load it is told. */
export function chooseLanguage(language: Language): void {
  setLanguage(language).catch(() => notify.error(messages.language.failed));
}
