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

/*
 * The bounds of one chat answer: a size limit (AI_ANSWER_MAX_CHARS) and a total time limit
 * (AI_ANSWER_TIMEOUT_MS). Past either the provider's request is aborted, what arrived stays,
 * and the stream ends with one `error` event saying why.
 */

const MAX_CHARS = 5000;
const TOTAL_MS = 1500;

let upstream: OpenAiTestServer;
let testDb: TestDatabase;
let app: FastifyInstance;
let origin: string;
let cookie: string;

beforeAll(async () => {
  upstream = await startOpenAiTestServer();
  testDb = await openTestDatabase();
  const lab = labProvider(upstream.baseUrl);
  app = await buildApp({
    db: testDb.db,
    now: createClock().now,
    config: testConfig({
      dataDir: testDb.dataDir,
      ai: {
        ...DEFAULT_AI_CONFIG,
        ollamaBaseUrl: upstream.baseUrl,
        extraProviders: [lab],
        encryptionSecret: 'chat-bounds-secret-of-at-least-32-characters',
        firstTokenTimeoutMs: 5000,
        idleTimeoutMs: 5000,
        answerTimeoutMs: TOTAL_MS,
        answerMaxChars: MAX_CHARS,
        chatRate: { limit: 1000, windowMs: 60_000 },
      },
    }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  ({ cookie } = await loginAs(app, await buildUser(testDb.db)));
  const saved = await app.inject({
    method: 'POST',
    url: '/api/settings',
    cookies: { ct_sid: cookie },
    payload: {
      provider: 'lab',
      baseURL: upstream.baseUrl,
      model: 'test-model',
      apiKey: 'sk-lab-0123456789abcdef9876',
    },
  });
  expect(saved.statusCode).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await testDb?.close();
  await upstream?.close();
});

async function chat(): Promise<ChatEvent[]> {
  const reply = await postChat(origin, cookie, { messages: [{ role: 'user', content: 'hi' }] });
  expect(reply.status).toBe(200);
  if (!reply.stream) throw new Error(`expected a stream, got ${JSON.stringify(reply.body)}`);
  return reply.events;
}

const ends = (events: ChatEvent[]) =>
  events.filter((e) => e.event === 'done' || e.event === 'error');

describe('one answer is bounded', () => {
  it('leaves an answer within the limits as it was', async () => {
    const events = await chat();
    expect(textOf(events, 'reasoning')).toBe(DEFAULT_REASONING);
    expect(textOf(events, 'content')).toBe(DEFAULT_ANSWER);
    expect(ends(events)).toEqual([{ event: 'done', data: { finish_reason: 'stop' } }]);
  });

  it('cuts a huge answer at the size limit, stops reading it and says so', async () => {
    // 60 MB offered; the server reads a little past 5,000 characters, then aborts
    upstream.script({
      reasoning: ['Thinking. '],
      content: ['Start '],
      repeat: { piece: 'x'.repeat(1000), times: 60_000 },
    });
    const events = await chat();
    const reasoning = textOf(events, 'reasoning');
    const content = textOf(events, 'content');
    expect(reasoning).toBe('Thinking. ');
    expect(content.startsWith('Start xxx')).toBe(true);
    // reasoning and content together fill the limit exactly
    expect(reasoning.length + content.length).toBe(MAX_CHARS);
    expect(ends(events)).toEqual([
      {
        event: 'error',
        data: {
          code: 'too_long',
          message: `The answer passed the limit of ${MAX_CHARS} characters and was cut there; the rest was not read.`,
        },
      },
    ]);
    expect(events.at(-1)?.event).toBe('error');
    const request = upstream.chats().at(-1);
    await waitFor(() => request?.closedEarly === true);
    expect(request?.finished).toBe(false);
  });

  it('ends a trickling answer at the total time limit, keeping what arrived', async () => {
    // a piece every 100 ms never trips the idle limit; 1,000 of them would take 100 s
    upstream.script({ content: ['Slow'], repeat: { piece: ' tick', times: 1000 }, delayMs: 100 });
    const events = await chat();
    const content = textOf(events, 'content');
    expect(content.startsWith('Slow tick')).toBe(true);
    expect(content.length).toBeLessThan('Slow'.length + 1000 * ' tick'.length);
    expect(ends(events)).toEqual([
      {
        event: 'error',
        data: {
          code: 'timeout',
          message: 'Lab did not finish its answer within 1.5 s; the answer is incomplete.',
        },
      },
    ]);
    expect(events.at(-1)?.event).toBe('error');
    const request = upstream.chats().at(-1);
    await waitFor(() => request?.closedEarly === true);
  });
});
