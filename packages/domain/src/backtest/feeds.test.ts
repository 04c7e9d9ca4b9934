import { describe, expect, it } from 'vitest';
import type { Bar } from '../market/bars.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../market/periods.ts';
import { parseContractDate } from './dates.ts';
import {
  MAX_FEEDS,
  backtestFeedsSchema,
  computePortfolio,
  feedInstruments,
  feedRow,
  mergeFeeds,
  portfolioEquity,
  type Feed,
} from './feeds.ts';
import { DEFAULT_BACKTEST_CONVENTIONS, type BacktestConventions } from './metrics.ts';

const T0 = Date.UTC(2024, 0, 2, 10);

function series(start: number, step: number, count: number, price = (i: number) => 100 + i): Bar[] {
  return Array.from({ length: count }, (_, i) => {
    const close = price(i);
    return { time: start + i * step, open: close, high: close, low: close, close, volume: 1 };
  });
}

describe('mergeFeeds', () => {
  // 1m bars 10:00 … 11:59, 1h bars 10:00, 11:00 and 12:00 (the last still forming)
  const minute: Feed = { code: 'EURUSD', period: '1m', bars: series(T0, MINUTE_MS, 120) };
  const hour: Feed = { code: 'EURUSD', period: '1h', bars: series(T0, HOUR_MS, 3) };
  const rows = mergeFeeds([hour, minute]).map((row) => feedRow([hour, minute], row));

  it('shows each 1h bar, dated by its close, right after its last 1m bar', () => {
    const hourRows = rows.flatMap((row, i) => (row[2] === '1h' ? [i] : []));
    expect(hourRows.map((i) => rows[i]?.[0])).toEqual([
      '2024-01-02 11:00:00',
      '2024-01-02 12:00:00',
    ]);
    for (const i of hourRows) {
      const closes = parseContractDate(String(rows[i]?.[0])) ?? 0;
      // every 1m bar before it ends by its close, every one after starts at or after it
      for (const row of rows.slice(0, i).filter((r) => r[2] === '1m')) {
        expect(parseContractDate(String(row[0]))! + MINUTE_MS).toBeLessThanOrEqual(closes);
      }
      for (const row of rows.slice(i + 1).filter((r) => r[2] === '1m')) {
        expect(parseContractDate(String(row[0]))!).toBeGreaterThanOrEqual(closes);
      }
    }
    expect(rows[hourRows[0]! - 1]?.[0]).toBe('2024-01-02 10:59:00');
    expect(rows[hourRows[0]! + 1]?.[0]).toBe('2024-01-02 11:00:00');
  });

  it('leaves out the higher-period bar that has not closed by the end of the data', () => {
    expect(rows).toHaveLength(120 + 2);
    expect(rows.at(-1)).toEqual(['2024-01-02 12:00:00', 'EURUSD', '1h', 101, 101, 101, 101, 1]);
  });

  it('keeps a one-feed series as it is: rows dated by their starts', () => {
    const single = mergeFeeds([minute]).map((row) => feedRow([minute], row));
    expect(single).toHaveLength(120);
    expect(single[0]).toEqual(['2024-01-02 10:00:00', 'EURUSD', '1m', 100, 100, 100, 100, 1]);
  });

  it('interleaves two instruments of one period by time', () => {
    const a: Feed = { code: 'A', period: 'day', bars: series(T0, DAY_MS, 3) };
    const b: Feed = { code: 'B', period: 'day', bars: series(T0 + DAY_MS, DAY_MS, 2) };
    const merged = mergeFeeds([a, b]).map((row) => feedRow([a, b], row).slice(0, 2));
    expect(merged).toEqual([
      ['2024-01-02 10:00:00', 'A'],
      ['2024-01-03 10:00:00', 'A'],
      ['2024-01-03 10:00:00', 'B'],
      ['2024-01-04 10:00:00', 'A'],
      ['2024-01-04 10:00:00', 'B'],
    ]);
  });
});

describe('backtestFeedsSchema', () => {
  it('takes up to ten distinct feeds', () => {
    const feeds = Array.from({ length: MAX_FEEDS + 1 }, (_, i) => ({
      symbol_id: `S${i}`,
      period: 'day',
    }));
    expect(backtestFeedsSchema.safeParse(feeds.slice(0, MAX_FEEDS)).success).toBe(true);
    expect(backtestFeedsSchema.safeParse(feeds).error?.issues[0]?.message).toBe(
      'feeds must have at most 10 entries',
    );
    expect(backtestFeedsSchema.safeParse([feeds[0], feeds[0]]).error?.issues[0]?.message).toBe(
      'S0 day is named twice',
    );
  });
});

