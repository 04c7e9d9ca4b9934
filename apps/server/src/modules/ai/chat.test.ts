import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { ChatEvent } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { buildUser, loginAs } from '../../test/factories.ts';
import {
  createClock,
  openTestDatabase,
  testConfig,
  type TestDatabase,
} from '../../test/helpers.ts';
import {
  DEFAULT_ANSWER,
  DEFAULT_REASONING,
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../test/openai-test-server.ts';
import { waitFor } from '../../test/wait-for.ts';
import { DEFAULT_AI_CONFIG } from './config.ts';
import { labProvider, postChat, textOf } from '../../test/ai.ts';

const KEY = 'sk-lab-0123456789abcdef9876';
const RATE_LIMIT = 6;
const clock = createClock();
const logLines: string[] = [];

let upstream: OpenAiTestServer;
let testDb: TestDatabase;
let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  upstream = await startOpenAiTestServer();
  testDb = await openTestDatabase();
  const lab = labProvider(upstream.baseUrl);
  const offline = { ...lab, label: 'Offline', value: 'offline', base_url: 'http://127.0.0.1:1/v1' };
  app = await buildApp({
    db: testDb.db,
    now: clock.now,
    config: testConfig({
      dataDir: testDb.dataDir,
      ai: {
        ...DEFAULT_AI_CONFIG,
        ollamaBaseUrl: upstream.baseUrl,
        extraProviders: [lab, offline],
        encryptionSecret: 'chat-test-secret-of-at-least-32-characters',
        firstTokenTimeoutMs: 2000,
        idleTimeoutMs: 1000,
        chatRate: { limit: RATE_LIMIT, windowMs: 60_000 },
      },
    }),
    // every log line of the run, at the most detailed level, to check the key never shows
    logger: {
      level: 'trace',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      }),
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  await testDb.close();
  await upstream.close();
});

type User = { cookie: string; chat: (body: unknown) => ReturnType<typeof postChat> };

/** A new user (own rate window) whose settings point at the lab server with KEY. */
async function labUser(settings: Record<string, unknown> = {}): Promise<User> {
  const built = await buildUser(testDb.db);
  const { cookie } = await loginAs(app, built);
  const saved = await app.inject({
    method: 'POST',
    url: '/api/settings',
    cookies: { ct_sid: cookie },
    payload: {
      provider: 'lab',
      baseURL: upstream.baseUrl,
      model: 'test-model',
      apiKey: KEY,
      ...settings,
    },
  });
  expect(saved.statusCode).toBe(200);
  return { cookie, chat: (body) => postChat(origin, cookie, body) };
}

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

function streamed(reply: Awaited<ReturnType<typeof postChat>>): ChatEvent[] {
  expect(reply.status).toBe(200);
  if (!reply.stream) throw new Error(`expected a stream, got ${JSON.stringify(reply.body)}`);
  return reply.events;
}

function lastChatBody() {
  const body = upstream.chats().at(-1)?.body as {
    model: string;
    stream: boolean;
    messages: Record<string, unknown>[];
  };
  return body;
}

