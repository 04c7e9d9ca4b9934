import { z } from 'zod';

/*
 * String rules shared by every request schema (issue 18, items 3 and 11).
 *
 * - Identifiers (ids, uuids, tokens, symbols, client ids, path segments) and names (user
 *   names, strategy and import names) refuse control characters, lone UTF-16 surrogates and
 *   the invisible characters that make two different names look alike (bidirectional
 *   overrides and isolates, zero-width characters): a clear 400/422 naming the field.
 * - Free text (strategy code, comments, result errors, logs) keeps what it holds, except
 *   what PostgreSQL and JSON cannot store: NUL is removed and a lone surrogate becomes
 *   U+FFFD (`storableText`), so saving it never fails.
 */

/** C0 controls, DEL and C1 controls (matching them is the point). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
/**
 * Bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E-U+200F,
 * U+202A-U+202E, U+2066-U+2069), zero-width space, joiners and word joiner (U+200B-U+200D,
 * U+2060) and the byte-order mark (U+FEFF).
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

/** True when `text` holds a C0/C1 control character (tab and newline included). */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** True when `text` holds a UTF-16 surrogate without its pair (not valid Unicode). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** True when `text` holds a bidirectional control or a zero-width character. */
export function hasInvisibleCharacter(text: string): boolean {
  return INVISIBLE.test(text);
}

/** The first reason `text` cannot be a name or an identifier, or null when it can. */
export function identifierProblem(text: string): string | null {
  if (hasControlCharacter(text)) return 'must not contain control characters';
  if (hasLoneSurrogate(text)) return 'must be valid Unicode text';
  if (hasInvisibleCharacter(text)) {
    return 'must not contain invisible or bidirectional control characters';
  }
  return null;
}

/**
 * Free text as it can be stored: NUL characters removed (PostgreSQL text and jsonb refuse
 * them) and each lone surrogate replaced by U+FFFD. Other characters are kept as they are.
 */
export function storableText(text: string): string {
  const noNul = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  return LONE_SURROGATE.test(noNul) ? noNul.replace(LONE_SURROGATES, '\ufffd') : noNul;
}

/**
 * A JSON-like value with every string (and object key) made storable (`storableText`);
 * numbers, booleans and null are returned as they are. For jsonb columns.
 */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableJson(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      out[storableText(key)] = storableJson(item);
    }
    return out as T;
  }
  return value;
}

/** Adds the identifier rule to a string schema (one issue with the rule's message). */
function refineIdentifier<S extends z.ZodType<string, string>>(schema: S) {
  return schema.superRefine((text, ctx) => {
    const problem = identifierProblem(text);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/**
 * An identifier or name: trimmed, 1 to `max` characters, without control, invisible or
 * bidirectional characters and without lone surrogates.
 */
export function identifierSchema(max: number, requiredMessage?: string) {
  return refineIdentifier(
    z.string().trim().min(1, requiredMessage).max(max, `must be at most ${max} characters`),
  );
}

/** Like `identifierSchema` but not trimmed (tokens): `min` to `max` characters. */
export function opaqueTextSchema(min: number, max: number) {
  return refineIdentifier(z.string().min(min).max(max, `must be at most ${max} characters`));
}

/** Optional text with the identifier rule that may be empty (file names, optional names). */
export function optionalNameSchema(max: number) {
  return refineIdentifier(z.string().trim().max(max, `must be at most ${max} characters`));
}

/**
 * Free text of `min` to `max` characters, made storable (`storableText`) while parsed:
 * code, comments, prompts, error texts. `message` replaces the too-short message.
 */
export function freeTextSchema(max: number, min = 0, message?: string) {
  return z
    .string()
    .min(min, message)
    .max(max, `must be at most ${max} characters`)
    .transform(storableText);
}

/**
 * A whole number as a JSON number or a string of decimal digits (optional leading '-'),
 * within the safe-integer range; anything else (1e20, '0x10', ' 1.5', '+1') is refused
 * with '`name` must be an integer'.
 */
export function integerInputSchema(name: string) {
  return z.union([z.number(), z.string().max(32)]).transform((value, ctx) => {
    let n = Number.NaN;
    if (typeof value === 'number') n = value;
    else if (/^-?\d{1,30}$/.test(value.trim())) n = Number(value.trim());
    if (!Number.isSafeInteger(n)) {
      ctx.addIssue({
        code: 'custom',
        message: Number.isInteger(n)
          ? `${name} must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`
          : `${name} must be an integer`,
      });
      return z.NEVER;
    }
    return n;
  });
}

/** Plain decimal notation: digits with an optional fraction and an optional leading '-'. */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A quantity or price as a JSON number or a decimal string ('1', '0.5', '-2'); any other
 * text ('0b1', '0x1', '+1', '1e3', 'Infinity', '') becomes NaN so the domain rule answers
 * with its own message.
 */
export function decimalInputSchema() {
  return z.union([z.number(), z.string().max(64)]).transform((value) => {
    if (typeof value === 'number') return value;
    const text = value.trim();
    return DECIMAL.test(text) ? Number(text) : Number.NaN;
  });
}
