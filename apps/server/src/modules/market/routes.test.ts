import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from '../../test/helpers.ts';

type Kline = {
  id: number;
  ctm: number;
  ctmFmt: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
};
type KlineAnswer = { code: number; msg: string; data: { lists: Kline[] } | null };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const klines = async (query: string) =>
  json<KlineAnswer>(await t.app.inject({ method: 'GET', url: `/trading/kline/lists?${query}` }));

describe('GET /trading/symbol/list', () => {
  it('lists at least 20 instruments by market with every field of the symbol entity', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/trading/symbol/list?channel=1&device=2',
    });
    const body = json<{
      code: number;
      data: {
        lists: {
          market_type: string;
          market_name: string;
          market_name_en: string;
          lists: Record<string, unknown>[];
        }[];
      };
    }>(res);
    expect(body.code).toBe(0);
    const markets = body.data.lists;
    expect(markets.map((m) => m.market_type)).toEqual(
      expect.arrayContaining([
        'crypto',
        'metals',
        'energy',
        'fx',
        'indices',
        'shares',
        'foreign_futures',
        'domestic_futures',
      ]),
    );
    const instruments = markets.flatMap((m) => m.lists);
    expect(instruments.length).toBeGreaterThanOrEqual(20);
    const symbols = instruments.map((i) => i.symbol);
    for (const s of [
      'BTCUSDT',
      'ETHUSDT',
      'XAUUSD',
      'XAGUSD',
      'USOUSD',
      'GOOG',
      'EURUSD',
      'BTCUSD',
    ]) {
      expect(symbols).toContain(s);
    }
    for (const instrument of instruments) {
      expect(Object.keys(instrument).sort()).toEqual(
        [
          'currency',
          'is_trading',
          'margin_ratio_by_money',
          'max_limit_ov',
          'min_limit_ov',
          'min_price_tick',
          'quote_time',
          'standard_lot',
          'symbol',
          'symbol_cn',
          'symbol_en',
          'symbol_type',
          'trade_time',
          'vol_limit_max',
          'vol_limit_min',
          'volume_multiple',
        ].sort(),
      );
      expect(instrument.standard_lot).toBe(1);
    }
    // the test clock is a Monday 09:00 UTC: crypto trades, US shares do not yet
    const bySymbol = new Map(instruments.map((i) => [i.symbol, i]));
    expect(bySymbol.get('BTCUSDT')?.is_trading).toBe(true);
    expect(bySymbol.get('GOOG')?.is_trading).toBe(false);
  });

  it('answers the instrument groups as tuples', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/trading/symbol/groups' });
    const groups = json<[number, string, string, [string, string][]][]>(res);
    expect(groups.length).toBeGreaterThanOrEqual(8);
    const crypto = groups.find((g) => g[2] === 'crypto');
    expect(crypto?.[1]).toBe('Crypto');
    expect(crypto?.[3]).toContainEqual(['BTCUSDT', 'Bitcoin / Tether']);
  });
});

