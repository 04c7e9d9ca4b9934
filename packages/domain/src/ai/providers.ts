import { z } from 'zod';

/** A model a provider offers (spec section 4: label, value, description). */
export const aiModelSchema = z.object({
  label: z.string().min(1).max(200),
  value: z.string().min(1).max(200),
  description: z.string().max(1000),
});

/**
 * An OpenAI-compatible service (spec section 4: label, value, base_url, models).
 * `requires_key` is false for local servers that accept any key (Ollama); the client then
 * sends chats without asking for an API key.
 */
export const aiProviderSchema = z.object({
  label: z.string().min(1).max(200),
  value: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lower-case letters, digits, - and _ (1-64)'),
  base_url: z.url({ protocol: /^https?$/ }),
  models: z.array(aiModelSchema),
  requires_key: z.boolean().default(true),
});

/** `GET /api/ai/providers`. */
export const aiProvidersResponseSchema = z.object({ providers: z.array(aiProviderSchema) });

export type AiModel = z.infer<typeof aiModelSchema>;
export type AiProvider = z.infer<typeof aiProviderSchema>;
export type AiProvidersResponse = z.infer<typeof aiProvidersResponseSchema>;

/** Spec section 9: the qwen provider with model qwen-plus. */
export const DEFAULT_AI_PROVIDER = 'qwen';
export const DEFAULT_AI_MODEL = 'qwen-plus';

/** A base URL in one spelling: no trailing slashes (`…/v1/` and `…/v1` are one endpoint). */
export function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}
