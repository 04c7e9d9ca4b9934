import { CODE_BAD_REQUEST, CODE_NOT_FOUND, FEED_LOAD_LIMITS, ticksDue } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createTestApp, json, type TestApp } from '../../test/helpers.ts';
import type { Publication } from '../gateway/broker.ts';
import type { MarketFeed } from './feed.ts';
import { loadConfig } from '../../config.ts';
import { FEED_LOAD_PATH, FeedLoad } from './load-control.ts';

describe('the feed load of the performance page', () => {
  it('is off unless MARKET_LOAD_CONTROL is 1 (production leaves it unset)', () => {
    expect(loadConfig({}).marketLoadControl).toBe(false);
    expect(loadConfig({ MARKET_LOAD_CONTROL: '0' }).marketLoadControl).toBe(false);
    expect(loadConfig({ MARKET_LOAD_CONTROL: '1' }).marketLoadControl).toBe(true);
    expect(loadConfig({ MARKET_LOAD_CONTROL: 'true' }).marketLoadControl).toBe(true);
    expect(() => loadConfig({ MARKET_LOAD_CONTROL: 'yes' })).toThrow(/MARKET_LOAD_CONTROL/);
  });

  it('counts due ticks exactly, carrying fractions', () => {
    expect(ticksDue(20, 20, 0)).toEqual({ due: 0, carry: 0.4 });
    expect(ticksDue(20, 30, 0.4)).toEqual({ due: 1, carry: expect.closeTo(0, 9) as number });
    expect(ticksDue(500, 20, 0)).toEqual({ due: 10, carry: 0 });
    expect(ticksDue(100, -5, 0)).toEqual({ due: 0, carry: 0 });
  });

  it('publishes ticksPerSecond extra ticks a second per symbol, and ends by itself', () => {
    let now = 1_000_000;
    const republish = vi.fn((_symbol: string, _time: number) => true);
    const load = new FeedLoad({ republish } as unknown as MarketFeed, () => now);
    load.start(1, { symbols: ['BTCUSDT', 'ETHUSDT'], ticksPerSecond: 100, durationSeconds: 2 });
    for (let i = 0; i < 50; i += 1) {
      now += 20;
      load.step();
    }
    // one second: 100 ticks of each symbol, stamped with the time they go out
    expect(republish.mock.calls.filter(([s]) => s === 'BTCUSDT')).toHaveLength(100);
    expect(republish.mock.calls.filter(([s]) => s === 'ETHUSDT')).toHaveLength(100);
    expect(republish.mock.calls.at(-1)?.[1]).toBe(now);
    expect(load.status().load).toMatchObject({ published: 200, until: 1_002_000 });
    now += 5_000; // past the end: only the ticks up to `until`
    load.step();
    expect(republish).toHaveBeenCalledTimes(400);
    expect(load.status().load).toBeNull();
    load.step();
    expect(republish).toHaveBeenCalledTimes(400);
  });

  it('runs one load at a time: another user is refused, the same user replaces it', () => {
    const load = new FeedLoad({ republish: () => true } as unknown as MarketFeed, () => 0);
    const request = { symbols: ['BTCUSDT'], ticksPerSecond: 20, durationSeconds: 30 };
    load.start(1, request);
    expect(() => load.start(2, request)).toThrow('Another user’s load test is running');
    expect(load.start(1, { ...request, ticksPerSecond: 500 }).load?.ticksPerSecond).toBe(500);
    expect(load.stop()).toBe(true);
    expect(load.stop()).toBe(false);
  });
});

describe('load control routes', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { marketLoadControl: true } });
    const user = await buildUser(t.db, { accounts: 1 });
    cookie = (await loginAs(t.app, user)).cookie;
    t.app.services.feed.poll();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', payload?: object, withCookie = true) =>
    t.app.inject({
      method,
      url: FEED_LOAD_PATH,
      ...(withCookie ? { cookies: { ct_sid: cookie } } : {}),
      ...(payload ? { payload } : {}),
    });

  it('are for logged-in users only', async () => {
    const res = await call(
      'POST',
      { symbols: ['BTCUSDT'], ticksPerSecond: 20, durationSeconds: 5 },
      false,
    );
    expect(res.statusCode).toBe(401);
    expect((await call('GET', undefined, false)).statusCode).toBe(401);
  });

  it('bound the load: rate, duration, symbols', async () => {
    for (const body of [
      {
        symbols: ['BTCUSDT'],
        ticksPerSecond: FEED_LOAD_LIMITS.maxTicksPerSecond + 1,
        durationSeconds: 5,
      },
      {
        symbols: ['BTCUSDT'],
        ticksPerSecond: 20,
        durationSeconds: FEED_LOAD_LIMITS.maxDurationSeconds + 1,
      },
      { symbols: ['A', 'B', 'C', 'D', 'E', 'F'], ticksPerSecond: 20, durationSeconds: 5 },
      { symbols: [], ticksPerSecond: 20, durationSeconds: 5 },
    ]) {
      const res = await call('POST', body);
      expect(res.statusCode).toBe(400);
      expect(json(res)).toMatchObject({ code: CODE_BAD_REQUEST });
    }
    const unknown = await call('POST', {
      symbols: ['NOPE'],
      ticksPerSecond: 20,
      durationSeconds: 5,
    });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toMatchObject({ code: CODE_NOT_FOUND });
  });

  it('start, status and stop; extra ticks go to the public channel only', async () => {
    const started = await call('POST', {
      symbols: ['BTCUSDT'],
      ticksPerSecond: 500,
      durationSeconds: 5,
    });
    expect(started.statusCode).toBe(200);
    expect(json(started)).toMatchObject({ load: { symbols: ['BTCUSDT'], ticksPerSecond: 500 } });
    expect(json(await call('GET'))).toMatchObject({ load: { symbols: ['BTCUSDT'] } });
    const seen: Publication[] = [];
    const stop = t.app.services.broker.listen((p) => seen.push(p));
    const before = t.app.services.feed.latestQuote('BTCUSDT');
    t.clock.advance(100);
    // the load's own 20 ms timer publishes: wait for it (polling, with a deadline)
    const deadline = Date.now() + 5_000;
    while (seen.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    stop();
    expect(json(await call('DELETE'))).toEqual({ stopped: true });
    expect(json(await call('GET'))).toEqual({ load: null });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p) => p.channel === 'public:BTCUSDT')).toBe(true);
    expect(t.app.services.feed.latestQuote('BTCUSDT')).toEqual(before);
  });
});

describe('without MARKET_LOAD_CONTROL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('there is no load route', async () => {
    const res = await t.app.inject({ method: 'GET', url: FEED_LOAD_PATH });
    expect(res.statusCode).toBe(404);
  });
});
