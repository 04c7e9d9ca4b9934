import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/fixtures';
import {
  getChartPoints,
  getLivePrice,
  ingestLiveMessage,
  liveStats,
  onTicks,
  resetLive,
  watchers,
  watchSymbol,
} from './live';
import { getQuote, getSymbolCacheRecord, resetQuotes, useQuoteStore } from './quotes';
import { resetLiveSettings, setThrottleSettings } from './settings';
import { SUBSCRIPTION_STAGGER_MS } from './subscriptions';

// The live client the pipeline follows: none at first; a test hands it a fake one.
const connection = vi.hoisted(() => ({
  listener: (_client: unknown) => {},
}));
vi.mock('./connection', async (original) => ({
  ...(await original<object>()),
  onLiveClient: (listener: (client: unknown) => void) => {
    connection.listener = listener;
    listener(null);
    return () => {};
  },
}));

/** A centrifuge client of one-channel subscriptions whose events a test raises. */
function fakeClient() {
  const subs = new Map<string, Map<string, ((ctx: unknown) => void)[]>>();
  const client = {
    getSubscription: (channel: string) => (subs.has(channel) ? client.sub(channel) : null),
    newSubscription: (channel: string) => {
      subs.set(channel, new Map());
      return client.sub(channel);
    },
    sub: (channel: string) => ({
      on(event: string, handler: (ctx: unknown) => void) {
        const handlers = subs.get(channel)!;
        handlers.set(event, [...(handlers.get(event) ?? []), handler]);
      },
      subscribe() {},
    }),
    opened: (channel: string) => subs.has(channel),
    emit(channel: string, event: string, ctx: unknown = {}) {
      for (const handler of subs.get(channel)?.get(event) ?? []) handler(ctx);
    },
  };
  return client;
}

const TM = Date.UTC(2026, 2, 10, 12, 0, 5);
const bid = (price: number, tm = TM, size = 1) => ({ price, size, tm, entry: '0', strike: 0 });
const ask = (price: number, tm = TM, size = 1) => ({ price, size, tm, entry: '1', strike: 0 });