describe('streaming relay', () => {
  it('streams the reasoning, then the answer, then done, with the saved key and model', async () => {
    const user = await labUser();
    const events = streamed(await user.chat(ask('Write me a strategy')));
    const kinds = events.map((e) => e.event);
    // every reasoning event comes before the first content event, done is last
    expect(kinds.lastIndexOf('reasoning')).toBeLessThan(kinds.indexOf('content'));
    expect(kinds.at(-1)).toBe('done');
    expect(events.at(-1)).toEqual({ event: 'done', data: { finish_reason: 'stop' } });
    expect(textOf(events, 'reasoning')).toBe(DEFAULT_REASONING);
    expect(textOf(events, 'content')).toBe(DEFAULT_ANSWER);
    // pieces arrive one by one, not as one block
    expect(kinds.filter((k) => k === 'content').length).toBeGreaterThan(10);

    const request = upstream.chats().at(-1);
    expect(request?.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({ model: 'test-model', stream: true });
    expect(lastChatBody().messages.at(-1)).toEqual({
      role: 'user',
      content: 'Write me a strategy',
    });
  });

  it('relays Ollama-style `reasoning` and ignores usage chunks without choices', async () => {
    const user = await labUser();
    upstream.script({
      reasoning: ['Thinking', ' hard'],
      reasoningField: 'reasoning',
      content: ['Done', '.'],
      usageChunk: true,
    });
    const events = streamed(await user.chat(ask('hi')));
    expect(textOf(events, 'reasoning')).toBe('Thinking hard');
    expect(textOf(events, 'content')).toBe('Done.');
    expect(events.at(-1)?.event).toBe('done');
  });

  it('calls the local server without a saved key, sending a non-empty one', async () => {
    const user = await labUser({ provider: 'ollama', model: 'test-model', apiKey: '' });
    const events = streamed(await user.chat(ask('hi')));
    expect(events.at(-1)?.event).toBe('done');
    expect(upstream.chats().at(-1)?.authorization).toMatch(/^Bearer \S+$/);
  });

  it('takes provider and model from the request over the saved ones', async () => {
    const user = await labUser();
    streamed(await user.chat(ask('hi', { provider: 'ollama', model: 'test-reasoner' })));
    const request = upstream.chats().at(-1);
    expect(request?.body).toMatchObject({ model: 'test-reasoner' });
    // the saved key belongs to the lab provider and is not sent elsewhere
    expect(request?.authorization).not.toContain(KEY);
  });

  it('never sends reasoning back to the provider in later turns', async () => {
    const user = await labUser();
    streamed(
      await user.chat({
        messages: [
          { role: 'user', content: 'first question' },
          {
            role: 'assistant',
            content: '<think>inline private thoughts</think>first answer',
            reasoning_content: 'private thoughts',
            reasoning: 'private thoughts',
          },
          { role: 'user', content: 'second question' },
        ],
      }),
    );
    const { messages } = lastChatBody();
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ]);
    expect(JSON.stringify(messages)).not.toContain('private thoughts');
  });

  it("puts the chart, the editor's code and the last backtest in a system message", async () => {
    const user = await labUser();
    const code = 'def main(data_array):\n    return [1]\n';
    streamed(
      await user.chat(
        ask('why does this fail?', {
          context: {
            symbol: 'BTCUSDT',
            period: '1h',
            strategyName: 'Trend',
            code,
            backtest: {
              error: 'Invalid strategy result: records[0] is not a dict',
              metrics: { total_trades: 0, win_rate: null },
            },
          },
        }),
      ),
    );
    const [system] = lastChatBody().messages;
    expect(system?.role).toBe('system');
    const text = String(system?.content);
    expect(text).toContain('BTCUSDT');
    expect(text).toContain('period 1h');
    expect(text).toContain('"Trend"');
    expect(text).toContain(`\`\`\`python\n${code}\n\`\`\``);
    expect(text).toContain('Invalid strategy result: records[0] is not a dict');
    expect(text).toContain('- total_trades: 0');
    expect(text).toContain('main(data_array)');
  });

  it('aborts the upstream request when the browser goes away', async () => {
    const user = await labUser();
    upstream.script({ content: ['first', ' second'], end: 'stall' });
    const browser = new AbortController();
    const reply = await postChat(origin, user.cookie, ask('hi'), {
      signal: browser.signal,
      onEvent: (event) => {
        if (event.event === 'content') browser.abort();
      },
    });
    expect(reply.stream && reply.events[0]).toEqual({ event: 'content', data: { text: 'first' } });
    const request = upstream.chats().at(-1);
    await waitFor(() => request?.closedEarly === true);
  });
});

