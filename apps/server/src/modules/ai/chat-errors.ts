import type { ChatErrorCode, ChatEvent } from '@ct/domain';
import type { APIError } from 'openai';

/*
 * How a chat's failures read: a provider's refusal by its HTTP status, and an answer the
 * relay stopped (no first token, a pause, the total time or the size limit), each as the one
 * `error` event the stream ends with. The provider's own words are kept, never the key.
 */

/** Why the relay stopped an answer: its timers, its size limit, or the client went away. */
export type StopReason = 'first-token' | 'idle' | 'total' | 'too-long' | 'client';

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The provider's own words from an API error, without the key, at most 300 characters. */
function upstreamText(error: APIError, apiKey: string): string {
  const body = error.error as { message?: unknown } | undefined;
  const raw =
    typeof body?.message === 'string' && body.message !== ''
      ? body.message
      : error.message.replace(/^\d{3}\s+/, '');
  const clean = apiKey.length >= 4 ? raw.split(apiKey).join('***') : raw;
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

/** The error event of a provider's refusal, worded by its HTTP status. */
export function apiErrorEvent(
  error: APIError,
  chat: { apiKey: string; model: string; provider: { label: string } },
): ChatEvent {
  const said = upstreamText(error, chat.apiKey);
  const status = error.status;
  const fail = (code: ChatErrorCode, message: string): ChatEvent => ({
    event: 'error',
    data: status === undefined ? { code, message } : { code, message, status },
  });
  const name = chat.provider.label;
  if (status === undefined) {
    return fail('upstream', `${name} reported an error during the answer: ${said}`);
  }
  if (status === 401 || status === 403) {
    return fail(
      'auth',
      `${name} refused the API key (HTTP ${status}). Check the key in API Settings. ${said}`,
    );
  }
  if (status === 404) {
    return fail('model', `${name} does not know the model "${chat.model}" (HTTP 404). ${said}`);
  }
  if (status === 429) {
    return fail('rate_limited', `${name} is rate limiting the requests (HTTP 429). ${said}`);
  }
  if (status === 400 || status === 413 || status === 422) {
    return fail('bad_request', `${name} refused the request (HTTP ${status}). ${said}`);
  }
  return fail('upstream', `${name} failed to answer (HTTP ${status}). ${said}`);
}

export function errorEvent(code: ChatErrorCode, message: string): ChatEvent {
  return { event: 'error', data: { code, message } };
}

/** The error event of an answer the relay stopped (`reason`), within the answer's bounds. */
export function stoppedEvent(
  reason: Exclude<StopReason, 'client'>,
  name: string,
  bounds: { firstTokenMs: number; idleMs: number; totalMs: number; maxChars: number },
): ChatEvent {
  if (reason === 'first-token') {
    return errorEvent('timeout', `${name} sent no answer within ${seconds(bounds.firstTokenMs)}.`);
  }
  if (reason === 'total') {
    return errorEvent(
      'timeout',
      `${name} did not finish its answer within ${seconds(bounds.totalMs)}; the answer is incomplete.`,
    );
  }
  if (reason === 'too-long') {
    return errorEvent(
      'too_long',
      `The answer passed the limit of ${bounds.maxChars} characters and was cut there; the rest was not read.`,
    );
  }
  return errorEvent(
    'timeout',
    `${name} stopped sending for ${seconds(bounds.idleMs)}; the answer is incomplete.`,
  );
}