describe('GET /trading/kline/lists', () => {
  it('answers the latest 500 bars ascending, the newest in progress', async () => {
    const body = await klines('symbol=BTCUSDT&cycel=1m');
    expect(body.code).toBe(0);
    const bars = body.data?.lists ?? [];
    expect(bars).toHaveLength(500);
    expect(bars.at(-1)?.ctmFmt).toBe('2026-01-05 09:00:00');
    for (let i = 1; i < bars.length; i++) {
      expect(bars[i]!.id).toBe(bars[i - 1]!.id + 60);
      expect(bars[i]!.open).toBe(bars[i - 1]!.close);
    }
  });

  it('pages back with last_id: strictly older bars, 300 by default, no duplicates', async () => {
    const latest = (await klines('symbol=ETHUSDT&cycel=15m')).data?.lists ?? [];
    const oldestId = latest[0]!.id;
    const older = (await klines(`symbol=ETHUSDT&cycel=15m&last_id=${oldestId}`)).data?.lists ?? [];
    expect(older).toHaveLength(300);
    expect(older.every((bar) => bar.id < oldestId)).toBe(true);
    expect(older.at(-1)!.id).toBe(oldestId - 900);
    expect(new Set([...older, ...latest].map((b) => b.id)).size).toBe(800);
  });

  it('accepts every period and the client period names, aggregating consistently', async () => {
    for (const cycel of [
      '1m',
      '5m',
      '15m',
      '30m',
      '1h',
      '4h',
      'day',
      'week',
      'month',
      'oneDay',
      'oneWeek',
      'oneMonth',
    ]) {
      const body = await klines(`symbol=XAUUSD&cycel=${cycel}&limit=5`);
      expect(body.code, cycel).toBe(0);
      expect(body.data?.lists.length, cycel).toBeGreaterThan(0);
    }
    const hours = (await klines('symbol=BTCUSDT&cycel=1h&limit=8')).data?.lists ?? [];
    const four = (await klines('symbol=BTCUSDT&cycel=4h&limit=2')).data?.lists ?? [];
    const previous4h = four[0]!;
    const parts = hours.filter((h) => h.id >= previous4h.id && h.id < previous4h.id + 4 * 3600);
    expect(parts).toHaveLength(4);
    expect(previous4h.open).toBe(parts[0]!.open);
    expect(previous4h.close).toBe(parts[3]!.close);
    expect(previous4h.high).toBe(Math.max(...parts.map((p) => p.high)));
    expect(previous4h.low).toBe(Math.min(...parts.map((p) => p.low)));
  });

  it('serves the shipped real history where the simulation has not started', async () => {
    const goog =
      (await klines(`symbol=GOOG&cycel=day&last_id=${Date.UTC(2013, 2, 2) / 1000}&limit=2`)).data
        ?.lists ?? [];
    expect(goog.map((b) => [b.ctmFmt, b.close])).toEqual([
      ['2013-02-28 00:00:00', 801.2],
      ['2013-03-01 00:00:00', 806.19],
    ]);
    const btc =
      (await klines(`symbol=BTCUSD&cycel=month&last_id=${Date.UTC(2025, 0, 1) / 1000}&limit=1`))
        .data?.lists ?? [];
    expect(btc[0]).toMatchObject({ ctmFmt: '2024-12-01 00:00:00', open: 96515, close: 93381 });
    const eur =
      (await klines(`symbol=EURUSD&cycel=4h&last_id=${Date.UTC(2018, 1, 7, 16) / 1000}&limit=1`))
        .data?.lists ?? [];
    expect(eur[0]).toMatchObject({ ctmFmt: '2018-02-07 12:00:00', close: 1.22904 });
  });

  it('updates the newest bar live as time passes', async () => {
    const before = (await klines('symbol=BTCUSDT&cycel=1m&limit=1')).data?.lists[0];
    t.clock.advance(45_000);
    const after = (await klines('symbol=BTCUSDT&cycel=1m&limit=1')).data?.lists[0];
    t.clock.advance(-45_000);
    expect(after?.id).toBe(before?.id);
    expect(after?.volume).toBeGreaterThan(before?.volume ?? 0);
  });

  it('refuses bad input with a clear message and never a 500', async () => {
    const cases: [string, number, RegExp][] = [
      ['symbol=NOPE&cycel=1m', 40400, /Unknown symbol: NOPE/],
      ['symbol=BTCUSDT&cycel=2m', 40000, /Unknown period: 2m/],
      ['symbol=BTCUSDT&cycel=1m&limit=1001', 40000, /limit must be at most 1000/],
      ['symbol=BTCUSDT&cycel=1m&limit=0', 40000, /limit must be at least 1/],
      ['symbol=BTCUSDT&cycel=1m&limit=abc', 40000, /limit must be an integer/],
      ['symbol=BTCUSDT&cycel=1m&last_id=x', 40000, /last_id must be an integer/],
      ['cycel=1m', 40000, /symbol/],
    ];
    for (const [query, code, message] of cases) {
      const res = await t.app.inject({ method: 'GET', url: `/trading/kline/lists?${query}` });
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.json(), query).toMatchObject({
        code,
        msg: expect.stringMatching(message),
        data: null,
      });
    }
  });
});

describe('POST /trading/symbol/cache', () => {
  it('answers bid and ask of each symbol, also for closed markets', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trading/symbol/cache',
      payload: { channel: 1, device: 1, symbols: 'BTCUSDT, GOOG,XAUUSD' },
    });
    const body = json<{
      code: number;
      data: { caches: { symbol: string; bid: number; ask: number }[] };
    }>(res);
    expect(body.code).toBe(0);
    expect(body.data.caches.map((c) => c.symbol)).toEqual(['BTCUSDT', 'GOOG', 'XAUUSD']);
    for (const c of body.data.caches) expect(c.bid).toBeLessThan(c.ask);
  });

  it('refuses unknown or missing symbols', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/trading/symbol/cache',
      payload: { symbols: 'BTCUSDT,FOO' },
    });
    expect(unknown.json()).toMatchObject({ code: 40400, msg: 'Unknown symbol: FOO' });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/trading/symbol/cache',
      payload: { symbols: '' },
    });
    expect(empty.json()).toMatchObject({ code: 40000 });
  });
});
