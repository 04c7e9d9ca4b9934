import { z } from 'zod';

/** Longest API key accepted (characters); real keys are well under 300. */
export const MAX_API_KEY_CHARS = 512;

/** The character that marks a masked key (`sk-…3456`); never part of a real key. */
export const API_KEY_MASK = '…';

/**
 * The form of a key the server shows: its first 3 and last 4 characters around `…` (keys of
 * 12 characters or more), only `…` and the last 2 (6–11 characters), or just `…` (shorter).
 * Empty for no key. A masked key never reveals more than 7 characters of the key.
 */
export function maskApiKey(key: string): string {
  if (key === '') return '';
  if (key.length >= 12) return `${key.slice(0, 3)}${API_KEY_MASK}${key.slice(-4)}`;
  if (key.length >= 6) return `${API_KEY_MASK}${key.slice(-2)}`;
  return API_KEY_MASK;
}

/** True when the text is a masked key as `maskApiKey` makes it (not a key someone typed). */
export function isMaskedApiKey(text: string): boolean {
  return text.includes(API_KEY_MASK);
}

/** `GET /api/settings` and the answer of `POST /api/settings`: `apiKey` is masked. */
export const apiSettingsSchema = z.object({
  apiKey: z.string(),
  baseURL: z.string(),
  model: z.string(),
  provider: z.string(),
});

/** A model id as providers spell them (`qwen-plus`, `deepseek-r1:8b`, `org/model@rev`). */
export const aiModelIdSchema = z
  .string()
  .trim()
  .min(1, 'Please select a model')
  .max(200)
  .regex(/^[\w.:/@+-]+$/, 'letters, digits and . : / @ + - _ only');

/**
 * `POST /api/settings` body. `apiKey` blank removes the stored key; the masked form
 * `GET` answered keeps it.
 */
export const saveApiSettingsRequestSchema = z.object({
  apiKey: z
    .string()
    .trim()
    .max(MAX_API_KEY_CHARS)
    .regex(/^[\x21-\x7e…]*$/, 'printable characters without spaces only')
    .default(''),
  baseURL: z.string().trim().min(1, 'Please enter API endpoint').max(2000),
  model: aiModelIdSchema,
  provider: z.string().trim().min(1, 'Please select a service provider').max(64),
});

export type ApiSettings = z.infer<typeof apiSettingsSchema>;
export type SaveApiSettingsRequest = z.infer<typeof saveApiSettingsRequestSchema>;
