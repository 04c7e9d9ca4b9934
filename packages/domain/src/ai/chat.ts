import { z } from 'zod';
import { aiModelIdSchema } from './settings.ts';

/** Code of a well-formed request the AI calls refuse (HTTP 422): unknown provider, URL not allowed. */
export const CODE_AI_UNPROCESSABLE = 42200;
/** Code of a chat request over the size limits (HTTP 413). */
export const CODE_AI_TOO_LARGE = 41300;

/** Most messages one chat request may carry (the history included). */
export const MAX_CHAT_MESSAGES = 100;
/** Longest single message (characters). */
export const MAX_CHAT_MESSAGE_CHARS = 32_000;
/** Longest editor code sent as context (characters). */
export const MAX_CHAT_CONTEXT_CODE_CHARS = 100_000;
/** Longest backtest error sent as context (characters). */
export const MAX_CHAT_CONTEXT_ERROR_CHARS = 20_000;
/** Most characters of one request: every message plus the context. */
export const MAX_CHAT_TOTAL_CHARS = 200_000;

/**
 * One turn of the history. Only `role` and `content` are kept: reasoning a client may have
 * stored beside a turn (`reasoning_content`, `reasoning`) is dropped, never sent back.
 */
export const chatMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
});

const metricValueSchema = z.union([z.number(), z.string().max(200), z.boolean(), z.null()]);

/**
 * What the user is looking at: the active chart, the editor's code, the last backtest's
 * metrics or error. The server turns it into a system message.
 */
export const chatContextSchema = z.object({
  symbol: z.string().trim().max(64).nullish(),
  period: z.string().trim().max(16).nullish(),
  strategyName: z.string().trim().max(200).nullish(),
  code: z.string().nullish(),
  backtest: z
    .object({
      metrics: z
        .record(z.string().max(100), metricValueSchema)
        .refine((m) => Object.keys(m).length <= 50, 'at most 50 metrics')
        .nullish(),
      error: z.string().nullish(),
    })
    .nullish(),
});

/** `POST /api/ai/chat` body; `provider` and `model` default to the saved settings. */
export const chatRequestSchema = z.object({
  messages: z
    .array(chatMessageSchema)
    .min(1)
    .refine((list) => list.at(-1)?.role === 'user', 'the last message must be the user’s')
    .refine((list) => (list.at(-1)?.content.trim() ?? '') !== '', 'the message is empty'),
  provider: z.string().trim().min(1).max(64).optional(),
  model: aiModelIdSchema.optional(),
  context: chatContextSchema.nullish(),
});

export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatContext = z.infer<typeof chatContextSchema>;
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/**
 * Why a well-formed chat request is too large, or null when it fits the limits above.
 * Counted in UTF-16 code units (JavaScript string length).
 */
export function chatSizeProblem(request: ChatRequest): string | null {
  if (request.messages.length > MAX_CHAT_MESSAGES) {
    return `Too many messages: at most ${MAX_CHAT_MESSAGES} per request`;
  }
  const longest = request.messages.findIndex((m) => m.content.length > MAX_CHAT_MESSAGE_CHARS);
  if (longest !== -1) {
    return `Message ${longest + 1} is too long: at most ${MAX_CHAT_MESSAGE_CHARS} characters`;
  }
  const code = request.context?.code ?? '';
  if (code.length > MAX_CHAT_CONTEXT_CODE_CHARS) {
    return `The editor code is too long to send: at most ${MAX_CHAT_CONTEXT_CODE_CHARS} characters`;
  }
  const error = request.context?.backtest?.error ?? '';
  if (error.length > MAX_CHAT_CONTEXT_ERROR_CHARS) {
    return `The backtest error is too long to send: at most ${MAX_CHAT_CONTEXT_ERROR_CHARS} characters`;
  }
  const total =
    request.messages.reduce((sum, m) => sum + m.content.length, 0) + code.length + error.length;
  if (total > MAX_CHAT_TOTAL_CHARS) {
    return `The conversation is too long: at most ${MAX_CHAT_TOTAL_CHARS} characters in all`;
  }
  return null;
}

/**
 * Why a chat failed, in the `error` event:
 * - `auth`: the provider refused the API key (HTTP 401/403);
 * - `model`: the provider does not know the model (HTTP 404);
 * - `rate_limited`: the provider's quota or rate limit (HTTP 429);
 * - `bad_request`: the provider refused the request otherwise (HTTP 400, 413, 422);
 * - `upstream`: the provider failed (HTTP 5xx) or sent an error inside the stream;
 * - `unreachable`: the provider's address could not be reached;
 * - `timeout`: no first token, no next token, or no end of the answer within the server's
 *   limits (what arrived before stays);
 * - `too_long`: the answer passed the server's size limit; it was cut there (what arrived
 *   before stays);
 * - `dropped`: the stream ended before the answer was complete.
 */
export const CHAT_ERROR_CODES = [
  'auth',
  'model',
  'rate_limited',
  'bad_request',
  'upstream',
  'unreachable',
  'timeout',
  'too_long',
  'dropped',
] as const;
export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number];

/** `event: reasoning` and `event: content`: the next piece of text, in order. */
export const chatTextEventSchema = z.object({ text: z.string() });
/** `event: error`: the last event of a failed answer. `status`: the provider's HTTP status. */
export const chatErrorEventSchema = z.object({
  code: z.enum(CHAT_ERROR_CODES),
  message: z.string(),
  status: z.number().int().optional(),
});
/** `event: done`: the last event of a complete answer. */
export const chatDoneEventSchema = z.object({ finish_reason: z.string().nullable() });

export type ChatEvent =
  | { event: 'reasoning'; data: z.infer<typeof chatTextEventSchema> }
  | { event: 'content'; data: z.infer<typeof chatTextEventSchema> }
  | { event: 'error'; data: z.infer<typeof chatErrorEventSchema> }
  | { event: 'done'; data: z.infer<typeof chatDoneEventSchema> };

const EVENT_SCHEMAS = {
  reasoning: chatTextEventSchema,
  content: chatTextEventSchema,
  error: chatErrorEventSchema,
  done: chatDoneEventSchema,
} as const;

/**
 * Checks one server-sent event of `POST /api/ai/chat` (its `event` name and `data` text);
 * null for an unknown event name or a body that does not match.
 */
export function parseChatEvent(event: string | undefined, data: string): ChatEvent | null {
  if (event === undefined || !(event in EVENT_SCHEMAS)) return null;
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = EVENT_SCHEMAS[event as keyof typeof EVENT_SCHEMAS].safeParse(body);
  return parsed.success ? ({ event, data: parsed.data } as ChatEvent) : null;
}

/** The SSE text of one event (`event:` line, one `data:` line of JSON, blank line). */
export function formatChatEvent(event: ChatEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