describe('computePortfolio', () => {
  const capital = 10_000;
  const terms = (multiplier: number, commission: number): BacktestConventions => ({
    ...DEFAULT_BACKTEST_CONVENTIONS,
    initialCapital: capital,
    contractMultiplier: multiplier,
    commissionPerLot: commission,
  });
  // A rises 1 a day from 100; B falls 2 a day from 50
  const a: Feed = { code: 'A', period: 'day', bars: series(T0, DAY_MS, 10) };
  const b: Feed = { code: 'B', period: 'day', bars: series(T0, DAY_MS, 10, (i) => 50 - 2 * i) };
  const instruments = feedInstruments([a, b], (code) =>
    code === 'A' ? terms(1, 1) : terms(10, 0.5),
  );
  const date = (i: number) => `2024-01-${String(2 + i).padStart(2, '0')} 10:00:00`;
  // a pair: long A, short B; the first record names no code, so it trades A
  const records = [
    {
      open_date: date(1),
      close_date: date(5),
      open_price: 101,
      close_price: 105,
      lots: 2,
      status: 'YES',
    },
    {
      code: 'B',
      open_date: date(1),
      close_date: date(5),
      open_price: 48,
      close_price: 40,
      lots: -3,
      status: 'YES',
    },
    { code: 'B', open_date: date(7), open_price: 36, lots: 1, status: 'NOT' },
  ];

  it('settles each instrument by its own terms and tags the deals', () => {
    const result = computePortfolio(records, instruments);
    if (!result.ok) throw new Error(result.error);
    expect(result.deals.map((d) => [d.code, d.commission, d.profit])).toEqual([
      // A: (105 − 101) × 2 × 1 − 1 × 2 lots × 2 sides
      ['A', 4, 4],
      // B: (48 − 40) × 3 × 10 − 0.5 × 3 lots × 2 sides
      ['B', 3, 237],
      // B open, valued at the last close 32: (32 − 36) × 1 × 10 − 0.5 × 2
      ['B', 1, -41],
    ]);
    expect(result.perSymbol.A).toMatchObject({ 合约: 'A', 交易次数: 1, 净利润: 4 });
    expect(result.perSymbol.B).toMatchObject({ 合约: 'B', 交易次数: 2, 净利润: 196 });
    expect(result.performance).toMatchObject({
      合约: 'A,B',
      交易次数: 3,
      净利润: 200,
      commission_total: 8,
      final_equity: capital + 200,
      最大持仓: 5,
    });
  });

  it('makes the portfolio equity the sum of the instruments’ equity', () => {
    const result = computePortfolio(records, instruments);
    if (!result.ok) throw new Error(result.error);
    const curveA = result.perSymbol.A!.equity_curve;
    const curveB = result.perSymbol.B!.equity_curve;
    const portfolio = result.performance.equity_curve;
    expect(portfolio).toHaveLength(10);
    portfolio.forEach(([date, equity], i) => {
      expect(curveA[i]?.[0]).toBe(date);
      expect(equity).toBeCloseTo(curveA[i]![1] + curveB[i]![1] - capital, 2);
    });
    expect(result.performance.final_equity).toBeCloseTo(
      result.perSymbol.A!.final_equity + result.perSymbol.B!.final_equity - capital,
      2,
    );
  });

  it('sums instruments of different timeframes at each one’s latest bar', () => {
    const hourly: Feed = { code: 'H', period: '1h', bars: series(T0, HOUR_MS, 48, () => 10) };
    const daily: Feed = {
      code: 'D',
      period: 'day',
      bars: series(T0, DAY_MS, 2, (i) => 100 + 10 * i),
    };
    const both = feedInstruments([hourly, daily], () => terms(1, 0));
    const held = computePortfolio(
      [{ code: 'D', open_date: date(0), open_price: 100, lots: 1, status: 'NOT' }],
      both,
    );
    if (!held.ok) throw new Error(held.error);
    const { times, equity } = portfolioEquity(
      both,
      held.instruments.map((r) => r.trades),
    );
    expect(times).toHaveLength(48);
    // D's second day starts 24 hours in: its +10 counts from then on
    expect(equity[23]).toBe(capital);
    expect(equity[24]).toBe(capital + 10);
    expect(equity[47]).toBe(capital + 10);
  });

  it('names an unknown instrument and the record’s own index', () => {
    const unknown = computePortfolio([records[0], { ...records[1], code: 'Z' }], instruments);
    expect(unknown).toMatchObject({
      ok: false,
      index: 1,
      field: 'code',
      error: "records[1].code must be one of the feeds' instruments (A, B), got 'Z'",
    });
    const bad = computePortfolio([records[0], { ...records[1], lots: 0 }], instruments);
    expect(bad).toMatchObject({ ok: false, index: 1, field: 'lots' });
    if (bad.ok) return;
    expect(bad.error).toMatch(/^records\[1\]\.lots must be a non-zero number/);
    expect(computePortfolio('x', instruments)).toMatchObject({ ok: false, index: null });
  });
});
