import type { SimQuote } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBroker, type Publication } from '../gateway/broker.ts';
import { MarketData } from '../market/market-data.ts';
import { MarketFeed } from '../market/feed.ts';
import { LoginThrottle } from '../auth/login-limits.ts';
import { MemoryRateLimitStore } from '../auth/rate-limit-store.ts';
import { PinRelay } from './pin-relay.ts';
import { SharedQuotes } from './quotes.ts';
import { RedisBroker } from './redis-broker.ts';
import { RedisLink } from './redis.ts';
import { RedisRateLimitStore } from './rate-limit-store.ts';
import { redisServerBinary, startRedis, waitUntil } from '../../test/cluster.ts';

// The Redis parts of a cluster against a real redis-server (scripts/ensure-redis.sh), each
// "node" with its own connections, as two processes would have.
const HAS_REDIS = redisServerBinary() !== null;
if (!HAS_REDIS) console.warn('redis.test.ts is skipped: run scripts/ensure-redis.sh');

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const quote = (time: number, bid: number): SimQuote => ({ time, bid, ask: bid + 1, size: 1 });

describe.skipIf(!HAS_REDIS)('a cluster over Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  const links: RedisLink[] = [];
  const node = async () => {
    const link = await RedisLink.open(redis.url, silent);
    links.push(link);
    return link;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    await redis?.stop();
  });

  it('delivers every publication of a node to the listeners of every node, in order', async () => {
    const [a, b] = [await RedisBroker.open(await node()), await RedisBroker.open(await node())];
    const heardA: Publication[] = [];
    const heardB: Publication[] = [];
    a.listen((p) => heardA.push(p));
    b.listen((p) => heardB.push(p));
    for (let i = 0; i < 50; i++) a.publish('public:BTCUSDT', { price: 100 + i });
    b.publish('account:u1', { type: 'pending_added', pId: '7' });
    await waitUntil(
      'all publications on both nodes',
      () => heardA.length === 51 && heardB.length === 51,
    );
    const prices = heardB.slice(0, 50).map((p) => (p.data as { price: number }).price);
    expect(prices).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i));
    expect(heardA.at(-1)).toEqual({
      channel: 'account:u1',
      data: { type: 'pending_added', pId: '7' },
    });
    a.close();
    b.close();
  });

  it("shares the active feed's quotes: a following node adopts them, a late one reads them", async () => {
    const market = new MarketData(1);
    const leader = new SharedQuotes(await node());
    const follower = new MarketFeed(market, new InProcessBroker(), () => 0);
    const stop = await new SharedQuotes(await node()).follow(follower);
    leader.share('BTCUSDT', quote(1000, 50_000));
    leader.share('ETHUSDT', quote(1000, 3000));
    await waitUntil(
      'the quotes on the follower',
      () => follower.latestQuote('ETHUSDT')?.bid === 3000,
    );
    expect(follower.latestQuote('BTCUSDT')).toEqual(quote(1000, 50_000));
    // an older quote (a late message) never replaces a newer one
    follower.adopt('BTCUSDT', quote(999, 1));
    expect(follower.latestQuote('BTCUSDT')?.bid).toBe(50_000);
    const late = new MarketFeed(market, new InProcessBroker(), () => 0);
    const stopLate = await new SharedQuotes(await node()).follow(late);
    expect(late.latestQuote('BTCUSDT')).toEqual(quote(1000, 50_000));
    stop();
    stopLate();
  });

  it('counts login limits across nodes as the memory store does for one', async () => {
    const a = new RedisRateLimitStore(await node());
    const b = new RedisRateLimitStore(await node());
    const memory = new MemoryRateLimitStore();
    const key = `login:${Date.now()}`;
    for (const store of [a, memory]) {
      expect(await store.hit(key, 1000, 500)).toBe(1);
    }
    expect(await b.hit(key, 1200, 500)).toBe(2); // the other node sees the first hit
    expect(await memory.hit(key, 1200, 500)).toBe(2);
    expect(await a.hit(key, 1600, 500)).toBe(2); // 1000 left the window
    expect(await a.events(key, 1600, 500)).toEqual([1200, 1600]);
    await b.unhit(key, 1200);
    expect(await a.events(key, 1600, 500)).toEqual([1600]);
    expect(await a.takeTurn(key, 2000, 100, 150)).toBe(2000);
    expect(await b.takeTurn(key, 2000, 100, 150)).toBe(2100); // queued behind the first
    expect(await a.takeTurn(key, 2000, 100, 150)).toBeNull(); // 200 ms away: too long a wait
    await b.clear(key);
    expect(await a.events(key, 1600, 500)).toEqual([]);
    expect(await a.takeTurn(key, 2000, 100, 150)).toBe(2000);
  });

  it('knows a device that logged in on one node on every other node', async () => {
    const at = Date.now();
    const now = () => at;
    const nodeA = new LoginThrottle(new RedisRateLimitStore(await node()), now);
    const nodeB = new LoginThrottle(new RedisRateLimitStore(await node()), now);
    const email = `owner-${at}@x.io`;
    const device = `device-${at}`;
    const first = await nodeA.begin(email, '10.5.0.1');
    if (first.refused) throw new Error('refused');
    await first.attempt.succeeded(device);
    // guesses through both nodes fill the account's queue
    for (let i = 0; i < 12; i++) await [nodeA, nodeB][i % 2]?.begin(email, `10.5.1.${i}`);
    expect(await nodeB.begin(email, '10.5.2.1')).toMatchObject({ refused: true });
    // the owner's device goes straight in on the other node
    expect(await nodeB.begin(email, '10.5.2.2', device)).toMatchObject({
      refused: false,
      attempt: { waitMs: 0, knownDevice: true },
    });
  });

  it('asks the active feed for a test pin, and answers 503 when no feed answers', async () => {
    const market = new MarketData(1);
    const api = new PinRelay(await node(), 300);
    await api.open();
    await expect(api.pin('BTCUSDT', 100, 101)).rejects.toMatchObject({ httpStatus: 503 });
    const feedRelay = new PinRelay(await node());
    await feedRelay.open();
    const pinned: string[] = [];
    let reloads = 0;
    await feedRelay.serve(
      {
        pin: async (symbol, bid, ask) => {
          pinned.push(symbol);
          return market.pin(symbol, bid, ask, 5000);
        },
        unpin: async (symbol) => market.unpin(symbol),
      },
      async () => {
        reloads += 1;
      },
    );
    const asked = new PinRelay(await node(), 5000);
    await asked.open();
    expect(await asked.pin('BTCUSDT', 100, 101)).toEqual({
      time: 5000,
      bid: 100,
      ask: 101,
      size: 0,
    });
    expect(await asked.unpin('BTCUSDT')).toBe(true);
    expect(pinned).toEqual(['BTCUSDT']);
    expect(reloads).toBe(2); // the engine's index is reloaded before each
    for (const relay of [api, feedRelay, asked]) relay.close();
  });
});
