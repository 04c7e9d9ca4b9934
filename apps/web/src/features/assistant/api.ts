import {
  aiProvidersResponseSchema,
  CODE_AUTH_FAILED,
  apiSettingsSchema,
  parseChatEvent,
  type AiProvider,
  type ApiSettings,
  type ChatEvent,
  type ChatRequest,
  type SaveApiSettingsRequest,
} from '@ct/domain';
import { createParser } from 'eventsource-parser';
import { ApiError, buildUrl, handleAuthFailure, http, identityHeaders } from '../../api/client';

export async function fetchProviders(): Promise<AiProvider[]> {
  const answer = await http.get('/api/ai/providers', { schema: aiProvidersResponseSchema });
  return answer.providers;
}

/** The saved settings; `apiKey` comes back masked (`sk-…3456`), empty when none is saved. */
export async function fetchSettings(): Promise<ApiSettings> {
  return http.get('/api/settings', { schema: apiSettingsSchema, noCache: true });
}

export async function saveSettings(body: SaveApiSettingsRequest): Promise<ApiSettings> {
  return http.post('/api/settings', body, { schema: apiSettingsSchema });
}

/**
 * Reads a server-sent event stream and hands over each chat event, checked by the domain's
 * schemas; events it does not know are skipped. Resolves when the stream ends.
 */
export async function readChatEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ChatEvent) => void,
): Promise<void> {
  const parser = createParser({
    onEvent: (message) => {
      const event = parseChatEvent(message.event, message.data);
      if (event) onEvent(event);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
  } finally {
    reader.releaseLock();
  }
}

/**
 * `POST /api/ai/chat`: streams the answer's events to `onEvent` (EventSource cannot POST,
 * so this is fetch with the client's identity headers). A refused request (non-2xx) throws
 * an ApiError; an aborted one throws the abort error.
 */
export async function streamChat(
  request: ChatRequest,
  onEvent: (event: ChatEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(buildUrl('/api/ai/chat'), {
    method: 'POST',
    headers: {
      Accept: 'text/event-stream',
      'Content-Type': 'application/json',
      ...identityHeaders(),
    },
    credentials: 'include',
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    const code =
      typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : null;
    if (code === CODE_AUTH_FAILED) handleAuthFailure();
    throw new ApiError(response.status, body, `Chat request failed with status ${response.status}`);
  }
  await readChatEvents(response.body, onEvent);
}