function stubCache(caches: { symbol: string; bid: number; ask: number }[]) {
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    const symbols = String(JSON.parse(String(init?.body)).symbols).split(',');
    return jsonResponse({
      code: 0,
      msg: 'success',
      data: { caches: caches.filter((c) => symbols.includes(c.symbol)) },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('live pipeline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetLive();
    resetQuotes();
    resetLiveSettings();
  });
  afterEach(() => {
    connection.listener(null); // a test's fake client goes with it
    resetLive();
    vi.useRealTimers();
  });

  it('fills bid and ask from the quote cache while no live quote exists, in one call', async () => {
    const fetch = stubCache([
      { symbol: 'BTCUSDT', bid: 100, ask: 101 },
      { symbol: 'ETHUSDT', bid: 10, ask: 10.5 },
    ]);
    watchSymbol('BTCUSDT');
    watchSymbol('ETHUSDT');
    watchSymbol('BTCUSDT');
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe('/trading/symbol/cache');
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toEqual({
      channel: 1,
      device: 1,
      symbols: 'BTCUSDT,ETHUSDT',
    });
    expect(getQuote('BTCUSDT')).toMatchObject({ bid: 100, ask: 101, source: 'cache' });
    expect(getSymbolCacheRecord('ETHUSDT')).toMatchObject({
      symbol: 'ETHUSDT',
      bid: 10,
      ask: 10.5,
      raw: { symbol: 'ETHUSDT', bid: 10, ask: 10.5 },
    });
    expect(getSymbolCacheRecord('ETHUSDT')?.timestamp).toEqual(expect.any(Number));

    // Cached symbols are not asked for again.
    watchSymbol('ETHUSDT');
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('skips symbols whose cache call is still in flight', async () => {
    let answer: (r: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetch);
    const release = watchSymbol('XAUUSD');
    await vi.advanceTimersByTimeAsync(1);
    release();
    watchSymbol('XAUUSD');
    // The clear at zero forgot the in-flight call, so the new holder asks again.
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    watchSymbol('XAUUSD');
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    answer(jsonResponse({ code: 0, msg: '', data: { caches: [] } }));
  });

  it('derives quotes from messages, batches them, and hands bid ticks to charts', async () => {
    stubCache([]);
    watchSymbol('BTCUSDT');
    const batches: unknown[] = [];
    onTicks('BTCUSDT', (ticks) => batches.push(ticks));
    ingestLiveMessage('BTCUSDT', bid(100));
    ingestLiveMessage('BTCUSDT', ask(100.5));
    ingestLiveMessage('BTCUSDT', { ...bid(1), entry: '9' });
    ingestLiveMessage('BTCUSDT', { price: 'x' });
    expect(batches).toEqual([]); // nothing before the batch flush
    await vi.advanceTimersByTimeAsync(16);
    expect(batches).toEqual([[{ time: TM, price: 100, size: 1 }]]);
    expect(getLivePrice('BTCUSDT')).toEqual({ bid: 100, ask: 100.5, last: 100.5, timestamp: TM });
    expect(getQuote('BTCUSDT')).toEqual({
      bid: 100,
      ask: 100.5,
      last: 100.5,
      timestamp: TM,
      source: 'realtime',
    });
    expect(getChartPoints('BTCUSDT').map((p) => p.Close)).toEqual([100, 100.5]);
    expect(liveStats).toMatchObject({ messages: 3, batches: 1, lastBatchSize: 3, ignored: 2 });
  });

  it('asks the quote cache again once a channel is subscribed: a quote published before is not missed', async () => {
    let cached = { symbol: 'BTCUSDT', bid: 100, ask: 101 };
    const fetch = vi.fn(async () =>
      jsonResponse({ code: 0, msg: 'success', data: { caches: [cached] } }),
    );
    vi.stubGlobal('fetch', fetch);
    const client = fakeClient();
    connection.listener(client);
    watchSymbol('BTCUSDT');
    await vi.advanceTimersByTimeAsync(1);
    expect(getQuote('BTCUSDT')).toMatchObject({ bid: 100, ask: 101 });

    // a live quote, then one published while the connection was away (no message of it)
    ingestLiveMessage('BTCUSDT', bid(102));
    ingestLiveMessage('BTCUSDT', ask(102.5));
    await vi.advanceTimersByTimeAsync(200);
    expect(getQuote('BTCUSDT')).toMatchObject({ bid: 102, source: 'realtime' });
    cached = { symbol: 'BTCUSDT', bid: 50_000, ask: 50_000.5 };
    client.emit('public:BTCUSDT', 'subscribed');
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(getQuote('BTCUSDT')).toMatchObject({ bid: 50_000, ask: 50_000.5, source: 'cache' });

    // a live quote that comes while the call is out is newer than its answer: it stays
    let answer: (r: Response) => void = () => {};
    fetch.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    client.emit('public:BTCUSDT', 'subscribed');
    await vi.advanceTimersByTimeAsync(1);
    ingestLiveMessage('BTCUSDT', bid(50_010, TM + 1));
    await vi.advanceTimersByTimeAsync(200);
    answer(jsonResponse({ code: 0, msg: '', data: { caches: [cached] } }));
    await vi.advanceTimersByTimeAsync(1);
    expect(getQuote('BTCUSDT')).toMatchObject({ bid: 50_010, source: 'realtime' });
  });

  it('a channel subscribed while the first cache call is out asks again once it ends', async () => {
    let cached = { symbol: 'ETHUSDT', bid: 10, ask: 10.5 };
    const answers: ((r: Response) => void)[] = [];
    const fetch = vi.fn(() => new Promise<Response>((resolve) => answers.push(resolve)));
    vi.stubGlobal('fetch', fetch);
    const answer = () =>
      answers.shift()!(jsonResponse({ code: 0, msg: '', data: { caches: [cached] } }));
    const client = fakeClient();
    connection.listener(client);
    watchSymbol('ETHUSDT');
    // openings are staggered: the channel opens one stagger after the last one opened
    await vi.waitFor(() => expect(client.opened('public:ETHUSDT')).toBe(true), {
      interval: SUBSCRIPTION_STAGGER_MS,
    });
    client.emit('public:ETHUSDT', 'subscribed');
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);

    // the first answer was taken before a quote published as the subscription began
    answer();
    await vi.advanceTimersByTimeAsync(1);
    expect(getQuote('ETHUSDT')).toMatchObject({ bid: 10, source: 'cache' });
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    cached = { symbol: 'ETHUSDT', bid: 11, ask: 11.5 };
    answer();
    await vi.advanceTimersByTimeAsync(1);
    expect(getQuote('ETHUSDT')).toMatchObject({ bid: 11, ask: 11.5, source: 'cache' });
  });

  it('writes the quote store at most once per price update delay', async () => {
    stubCache([]);
    setThrottleSettings({ priceUpdateDelay: 100 });
    watchSymbol('BTCUSDT');
    const writes = vi.fn();
    const stop = useQuoteStore.subscribe(writes);
    await vi.advanceTimersByTimeAsync(1);
    writes.mockClear();
    for (let i = 0; i < 10; i++) {
      ingestLiveMessage('BTCUSDT', bid(100 + i, TM + i * 20));
      await vi.advanceTimersByTimeAsync(20);
    }
    // 200 ms of messages: a leading write, then at most one per 100 ms.
    expect(writes.mock.calls.length).toBeLessThanOrEqual(3);
    await vi.advanceTimersByTimeAsync(200);
    expect(getQuote('BTCUSDT')?.bid).toBe(109);
    stop();
  });

  it('caps the chart points of an instrument at 1000', async () => {
    stubCache([]);
    watchSymbol('BTCUSDT');
    for (let i = 0; i < 1100; i++) ingestLiveMessage('BTCUSDT', bid(i, TM + i));
    await vi.advanceTimersByTimeAsync(16);
    const points = getChartPoints('BTCUSDT');
    expect(points).toHaveLength(1000);
    expect(points[0]!.Close).toBe(100);
    setThrottleSettings({ maxDataPoints: 100 });
    expect(getChartPoints('BTCUSDT')).toHaveLength(100);
  });

  it('clears the instrument when the last holder cancels', async () => {
    stubCache([{ symbol: 'BTCUSDT', bid: 1, ask: 2 }]);
    const a = watchSymbol('BTCUSDT');
    const b = watchSymbol('BTCUSDT');
    await vi.advanceTimersByTimeAsync(1);
    ingestLiveMessage('BTCUSDT', bid(100));
    await vi.advanceTimersByTimeAsync(200);
    expect(watchers('BTCUSDT')).toBe(2);
    a();
    expect(getQuote('BTCUSDT')).toBeDefined();
    b();
    expect(watchers('BTCUSDT')).toBe(0);
    expect(getQuote('BTCUSDT')).toBeUndefined();
    expect(getLivePrice('BTCUSDT')).toBeUndefined();
    expect(getChartPoints('BTCUSDT')).toEqual([]);
    expect(getSymbolCacheRecord('BTCUSDT')).toBeUndefined();
    // Messages that arrive after the close change nothing.
    ingestLiveMessage('BTCUSDT', bid(5));
    await vi.advanceTimersByTimeAsync(200);
    expect(getQuote('BTCUSDT')).toBeUndefined();
  });
});
