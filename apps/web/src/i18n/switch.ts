import { createI18n, type ComponentsJSON } from '@nanostores/i18n';
import { $language } from './intl';
import { messages } from './messages';
import type { Language } from './texts';

/**
 * The language switch (loaded on demand, never in the first load). Every section of
 * `messages` is an @nanostores/i18n component whose base is its default text; a language's
 * sections are loaded by dynamic import when it is chosen and written into `messages` in
 * place, so every `messages.x.y` (and the first screen's, which shares the sections) and
 * every alias of a section or a group reads the chosen language. A section the language leaves out keeps its default texts.
 */

type Section = Record<string, unknown>;
type Sections = Record<string, Section>;

const LOADERS: Record<Exclude<Language, 'default'>, () => Promise<Partial<Sections>>> = {
  en: () => import('./locales/en').then((m) => m.en as unknown as Partial<Sections>),
  'zh-CN': () => import('./locales/zh').then((m) => m.zh as unknown as Partial<Sections>),
};

let loadError: unknown = null;

const i18n = createI18n($language, {
  baseLocale: 'default',
  async get(code, components) {
    let sections: Partial<Sections> = {};
    try {
      if (code !== 'default') sections = await LOADERS[code as keyof typeof LOADERS]();
    } catch (error) {
      loadError = error;
    }
    // Every asked component answers (an empty one keeps its default texts). The library types
    // translations as JSON; ours also hold text functions, which it passes through unchanged
    // (it only merges a component's keys over its base and calls its own transforms).
    return Object.fromEntries(
      components.map((name) => [name, sections[name] ?? {}]),
    ) as unknown as ComponentsJSON;
  },
});

function isGroup(value: unknown): value is Section {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of a section, its groups copied too (texts and functions are shared). */
function copyOf(section: Section): Section {
  return Object.fromEntries(
    Object.entries(section).map(([key, value]) => [key, isGroup(value) ? copyOf(value) : value]),
  );
}

/**
 * Writes texts into a section in place, group by group: an alias of a group taken at load
 * (`const l = messages.chart.legend`) reads the new texts too.
 */
function assignTexts(target: Section, texts: Section): void {
  for (const [key, value] of Object.entries(texts)) {
    const current = target[key];
    if (isGroup(value) && isGroup(current)) assignTexts(current, value);
    else target[key] = value;
  }
}

const sections = messages as unknown as Sections;
for (const name of Object.keys(sections)) {
  const section = sections[name]!;
  // The base is a copy: the live section changes with the language, the default stays.
  const $texts = i18n(name, copyOf(section) as Record<string, string>);
  $texts.subscribe((texts) => assignTexts(section, texts as Section));
}

function loaded(): Promise<void> {
  if (!i18n.loading.get()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = i18n.loading.listen((loading) => {
      if (!loading) {
        stop();
        resolve();
      }
    });
  });
}

/** Puts every text in `language`; rejects (and keeps the current language) if it cannot load. */
export async function switchTo(language: Language): Promise<void> {
  const previous = $language.get();
  loadError = null;
  $language.set(language);
  await loaded();
  if (loadError) {
    const error = loadError;
    // Not kept as loaded: choosing the language again tries again.
    delete (i18n.cache as Record<string, unknown>)[language];
    $language.set(previous);
    await loaded();
    throw error instanceof Error ? error : new Error(String(error));
  }
}
