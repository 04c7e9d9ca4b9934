import type { ChatEvent } from '@ct/domain';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, MalformedAnswerError } from '../../api/client';
import { STORAGE_KEYS } from '../../shared/storage';
import { jsonResponse } from '../../test/fixtures';
import { fetchProviders, fetchSettings, readChatEvents, saveSettings, streamChat } from './api';

/** A response body delivering the given byte chunks one by one. */
function bodyOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      }
      controller.close();
    },
  });
}

async function eventsOf(chunks: (string | Uint8Array)[]): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  await readChatEvents(bodyOf(chunks), (event) => events.push(event));
  return events;
}

describe('the chat stream reader', () => {
  it('hands over reasoning, content and done events in order', async () => {
    const events = await eventsOf([
      'event: reasoning\ndata: {"text":"Think"}\n\n',
      'event: content\ndata: {"text":"# Hello"}\n\n',
      'event: done\ndata: {"finish_reason":"stop"}\n\n',
    ]);
    expect(events).toEqual([
      { event: 'reasoning', data: { text: 'Think' } },
      { event: 'content', data: { text: '# Hello' } },
      { event: 'done', data: { finish_reason: 'stop' } },
    ]);
  });

  it('joins events split across chunks, inside lines and inside a character', async () => {
    const bytes = new TextEncoder().encode('event: content\ndata: {"text":"均线"}\n\n');
    // split in the middle of the three bytes of 均
    const cut = bytes.indexOf(0xe5) + 1;
    const events = await eventsOf([
      'event: reas',
      'oning\ndata: {"te',
      'xt":"a"}\n',
      '\n',
      bytes.slice(0, cut),
      bytes.slice(cut),
    ]);
    expect(events).toEqual([
      { event: 'reasoning', data: { text: 'a' } },
      { event: 'content', data: { text: '均线' } },
    ]);
  });

  it('hands over an error event with its code and message', async () => {
    const events = await eventsOf([
      'event: content\ndata: {"text":"Partial"}\n\n',
      'event: error\ndata: {"code":"upstream","message":"The provider failed (HTTP 500)","status":500}\n\n',
    ]);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { code: 'upstream', message: 'The provider failed (HTTP 500)', status: 500 },
    });
  });

  it('skips keep-alive comments, unknown events and bodies that do not match', async () => {
    const events = await eventsOf([
      ': keep-alive\n\n',
      'event: usage\ndata: {"tokens":3}\n\n',
      'event: content\ndata: not json\n\n',
      'event: content\ndata: {"text":42}\n\n',
      'data: {"text":"no event name"}\n\n',
      'event: content\ndata: {"text":"ok"}\n\n',
    ]);
    expect(events).toEqual([{ event: 'content', data: { text: 'ok' } }]);
  });
});

describe('streamChat', () => {
  it('posts the request with the identity headers and the session cookie', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '7');
    localStorage.setItem(STORAGE_KEYS.userName, 'demo@example.com');
    const fetchMock = vi.fn(
      async () =>
        new Response(bodyOf(['event: content\ndata: {"text":"Hi"}\n\n']), {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const events: ChatEvent[] = [];
    await streamChat(
      { messages: [{ role: 'user', content: 'Hello' }], provider: 'ollama', model: 'm' },
      (event) => events.push(event),
      new AbortController().signal,
    );
    expect(events).toEqual([{ event: 'content', data: { text: 'Hi' } }]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/ai/chat');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ 'x-user-id': '7', 'x-user-name': 'demo@example.com' });
    expect(JSON.parse(String(init.body))).toEqual({
      messages: [{ role: 'user', content: 'Hello' }],
      provider: 'ollama',
      model: 'm',
    });
  });

  it('throws the server refusal with its detail', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              code: 42200,
              msg: 'Unknown service provider: x',
              detail: 'Unknown service provider: x',
            }),
            { status: 422, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    const failure = await streamChat(
      { messages: [{ role: 'user', content: 'Hello' }] },
      () => {},
      new AbortController().signal,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(422);
    expect((failure as ApiError).body).toMatchObject({ detail: 'Unknown service provider: x' });
  });
});

describe('the settings and providers calls', () => {
  it.each([
    ['the providers', () => fetchProviders(), { providers: [{ id: 1 }] }],
    ['the settings', () => fetchSettings(), { apiKey: 5 }],
    [
      'a save of the settings',
      () =>
        saveSettings({
          apiKey: '',
          baseURL: 'http://localhost:11434',
          model: 'm',
          provider: 'ollama',
        }),
      null,
    ],
  ])('refuse a malformed answer of %s with a clear error', async (_name, call, body) => {
    vi.stubGlobal('fetch', async () => jsonResponse(body));
    const failure = await call().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MalformedAnswerError);
    expect((failure as Error).message).toMatch(/^Unexpected answer from (GET|POST) \/api\//);
  });
});
