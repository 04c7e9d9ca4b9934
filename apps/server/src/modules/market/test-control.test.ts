import { CODE_BAD_REQUEST, CODE_NOT_FOUND, type LivePriceMessage } from '@ct/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createTestApp, json, type TestApp } from '../../test/helpers.ts';
import type { Publication } from '../gateway/broker.ts';
import { TEST_QUOTE_PATH } from './test-control.ts';

// The test clock starts on Monday 2026-01-05 09:00 UTC; BTCUSDT (tick 0.1) trades around
// the clock.
const SYMBOL = 'BTCUSDT';

type Quote = { bid: number; ask: number };
type Trader = { cookie: string; creds: { uuid: string; token: string } };

function pin(t: TestApp, body: unknown) {
  return t.app.inject({ method: 'POST', url: TEST_QUOTE_PATH, payload: body as object });
}

function release(t: TestApp, symbol = SYMBOL) {
  return t.app.inject({ method: 'DELETE', url: `${TEST_QUOTE_PATH}/${symbol}` });
}

/** What the quote cache answers for the symbol. */
async function cached(t: TestApp, symbol = SYMBOL): Promise<Quote | undefined> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/trading/symbol/cache',
    payload: { channel: 1, device: 1, symbols: symbol },
  });
  const entry = json<{ data: { caches: (Quote & { symbol: string })[] } }>(res).data.caches[0];
  return entry && { bid: entry.bid, ask: entry.ask };
}

