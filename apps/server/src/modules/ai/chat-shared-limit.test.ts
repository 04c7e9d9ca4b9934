import type { AddressInfo } from 'node:net';
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
  labProvider,
  type OpenAiTestServer,
  startOpenAiTestServer,
} from '../../test/openai-test-server.ts';
import { MemoryRateLimitStore, type RateLimitStore } from '../auth/rate-limit-store.ts';
import { RedisRateLimitStore } from '../cluster/rate-limit-store.ts';
import { RedisLink } from '../cluster/redis.ts';
import { redisServerBinary, startRedis } from '../../test/cluster.ts';
import { DEFAULT_AI_CONFIG } from './config.ts';
import {} from '../../test/ai.ts';

// The chat limit with REDIS_URL: two API nodes (two apps on one database, each with its own
// Redis connections, as two processes would have) count one window per user, against a real
// throwaway redis-server; the answers are those of one node counting in memory.
const HAS_REDIS = redisServerBinary() !== null;
if (!HAS_REDIS) console.warn('chat-shared-limit.test.ts is skipped: run scripts/ensure-redis.sh');

const KEY = 'sk-lab-0123456789abcdef9876';
const LIMIT = 3;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

type Node = { app: FastifyInstance; origin: string };
type Answer = { status: number; retryAfter: string | null; body: unknown };

describe.skipIf(!HAS_REDIS)('the chat limit across API nodes (Redis)', () => {
  const clock = createClock();
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let upstream: OpenAiTestServer;
  let testDb: TestDatabase;
  const links: RedisLink[] = [];
  const nodes: Node[] = [];
  let a: Node;
  let b: Node;
  let memoryOnly: Node;

  async function startNode(rateLimitStore?: RateLimitStore): Promise<Node> {
    const lab = labProvider(upstream.baseUrl);
    const app = await buildApp({
      db: testDb.db,
      now: clock.now,
      rateLimitStore,
      config: testConfig({
        dataDir: testDb.dataDir,
        ai: {
          ...DEFAULT_AI_CONFIG,
          ollamaBaseUrl: upstream.baseUrl,
          extraProviders: [lab],
          encryptionSecret: 'chat-test-secret-of-at-least-32-characters',
          chatRate: { limit: LIMIT, windowMs: 60_000 },
        },
      }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const node = { app, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    nodes.push(node);
    return node;
  }

  async function redisStore(): Promise<RedisRateLimitStore> {
    const link = await RedisLink.open(redis.url, silent);
    links.push(link);
    return new RedisRateLimitStore(link);
  }

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startOpenAiTestServer();
    testDb = await openTestDatabase();
    a = await startNode(await redisStore());
    b = await startNode(await redisStore());
    memoryOnly = await startNode();
  });

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.app.close()));
    await Promise.all(links.map((l) => l.close()));
    await testDb?.close();
    await upstream?.close();
    await redis?.stop();
  });

  /** A new user (logged in once; the session holds on every node) with the lab key saved. */
  async function labUser(): Promise<string> {
    const { cookie } = await loginAs(a.app, await buildUser(testDb.db));
    const saved = await a.app.inject({
      method: 'POST',
      url: '/api/settings',
      cookies: { ct_sid: cookie },
      payload: { provider: 'lab', baseURL: upstream.baseUrl, model: 'test-model', apiKey: KEY },
    });
    expect(saved.statusCode).toBe(200);
    return cookie;
  }

  /** Sends one chat to `node`: the answer streamed whole, or the refusal with its Retry-After. */
  async function chat(node: Node, cookie: string, text: string): Promise<Answer> {
    const res = await fetch(`${node.origin}/api/ai/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `ct_sid=${cookie}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: text }] }),
    });
    const streams = res.headers.get('content-type')?.startsWith('text/event-stream') === true;
    const body: unknown = streams ? (await res.text()).includes('event: done') : await res.json();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
  }

  /** Chats at 0, 10 and 20 s on the given nodes, then one more: the answers in order. */
  async function fillAndExceed(on: Node[]): Promise<Answer[]> {
    const cookie = await labUser();
    const start = clock.now();
    const answers: Answer[] = [];
    for (const [i, node] of on.entries()) {
      clock.set(start + Math.min(i, LIMIT - 1) * 10_000);
      answers.push(await chat(node, cookie, `question ${i}`));
    }
    return answers;
  }

  it('counts one window per user on both nodes, with the answers of one node in memory', async () => {
    const shared = await fillAndExceed([a, b, a, b, a]);
    const ok = { status: 200, retryAfter: null, body: true };
    const refused = {
      status: 429,
      retryAfter: '40',
      body: {
        code: 42900,
        msg: expect.any(String),
        detail: 'Too many chat messages. Please try again in 40 seconds.',
      },
    };
    // node b refuses the fourth chat of the minute although it had served only one
    expect(shared).toEqual([ok, ok, ok, refused, refused]);

    const alone = await fillAndExceed([memoryOnly, memoryOnly, memoryOnly, memoryOnly]);
    expect(alone).toEqual(shared.slice(0, 4));
  });

  it('frees the window on every node when its first chat leaves it; refusals count nothing', async () => {
    const cookie = await labUser();
    const start = clock.now();
    for (let i = 0; i < LIMIT; i++) {
      expect((await chat(i % 2 === 0 ? a : b, cookie, `q ${i}`)).status).toBe(200);
    }
    for (const node of [a, b]) {
      expect(await chat(node, cookie, 'one more')).toMatchObject({ status: 429, retryAfter: '60' });
    }
    // another user is not affected
    expect((await chat(b, await labUser(), 'hi')).status).toBe(200);
    clock.set(start + 59_999);
    expect(await chat(b, cookie, 'almost')).toMatchObject({ status: 429, retryAfter: '1' });
    clock.set(start + 60_000);
    expect((await chat(b, cookie, 'later')).status).toBe(200);
    // the three chats of `start` have left the window: three more fit, on either node
    expect((await chat(a, cookie, 'again')).status).toBe(200);
    expect((await chat(b, cookie, 'and again')).status).toBe(200);
    expect(await chat(a, cookie, 'too many')).toMatchObject({ status: 429, retryAfter: '60' });
  });

  it("keeps as many chats as the limit, also beyond the login limits' 64 (AI_CHAT_RATE_LIMIT=100)", async () => {
    const key = `chat:user:keep-${Date.now()}`;
    for (const store of [await redisStore(), new MemoryRateLimitStore()]) {
      for (let i = 1; i <= 100; i++) expect(await store.hit(key, 1000 + i, 60_000, 100)).toBe(i);
      expect(await store.hit(key, 1101, 60_000, 100)).toBe(100); // the oldest is dropped
      const kept = await store.events(key, 1101, 60_000);
      expect([kept.length, kept[0], kept.at(-1)]).toEqual([100, 1002, 1101]);
      // without `keep`, the login limits' bound
      expect(await store.hit(`${key}:login`, 1000, 60_000)).toBe(1);
      for (let i = 0; i < 70; i++) await store.hit(`${key}:login`, 1000, 60_000);
      expect(await store.events(`${key}:login`, 1000, 60_000)).toHaveLength(64);
    }
  });
});
