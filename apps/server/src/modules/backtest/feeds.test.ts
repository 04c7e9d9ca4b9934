import type { HistoricalBar } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { loadShippedHistory } from '../market/real-history.ts';
import { caller, dailyBars, login, testSandbox } from '../../test/backtest.ts';

const UID_BASE = 63_000;

let t: TestApp;
let asAlice: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({
    config: { sandbox: testSandbox({ uidBase: UID_BASE, maxPerUser: 4, timeoutMs: 20_000 }) },
  });
  asAlice = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
});
afterAll(() => t.close());

type Performance = Record<string, unknown> & {
  final_equity: number;
  equity_curve: [string, number][];
};
type RunBody = {
  run_id: string | null;
  deals: (Record<string, unknown> & { code?: string; profit: number; commission: number })[];
  performance: Performance | null;
  per_symbol?: Record<string, Performance>;
  feeds?: { symbol_id: string; period: string; bar_count: number }[];
  error: string | null;
  logs: string[];
  bar_count: number;
};

async function backtest(body: Record<string, unknown>): Promise<RunBody> {
  const res = await asAlice('POST', '/api/backtest/code', { filename: 's.py', ...body });
  expect(res.statusCode, res.body).toBe(200);
  const run = res.json<RunBody>();
  expect(run.error, run.logs.join('\n')).toBeNull();
  return run;
}

const pad = (n: number) => String(n).padStart(2, '0');
const text = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;
};
function bars(start: number, step: number, count: number, price = (i: number) => 1.1 + i / 1e4) {
  return Array.from({ length: count }, (_, i): HistoricalBar => ({
    Time: text(start + i * step),
    Open: price(i),
    High: price(i),
    Low: price(i),
    Close: price(i),
    Volume: 1,
  }));
}