describe('failures are one clear error event, never a hung stream', () => {
  it.each([
    [
      'a refused key',
      { status: 401, error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
      { code: 'auth', status: 401 },
      /refused the API key \(HTTP 401\)/,
    ],
    [
      'an unknown model',
      { status: 404, error: { message: 'The model `x` does not exist', code: 'model_not_found' } },
      { code: 'model', status: 404 },
      /does not know the model "test-model"/,
    ],
    [
      'a provider rate limit',
      { status: 429, error: { message: 'Slow down' } },
      { code: 'rate_limited', status: 429 },
      /HTTP 429/,
    ],
    [
      'a provider failure',
      { status: 500, error: { message: 'boom' } },
      { code: 'upstream', status: 500 },
      /failed to answer \(HTTP 500\)/,
    ],
    [
      'an error inside the stream',
      { content: ['Par', 'tial'], end: 'error' as const, error: { message: 'overloaded' } },
      { code: 'upstream' },
      /reported an error during the answer: overloaded/,
    ],
    [
      'a dropped connection',
      { content: ['Par', 'tial'], end: 'drop' as const },
      { code: 'dropped' },
      /was lost during the answer/,
    ],
    [
      'a stream that ends without finishing',
      { content: ['Par', 'tial'], end: 'end' as const },
      { code: 'dropped' },
      /ended the stream before the answer was complete/,
    ],
    [
      'a provider that never answers',
      { stallBeforeHeaders: true },
      { code: 'timeout' },
      /sent no answer within 2 s/,
    ],
    [
      'a stream that stalls after the first tokens',
      { content: ['Par', 'tial'], end: 'stall' as const },
      { code: 'timeout' },
      /stopped sending for 1 s/,
    ],
  ])('%s', async (_name, script, expected, message) => {
    const user = await labUser();
    upstream.script(script);
    const events = streamed(await user.chat(ask('hi')));
    const last = events.at(-1);
    expect(last?.event).toBe('error');
    expect(last?.data).toMatchObject(expected);
    if (last?.event === 'error') expect(last.data.message).toMatch(message);
    expect(events.filter((e) => e.event === 'error' || e.event === 'done')).toHaveLength(1);
    // whatever came before the failure was relayed
    if ('content' in script) expect(textOf(events, 'content')).toBe('Partial');
  });

  it('an unreachable provider', async () => {
    const user = await labUser({ provider: 'offline', baseURL: 'http://127.0.0.1:1/v1' });
    const events = streamed(await user.chat(ask('hi')));
    expect(events).toEqual([
      {
        event: 'error',
        data: { code: 'unreachable', message: 'Could not reach Offline at http://127.0.0.1:1/v1.' },
      },
    ]);
  });
});

describe('refused before streaming', () => {
  it('without a saved key: the spec message, 422', async () => {
    const user = await labUser({ apiKey: '' });
    const reply = await user.chat(ask('hi'));
    expect(reply).toMatchObject({
      status: 422,
      body: { code: 42200, detail: 'Please set OpenAI API Key first' },
    });
  });

  it('an unknown provider or a malformed body: 422 naming the field', async () => {
    const user = await labUser();
    expect(await user.chat(ask('hi', { provider: 'acme' }))).toMatchObject({
      status: 422,
      body: { detail: 'Unknown service provider: acme' },
    });
    expect(await user.chat({ messages: [{ role: 'user', content: 5 }] })).toMatchObject({
      status: 422,
      body: { detail: expect.stringMatching(/^messages\.0\.content: /) },
    });
    expect(await user.chat(ask('hi', { baseURL: 'http://evil.example/v1' }))).toMatchObject({
      status: 200,
    });
    // an extra baseURL is ignored: the call still went to the lab server
    expect(upstream.chats().at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a message over the size limit: 413', async () => {
    const user = await labUser();
    const calls = upstream.chats().length;
    const reply = await user.chat(ask('x'.repeat(40_000)));
    expect(reply).toMatchObject({
      status: 413,
      body: { code: 41300, detail: 'Message 1 is too long: at most 32000 characters' },
    });
    expect(upstream.chats().length).toBe(calls);
  });

  it(`more than ${RATE_LIMIT} chats a minute per user: 429, and again after the window`, async () => {
    const user = await labUser();
    for (let i = 0; i < RATE_LIMIT; i++) streamed(await user.chat(ask(`question ${i}`)));
    const refused = await user.chat(ask('one more'));
    expect(refused).toMatchObject({
      status: 429,
      body: { code: 42900, detail: expect.stringMatching(/^Too many chat messages/) },
    });
    // another user is not affected
    const other = await labUser();
    streamed(await other.chat(ask('hi')));
    clock.advance(60_001);
    streamed(await user.chat(ask('later')));
  });
});

describe('the key stays secret', () => {
  it('is cut out of a provider message that repeats it', async () => {
    const user = await labUser();
    upstream.script({ status: 401, error: { message: `Incorrect API key provided: ${KEY}` } });
    const events = streamed(await user.chat(ask('hi')));
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(events.at(-1)?.data).toMatchObject({
      code: 'auth',
      message: expect.stringContaining('Incorrect API key provided: ***'),
    });
  });

  it('never appears whole in a log line', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(KEY);
  });
});