/** The newest 1-minute kline: the bar in progress. */
async function currentBar(t: TestApp): Promise<{ high: number; low: number; close: number }> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/trading/kline/lists?symbol=${SYMBOL}&cycel=1m&limit=3`,
  });
  const bar = json<{ data: { lists: { high: number; low: number; close: number }[] } }>(
    res,
  ).data.lists.at(-1);
  if (!bar) throw new Error('no kline');
  return bar;
}

/** Everything the feed publishes while `action` runs. */
async function publishedDuring(t: TestApp, action: () => Promise<unknown>) {
  const seen: Publication[] = [];
  const stop = t.app.services.broker.listen((p) => seen.push(p));
  try {
    await action();
  } finally {
    stop();
  }
  return seen;
}

async function trader(t: TestApp): Promise<Trader> {
  const user = await buildUser(t.db, { accounts: 1 });
  const { cookie, user: login } = await loginAs(t.app, user);
  const first = login.traders[0];
  if (!first) throw new Error('user without trading account');
  return { cookie, creds: { uuid: first.uuid, token: first.token } };
}

function trade(t: TestApp, s: Trader, url: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url,
    cookies: { ct_sid: s.cookie },
    payload: { ...s.creds, ...body },
  });
}

async function list<T>(t: TestApp, s: Trader, url: string, key: string): Promise<T[]> {
  const res = await t.app.inject({
    method: 'GET',
    url,
    cookies: { ct_sid: s.cookie },
    query: s.creds,
  });
  return json<{ data: Record<string, T[]> }>(res).data[key] ?? [];
}

type Position = { orderId: string; price: number; tp: number };
type Settle = { orderId: string; closePrice: number; closeReason: number; isSettled: number };

describe('without MARKET_TEST_CONTROL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('there is no route to pin or release a quote, and the feed keeps the simulation', async () => {
    const before = await cached(t);
    const pinned = await pin(t, { symbol: SYMBOL, bid: 100, ask: 100.1 });
    expect(pinned.statusCode).toBe(404);
    expect(pinned.json()).toMatchObject({ code: CODE_NOT_FOUND });
    expect((await release(t)).statusCode).toBe(404);
    expect(await cached(t)).toEqual(before);
    expect(before?.bid).not.toBe(100);
  });
});

describe('with MARKET_TEST_CONTROL=1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { marketTestControl: true } });
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await release(t);
  });

  it('a pinned quote is the cache’s answer, a tick on public:{symbol} and the bar’s close', async () => {
    const simulated = await cached(t);
    const published = await publishedDuring(t, async () => {
      const res = await pin(t, { symbol: SYMBOL, bid: 61_234.5, ask: 61_234.9 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ symbol: SYMBOL, bid: 61_234.5, ask: 61_234.9 });
    });
    expect(await cached(t)).toEqual({ bid: 61_234.5, ask: 61_234.9 });
    const ticks = published.filter((p) => p.channel === `public:${SYMBOL}`);
    expect(ticks.map((p) => p.data as LivePriceMessage)).toEqual([
      expect.objectContaining({ entry: '0', price: 61_234.5 }),
      expect.objectContaining({ entry: '1', price: 61_234.9 }),
    ]);
    const bar = await currentBar(t);
    expect(bar.close).toBe(61_234.5);
    expect(bar.high).toBeGreaterThanOrEqual(61_234.5);

    // the feed's polls publish the pinned tick once, not on every poll
    const again = await publishedDuring(t, async () => {
      t.app.services.feed.poll();
      t.app.services.feed.poll();
    });
    expect(again.filter((p) => p.channel === `public:${SYMBOL}`)).toEqual([]);

    // released, the simulation quotes again (and is published)
    const back = await publishedDuring(t, async () => {
      expect((await release(t)).json()).toEqual({ symbol: SYMBOL, released: true });
    });
    expect(await cached(t)).toEqual(simulated);
    expect(back.filter((p) => p.channel === `public:${SYMBOL}`)).toHaveLength(2);
  });

  it('a market order fills at the pinned quote', async () => {
    const s = await trader(t);
    await pin(t, { symbol: SYMBOL, bid: 50_000, ask: 50_000.5 });
    const buy = await trade(t, s, '/trading/order/open', { symbol: SYMBOL, cmd: 1, volume: 0.1 });
    expect(buy.json()).toMatchObject({ code: 0, data: { order: { price: 50_000.5 } } });
    const sell = await trade(t, s, '/trading/order/open', { symbol: SYMBOL, cmd: 2, volume: 0.1 });
    expect(sell.json()).toMatchObject({ code: 0, data: { order: { price: 50_000 } } });
  });

  it('pinning through a take-profit closes the position once, for the take-profit', async () => {
    const s = await trader(t);
    await pin(t, { symbol: SYMBOL, bid: 50_000, ask: 50_000.5 });
    const open = await trade(t, s, '/trading/order/open', {
      symbol: SYMBOL,
      cmd: 1,
      volume: 0.1,
      tp: 50_100,
    });
    const { orderId } = json<{ data: { order: Position } }>(open).data.order;
    // below the take-profit nothing happens
    await pin(t, { symbol: SYMBOL, bid: 50_099.9, ask: 50_100.4 });
    expect(await list<Position>(t, s, '/trading/order/position', 'orders')).toHaveLength(1);

    // the answer comes once the engine has acted on the pinned tick
    await pin(t, { symbol: SYMBOL, bid: 50_100.2, ask: 50_100.7 });
    expect(await list<Position>(t, s, '/trading/order/position', 'orders')).toEqual([]);
    await pin(t, { symbol: SYMBOL, bid: 50_150, ask: 50_150.5 });
    const settles = await list<Settle>(t, s, '/trading/order/settles', 'settles');
    expect(settles).toEqual([
      expect.objectContaining({ orderId, closePrice: 50_100.2, closeReason: 1, isSettled: 2 }),
    ]);
  });

  it('pinning through a pending order’s price fills it', async () => {
    const s = await trader(t);
    await pin(t, { symbol: SYMBOL, bid: 50_000, ask: 50_000.5 });
    const added = await trade(t, s, '/trading/order/pending/add', {
      symbol: SYMBOL,
      cmd: 1,
      volume: 0.1,
      pendPrice: 49_500,
    });
    expect(added.json()).toMatchObject({ code: 0 });
    expect(await list(t, s, '/trading/order/pending', 'pendings')).toHaveLength(1);
    await pin(t, { symbol: SYMBOL, bid: 49_499.5, ask: 49_500 });
    expect(await list(t, s, '/trading/order/pending', 'pendings')).toEqual([]);
    expect(await list<Position>(t, s, '/trading/order/position', 'orders')).toEqual([
      expect.objectContaining({ price: 49_500 }),
    ]);
  });

  it.each([
    ['no body', undefined, /^body: /],
    ['a missing symbol', { bid: 100, ask: 100.1 }, /^symbol: /],
    ['a string price', { symbol: SYMBOL, bid: '100', ask: 100.1 }, /^bid: /],
    ['a negative price', { symbol: SYMBOL, bid: -1, ask: 100.1 }, /^bid: /],
    ['an ask below the bid', { symbol: SYMBOL, bid: 100.1, ask: 100 }, /^ask: /],
    ['a price off the tick', { symbol: SYMBOL, bid: 100.05, ask: 100.1 }, /^bid: .*tick 0\.1/],
  ])('refuses %s with 400 and changes nothing', async (_name, body, message) => {
    const before = await cached(t);
    const published = await publishedDuring(t, async () => {
      const res = await pin(t, body);
      expect(res.statusCode).toBe(400);
      const answer = res.json<{ code: number; msg: string; detail: string }>();
      expect(answer.code).toBe(CODE_BAD_REQUEST);
      expect(answer.msg).toMatch(message);
    });
    expect(published).toEqual([]);
    expect(await cached(t)).toEqual(before);
  });

  it('refuses an unknown symbol with 404', async () => {
    const res = await pin(t, { symbol: 'NOPE', bid: 1, ask: 1.1 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: CODE_NOT_FOUND, msg: 'Unknown symbol: NOPE' });
    expect((await release(t, 'NOPE')).statusCode).toBe(404);
  });
});