describe('POST /api/backtest/code with feeds', () => {
  it('a two-timeframe strategy sees each 1h bar only after its last 1m bar', async () => {
    const start = Date.UTC(2024, 2, 4, 9);
    const run = await backtest({
      code: [
        'def main(data_array):',
        '    for row in data_array:',
        '        print(row[0], row[1], row[2])',
        '    return []',
      ].join('\n'),
      feeds: [
        { symbol_id: 'EURUSD', period: '1m', historical_data: bars(start, 60_000, 180) },
        { symbol_id: 'EURUSD', period: '1h', historical_data: bars(start, 3_600_000, 3) },
      ],
    });
    // what main() received, in its order
    const received = run.logs.map((line) => line.split(' '));
    expect(received).toHaveLength(180 + 3);
    const hours = received.flatMap(([, , , period], i) => (period === '1h' ? [i] : []));
    expect(hours.map((i) => received[i]?.slice(0, 2).join(' '))).toEqual([
      '2024-03-04 10:00:00',
      '2024-03-04 11:00:00',
      '2024-03-04 12:00:00',
    ]);
    for (const [n, i] of hours.entries()) {
      // the row before is the hour's last minute, the row after the next hour's first
      expect(received[i - 1]?.slice(0, 3).join(' ')).toBe(`2024-03-04 ${pad(9 + n)}:59:00 EURUSD`);
      expect(received[i - 1]?.[3]).toBe('1m');
      if (n < 2) expect(received[i + 1]?.slice(1, 2).join(' ')).toBe(`${10 + n}:00:00`);
    }
    expect(run.feeds).toEqual([
      { symbol_id: 'EURUSD', period: '1m', bar_count: 180 },
      { symbol_id: 'EURUSD', period: '1h', bar_count: 3 },
    ]);
  });

  it('a pairs strategy trades both instruments, each by its own terms, in one account', async () => {
    const start = Date.UTC(2024, 0, 1);
    const day = 86_400_000;
    const run = await backtest({
      code: [
        'def main(data_array):',
        '    seen = [row for row in data_array if row[1] == "XAUUSD"]',
        '    goog = [row for row in data_array if row[1] == "GOOG"]',
        '    return [',
        '        {"open_date": goog[2][0], "open_price": goog[2][6], "close_date": goog[8][0],',
        '         "close_price": goog[8][6], "lots": 10, "status": "YES"},',
        '        {"code": "XAUUSD", "open_date": seen[2][0], "open_price": seen[2][6],',
        '         "close_date": seen[8][0], "close_price": seen[8][6], "lots": -2, "status": "YES"},',
        '    ]',
      ].join('\n'),
      initial_capital: 50_000,
      feeds: [
        { symbol_id: 'GOOG', period: 'day', historical_data: bars(start, day, 20, (i) => 100 + i) },
        {
          symbol_id: 'XAUUSD',
          period: 'day',
          historical_data: bars(start, day, 20, (i) => 2000 - 3 * i),
        },
      ],
    });
    expect(run.deals.map((d) => [d.code, d.commission, d.profit])).toEqual([
      // GOOG: (108 − 102) × 10 lots × 1 − 0.005 × 10 lots × 2 sides
      ['GOOG', 0.1, 59.9],
      // XAUUSD short: (1994 − 1976) × 2 lots × 100 − 5 × 2 lots × 2 sides
      ['XAUUSD', 20, 3580],
    ]);
    const goog = run.per_symbol?.GOOG;
    const gold = run.per_symbol?.XAUUSD;
    expect(goog).toMatchObject({ 合约: 'GOOG', 净利润: 59.9, 交易次数: 1 });
    expect(gold).toMatchObject({ 合约: 'XAUUSD', 净利润: 3580, 交易次数: 1 });
    expect(run.performance).toMatchObject({ 交易次数: 2, 净利润: 3639.9, final_equity: 53_639.9 });
    // the portfolio's equity is the sum of the instruments' at every point
    run.performance?.equity_curve.forEach(([date, equity], i) => {
      expect(goog?.equity_curve[i]?.[0]).toBe(date);
      const sum = (goog?.equity_curve[i]?.[1] ?? 0) + (gold?.equity_curve[i]?.[1] ?? 0) - 50_000;
      expect(equity).toBeCloseTo(sum, 1);
    });
  });

  it("keeps each instrument's figures and the feeds with the run and its saved results", async () => {
    const start = Date.UTC(2024, 0, 1);
    const day = 86_400_000;
    const saved = await asAlice('POST', '/api/strategies/', {
      name: 'Pairs kept',
      code: 'def main(d):\n    return []',
      create: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const run = await backtest({
      strategy_name: 'Pairs kept',
      code: [
        'def main(data_array):',
        '    gold = [row for row in data_array if row[1] == "XAUUSD"]',
        '    return [{"code": "XAUUSD", "open_date": gold[2][0], "open_price": gold[2][6],',
        '             "close_date": gold[8][0], "close_price": gold[8][6], "lots": 1, "status": "YES"}]',
      ].join('\n'),
      feeds: [
        { symbol_id: 'GOOG', period: 'day', historical_data: bars(start, day, 20, (i) => 100 + i) },
        {
          symbol_id: 'XAUUSD',
          period: 'day',
          historical_data: bars(start, day, 20, (i) => 2000 + i),
        },
      ],
    });
    const feeds = [
      { symbol_id: 'GOOG', period: 'day', bar_count: 20 },
      { symbol_id: 'XAUUSD', period: 'day', bar_count: 20 },
    ];
    // the kept run
    const kept = await asAlice('GET', `/api/backtest/runs/${run.run_id as string}`);
    expect(kept.json()).toMatchObject({ feeds, per_symbol: run.per_symbol });
    // its automatic result in the strategy's run history, and the same result saved
    const listed = await asAlice('GET', '/api/strategy-results/Pairs%20kept');
    const [auto] = listed.json<{ results: { id: number; feeds?: unknown }[] }>().results;
    expect(auto?.feeds).toEqual(feeds);
    const detail = await asAlice('GET', `/api/strategy-results/Pairs%20kept/${auto?.id}`);
    expect(detail.json()).toMatchObject({ feeds, per_symbol: run.per_symbol });
    // a result saved from the figures the browser holds keeps them too
    const posted = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Pairs kept',
      symbol_id: 'GOOG',
      deals: run.deals,
      performance: run.performance,
      per_symbol: run.per_symbol,
      feeds: feeds.map(({ symbol_id, period }) => ({ symbol_id, period })),
    });
    expect(posted.statusCode, posted.body).toBe(200);
    const id = posted.json<{ id: number }>().id;
    const again = await asAlice('GET', `/api/strategy-results/Pairs%20kept/${id}`);
    expect(again.json()).toMatchObject({
      feeds: [
        { symbol_id: 'GOOG', period: 'day' },
        { symbol_id: 'XAUUSD', period: 'day' },
      ],
      per_symbol: run.per_symbol,
    });
  });

  it('loads a feed without historical_data over the span of the given bars', async () => {
    const history = loadShippedHistory('GOOG.csv').filter(
      (bar) => bar.time >= Date.UTC(2010, 0, 1) && bar.time < Date.UTC(2010, 3, 1),
    );
    const run = await backtest({
      code: 'def main(data_array):\n    print(len(data_array))\n    return []',
      historical_data: history.map((bar) => ({
        Time: text(bar.time),
        Open: bar.open,
        High: bar.high,
        Low: bar.low,
        Close: bar.close,
        Volume: bar.volume,
      })),
      feeds: [
        { symbol_id: 'GOOG', period: 'day' },
        { symbol_id: 'GOOG', period: 'week' },
      ],
    });
    const weeks = run.feeds?.[1]?.bar_count ?? 0;
    expect(run.feeds?.[0]).toEqual({ symbol_id: 'GOOG', period: 'day', bar_count: history.length });
    expect(weeks).toBeGreaterThanOrEqual(12);
    expect(weeks).toBeLessThanOrEqual(14);
    // a week still forming at the end of the daily bars is not shown
    expect(Number(run.logs[0])).toBeLessThanOrEqual(history.length + weeks);
    expect(Object.keys(run.per_symbol ?? {})).toEqual(['GOOG']);
  });

  it('one feed gives the same deals as before: the 93 closed SMA-cross trades on GOOG', async () => {
    const goog = loadShippedHistory('GOOG.csv').map((bar) => ({
      Time: text(bar.time),
      Open: bar.open,
      High: bar.high,
      Low: bar.low,
      Close: bar.close,
      Volume: bar.volume,
    }));
    const code = [
      'def main(data_array):',
      '    closes = [row[6] for row in data_array]',
      '    sma = lambda i, n: sum(closes[i - n + 1:i + 1]) / n',
      '    trades, position = [], None',
      '    for i in range(20, len(data_array) - 1):',
      '        up = sma(i - 1, 10) < sma(i - 1, 20) and sma(i, 10) > sma(i, 20)',
      '        down = sma(i - 1, 10) > sma(i - 1, 20) and sma(i, 10) < sma(i, 20)',
      '        if not (up or down):',
      '            continue',
      '        nxt = data_array[i + 1]',
      '        if position:',
      '            trades.append({**position, "close_date": nxt[0], "close_price": nxt[3], "status": "YES"})',
      '        position = {"open_date": nxt[0], "open_price": nxt[3], "lots": 1 if up else -1}',
      '    return trades + [{**position, "status": "NOT"}]',
    ].join('\n');
    const plain = await backtest({ code, historical_data: goog, symbol: 'GOOG', period: 'day' });
    expect(plain.deals.filter((deal) => deal.status === 'YES')).toHaveLength(93);
    expect(plain.deals).toHaveLength(94);
    const fed = await backtest({
      code,
      historical_data: goog,
      feeds: [{ symbol_id: 'GOOG', period: 'day' }],
    });
    expect(fed.deals).toEqual(plain.deals);
    expect(fed.performance).toEqual(plain.performance);
    expect(fed.per_symbol).toEqual({ GOOG: plain.performance });
  }, 60_000);

  describe('bad feeds answer 400 with a detail', () => {
    const code = 'def main(d):\n    return []';
    const feed = { symbol_id: 'GOOG', period: 'day', historical_data: dailyBars(10) };
    it.each([
      [
        'an unknown instrument',
        { feeds: [feed, { symbol_id: 'NOPE', period: 'day' }] },
        'feeds[1]: Unknown symbol: NOPE',
      ],
      [
        'more than ten feeds',
        {
          feeds: ['1m', '5m', '15m', '30m', '1h', '4h', 'day', 'week', 'month', 'day', 'day'].map(
            (period, i) => ({ symbol_id: i < 9 ? 'GOOG' : `X${i}`, period }),
          ),
        },
        /^feeds: feeds must have at most 10 entries/,
      ],
      [
        'a period without data',
        {
          feeds: [
            { ...feed, historical_data: dailyBars(10, Date.UTC(1990, 0, 1)) },
            { symbol_id: 'GOOG', period: 'week' },
          ],
        },
        /^feeds\[1\]: No bars of GOOG week/,
      ],
      [
        'an unknown period',
        { feeds: [feed, { symbol_id: 'GOOG', period: 'fortnight' }] },
        'feeds[1].period: Unknown period: fortnight',
      ],
      ['a feed twice', { feeds: [feed, feed] }, 'feeds.1: GOOG day is named twice'],
      [
        "a feed's bad bars",
        { feeds: [{ ...feed, historical_data: [{ Time: 'x' }] }] },
        /^feeds\[0\]\.historical_data\[0\]\.Time: must be a date/,
      ],
      [
        'neither feeds nor bars',
        {},
        /^historical_data: historical_data must have at least one bar/,
      ],
    ])('%s', async (_label, body, detail) => {
      const res = await asAlice('POST', '/api/backtest/code', { code, ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ detail: string }>().detail).toMatch(detail);
    });
  });

  describe("the run helper names a bad feed by its place in the body's feeds", () => {
    const code = 'def main(d):\n    return []';
    // bars of 1990, when the shipped history has none
    const own = {
      symbol: 'GOOG',
      period: 'day',
      historical_data: dailyBars(10, Date.UTC(1990, 0, 1)),
    };
    it.each([
      [
        'the first feed',
        [{ symbol_id: 'NOPE', period: 'day' }],
        /^feeds\[0\]: Unknown symbol: NOPE/,
      ],
      [
        "a feed after the run's own",
        [
          { symbol_id: 'GOOG', period: 'day' },
          { symbol_id: 'NOPE', period: 'day' },
        ],
        /^feeds\[1\]: Unknown symbol: NOPE/,
      ],
      [
        'a period without data',
        [
          { symbol_id: 'GOOG', period: 'week' },
          { symbol_id: 'GOOG', period: 'day' },
        ],
        /^feeds\[0\]: No bars of GOOG week/,
      ],
    ])('%s', async (_label, feeds, detail) => {
      const res = await asAlice('POST', '/api/backtest/run', {
        code,
        ...own,
        feeds,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ detail: string }>().detail).toMatch(detail);
    });
  });
});
