import type { Messages } from './messages';

/**
 * The shape of a language's texts: the same keys as the default texts (messages.ts), strings
 * for strings and functions with the same parameters for functions. A translation missing
 * a key or changing a function's parameters does not compile.
 */
export type Texts<T> = T extends (...args: infer A) => unknown
  ? (...args: A) => string
  : T extends string
    ? string
    : T extends readonly (infer E)[]
      ? readonly Texts<E>[]
      : { readonly [K in keyof T]: Texts<T[K]> };

/** Some sections of the texts, complete: a feature's file of a language. */
export type SectionTexts<K extends keyof Messages> = { readonly [S in K]: Texts<Messages[S]> };

/** The languages of the switch: 'default' is the spec's own mix of English and Chinese. */
export const LANGUAGES = ['default', 'en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The locale numbers and dates are formatted in (Intl); the default texts are in English. */
export function intlLocaleOf(language: Language): string {
  return language === 'zh-CN' ? 'zh-CN' : 'en-US';
}
