import { formatter } from '@nanostores/i18n';
import { atom, computed } from 'nanostores';
import { intlLocaleOf, type Language } from './texts';

/** The language the texts are in now (set by switch.ts once its texts are loaded). */
export const $language = atom<Language>('default');

/** Intl formatters of the language's locale (numbers, dates), from @nanostores/i18n. */
export const $format = formatter(computed($language, intlLocaleOf));

/** A number in the locale of the current language ('1,234.5'). */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return $format.get().number(value, options);
}

/** A date and time in the locale of the current language. */
export function formatDateTime(value: Date | number, options?: Intl.DateTimeFormatOptions): string {
  return $format.get().time(typeof value === 'number' ? new Date(value) : value, options);
}
