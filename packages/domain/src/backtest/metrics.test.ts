import { describe, expect, it } from 'vitest';
import { validateTradeRecords } from './contract.ts';
import {
  DEFAULT_BACKTEST_CONVENTIONS,
  MAX_EQUITY_POINTS,
  annualReturn,
  computeBacktest,
  curveFigures,
  equityCurve,
  maxDrawdown,
  maxPositions,
  sharpeRatio,
  type BacktestConventions,
  type MetricsBar,
} from './metrics.ts';
import { barsFromHistorical, inferPeriod } from './bars.ts';
import { formatContractDate } from './dates.ts';
import { commissionFor, profitLoss } from '../trading/values.ts';

const day = (d: number) => Date.UTC(2024, 0, d);
const bars = (closes: number[]) => closes.map((close, i) => ({ time: day(i + 1), close }));
const SMALL: BacktestConventions = { ...DEFAULT_BACKTEST_CONVENTIONS, initialCapital: 10_000 };

/** Validates the records against the bars, then computes the deals and performance. */
function runOn(b: MetricsBar[], records: unknown[], conventions: BacktestConventions = SMALL) {
  const checked = validateTradeRecords(
    records,
    b.map((bar) => bar.time),
  );
  if (!checked.ok) throw new Error(checked.error);
  return computeBacktest({
    bars: b,
    trades: checked.trades,
    symbol: 'TEST',
    period: 'day',
    conventions,
  });
}

function run(closes: number[], records: unknown[], conventions: BacktestConventions = SMALL) {
  return runOn(bars(closes), records, conventions);
}

describe('computeBacktest, by hand', () => {
  // closes 100, 102, 101, 105, 103 on 2024-01-01 … 05
  // T1 buy 2 @100 (01) → 101 (03): +2;  T2 sell 1 @101 (03) → 105 (04): −4;
  // T3 buy 1 @105 (04) still open, valued at the last close 103: −2
  const closes = [100, 102, 101, 105, 103];
  const records = [
    {
      open_date: '2024-01-01 00:00:00',
      close_date: '2024-01-03 00:00:00',
      open_price: 100,
      close_price: 101,
      lots: 2,
      status: 'YES',
    },
    {
      open_date: '2024-01-03 00:00:00',
      close_date: '2024-01-04 00:00:00',
      open_price: 101,
      close_price: 105,
      lots: -1,
      status: 'YES',
    },
    {
      open_date: '2024-01-04 00:00:00',
      close_date: null,
      open_price: 105,
      close_price: null,
      lots: 1,
      status: 'NOT',
    },
  ];

  it('computes the deals (profit never trusted, open trade at the last close)', () => {
    const { deals } = run(closes, records);
    expect(deals.map((d) => d.profit)).toEqual([2, -4, -2]);
    expect(deals[2]).toEqual({
      open_date: '2024-01-04 00:00:00',
      close_date: null,
      open_price: 105,
      close_price: 103,
      lots: 1,
      status: 'NOT',
      profit: -2,
      commission: 0,
      start: day(4) / 1000,
      end: null,
      qty: 1,
    });
    expect(deals[1]).toMatchObject({ start: day(3) / 1000, end: day(4) / 1000, qty: 1, lots: -1 });
  });

  it('computes the performance', () => {
    const { performance: p } = run(closes, records);
    // equity at closes: 10000, 10004 (T1 +4 open), 10002 (T1 realised +2, T2 flat),
    // 9998 (T2 realised −4, T3 flat), 9996 (T3 −2 at the last close)
    expect(p.equity_curve).toEqual([
      ['2024-01-01 00:00:00', 10000],
      ['2024-01-02 00:00:00', 10004],
      ['2024-01-03 00:00:00', 10002],
      ['2024-01-04 00:00:00', 9998],
      ['2024-01-05 00:00:00', 9996],
    ]);
    expect(p).toMatchObject({
      合约: 'TEST',
      周期: 'day',
      开始时间: '2024-01-01 00:00:00',
      结束时间: '2024-01-05 00:00:00',
      交易次数: 3,
      胜率: 0.333333, // 1 of 3
      盈亏比: 0.6667, // average win 2 / average loss 3
      总盈利: 2,
      总亏损: -6,
      净利润: -4,
      最大持仓: 2, // T1's 2 lots
      平均每笔盈利: -1.33,
      profit_rate: -0.0004, // −4 / 10000
      max_drawdown: 0.0008, // 8 / 10004 = 0.00079968
      max_drawdown_amount: 8,
      win_rate: 0.333333,
      profit_factor: 0.3333, // 2 / 6
      expectancy: -1.33,
      winning_trades: 1,
      losing_trades: 2,
      open_trades: 1,
      commission_total: 0,
      initial_capital: 10000,
      final_equity: 9996,
      bar_count: 5,
    });
    // 4 days of data are shorter than the 30-day minimum: annualised figures are withheld.
    // The formula on this curve: 4 returns over 4 days, N = 365 bars a year;
    // r = 0.0004, −0.00019992, −0.00039992, −0.00020004; mean −0.00009997, sd 0.00034638
    expect(p.sharpe_ratio).toBeNull();
    expect(sharpeRatio([10000, 10004, 10002, 9998, 9996], 365, 0)).toBe(-5.5139);
    // 4 days of data are shorter than the 30-day minimum: the return is not annualised
    // (compounded it would read (9996 / 10000) ^ (365 / 4) − 1 = −3.58 %)
    expect(p.annual_return).toBeNull();
    expect(p.conventions).toEqual({
      initial_capital: 10000,
      contract_multiplier: 1,
      commission_per_lot: 0,
      risk_free_rate: 0,
      days_per_year: 365,
      min_annualise_days: 30,
      currency: 'USD',
      bars_per_year: 365,
      open_trades_valued_at: 'last_close',
    });
  });

  it('no trades: zeros, and null where a ratio is undefined', () => {
    const { deals, performance: p } = run([10, 11, 12], []);
    expect(deals).toEqual([]);
    expect(p).toMatchObject({
      交易次数: 0,
      胜率: 0,
      盈亏比: null,
      总盈利: 0,
      总亏损: 0,
      净利润: 0,
      最大持仓: 0,
      平均每笔盈利: 0,
      profit_rate: 0,
      annual_return: null, // 2 days of data: too short to annualise
      max_drawdown: 0,
      sharpe_ratio: null, // flat equity has no variation
      profit_factor: null,
      expectancy: 0,
      final_equity: 10000,
    });
    expect(p.equity_curve.map(([, e]) => e)).toEqual([10000, 10000, 10000]);
  });

  it('all losses, with a contract multiplier and commission', () => {
    const conventions = { ...SMALL, contractMultiplier: 10, commissionPerLot: 1 };
    const { deals, performance: p } = run(
      [50, 48, 49],
      [
        // (48 − 50) × 1 × 10 − 1 × 1 × 2 = −22
        {
          open_date: '2024-01-01',
          close_date: '2024-01-02',
          open_price: 50,
          close_price: 48,
          lots: 1,
          status: 'YES',
        },
        // (49 − 48) × −2 × 10 − 1 × 2 × 2 = −24
        {
          open_date: '2024-01-02',
          close_date: '2024-01-03',
          open_price: 48,
          close_price: 49,
          lots: -2,
          status: 'YES',
        },
      ],
      conventions,
    );
    expect(deals.map((d) => [d.profit, d.commission])).toEqual([
      [-22, 2],
      [-24, 4],
    ]);
    expect(p).toMatchObject({
      交易次数: 2,
      胜率: 0,
      盈亏比: 0,
      总盈利: 0,
      总亏损: -46,
      净利润: -46,
      最大持仓: 2,
      平均每笔盈利: -23,
      profit_factor: 0,
      commission_total: 6,
      final_equity: 9954,
      winning_trades: 0,
      losing_trades: 2,
    });
    // equity: 10000 − 1 (open fee) = 9999; then −22 realised and −2 fee for T2's open,
    // T2 marked at 48: 10000 − 22 − 2 = 9976; then T2 closes −20 − 2 → 9954
    expect(p.equity_curve.map(([, e]) => e)).toEqual([9999, 9976, 9954]);
    expect(p.max_drawdown_amount).toBe(46); // from the initial 10000 to 9954
  });

  it('an open trade at the end pays both commissions and is marked at the last close', () => {
    const conventions = { ...SMALL, commissionPerLot: 0.5 };
    const { deals, performance: p } = run(
      [10, 12, 15],
      [{ open_date: '2024-01-02', open_price: 12, lots: 3, status: 'NOT' }],
      conventions,
    );
    // (15 − 12) × 3 − 0.5 × 3 × 2 = 6
    expect(deals[0]).toMatchObject({ profit: 6, close_price: 15, close_date: null, end: null });
    expect(p).toMatchObject({
      胜率: 1,
      盈亏比: null,
      profit_factor: null,
      open_trades: 1,
      最大持仓: 3,
    });
    expect(p.equity_curve.map(([, e]) => e)).toEqual([10000, 9998.5, 10006]);
  });

  it('keeps at most MAX_EQUITY_POINTS points, the first and the last among them', () => {
    const closes = Array.from({ length: 5000 }, (_, i) => 100 + Math.sin(i));
    const { performance: p } = computeBacktest({
      bars: closes.map((close, i) => ({ time: day(1) + i * 60_000, close })),
      trades: [],
      symbol: 'X',
      period: '1m',
    });
    expect(p.equity_curve).toHaveLength(MAX_EQUITY_POINTS);
    expect(p.equity_curve[0]?.[0]).toBe('2024-01-01 00:00:00');
    expect(p.equity_curve.at(-1)?.[0]).toBe('2024-01-04 11:19:00');
    expect(p.bar_count).toBe(5000);
  });
});

describe('a deal settles by the engine’s rules', () => {
  it('profit is the engine’s P&L of the side less its commission for both sides', () => {
    const conventions = { ...SMALL, contractMultiplier: 100, commissionPerLot: 0.35 };
    const records = [
      {
        open_date: '2024-01-01 00:00:00',
        close_date: '2024-01-02 00:00:00',
        open_price: 100.123,
        close_price: 100.456,
        lots: -0.3,
        status: 'YES',
      },
    ];
    const [deal] = run([100.123, 100.456], records, conventions).deals;
    const terms = { volume_multiple: 100, margin_ratio_by_money: 0 };
    const commission = commissionFor(0.6, 0.35);
    expect(deal?.commission).toBe(commission);
    expect(deal?.profit).toBe(
      Math.round((profitLoss('sell', 100.123, 100.456, 0.3, terms) - commission) * 100) / 100,
    );
    expect(deal?.profit).toBe(-10.2); // −9.99 for the sell, −0.21 of commission
  });
});

describe('metric helpers', () => {
  it('sharpe ratio: sample deviation, annualised with √N, risk-free per bar', () => {
    // returns 0.01, 0.02: mean 0.015, sd 0.0070711; × √252
    expect(sharpeRatio([100, 101, 103.02], 252, 0)).toBe(33.6749);
    // rf 2.52 % a year = 0.0001 a bar
    expect(sharpeRatio([100, 101, 103.02], 252, 0.0252)).toBe(33.4504);
    expect(sharpeRatio([100, 110, 121], 252, 0)).toBeNull(); // no variation
    expect(sharpeRatio([100, 110], 252, 0)).toBeNull(); // one return
    expect(sharpeRatio([100, 101, 103.02], null, 0)).toBeNull();
  });

  it('max drawdown from the running peak', () => {
    expect(maxDrawdown([100, 120, 90, 130, 104])).toEqual({ fraction: 0.25, amount: 30 });
    expect(maxDrawdown([])).toEqual({ fraction: 0, amount: 0 });
  });

  it('annual return compounds; a wipe-out is −1; no time is null', () => {
    expect(annualReturn(100, 121, 2)).toBe(0.1);
    expect(annualReturn(100, -5, 1)).toBe(-1);
    expect(annualReturn(100, 110, 0)).toBeNull();
    expect(annualReturn(100, 110, 0.05, 0.1)).toBeNull(); // shorter than the minimum span
    expect(annualReturn(100, 110, 0.1, 0.1)).toBe(1.593742); // 1.1 ^ 10 − 1
  });

  it('annualises return and Sharpe over 30 days or more, withholds them for less', () => {
    const trade = (closeDate: string) => ({
      open_date: '2024-01-01 00:00:00',
      close_date: closeDate,
      open_price: 100,
      close_price: 110,
      lots: 10,
      status: 'YES',
    });
    const twoBars = (lastDay: number, closeDate: string) =>
      runOn(
        [
          { time: day(1), close: 100 },
          { time: day(lastDay), close: 110 },
        ],
        [trade(closeDate)],
      ).performance;
    // +100 on 10,000 over 73 days = 1/5 of a year: 1.01 ^ 5 − 1 = 5.1010 %
    const quarter = twoBars(74, '2024-03-14 00:00:00');
    expect(quarter.profit_rate).toBe(0.01);
    expect(quarter.annual_return).toBe(0.05101);
    // exactly 30 days: 1.01 ^ (365 / 30) − 1
    expect(twoBars(31, '2024-01-31 00:00:00').annual_return).toBe(0.128695);
    // 60 days, three bars: r = 0.005, 0.00497512; N = 2 / (60 / 365) = 12.1667 bars a year
    const twoMonths = runOn(
      [
        { time: day(1), close: 100 },
        { time: day(31), close: 105 },
        { time: day(61), close: 110 },
      ],
      [trade('2024-03-01 00:00:00')],
    ).performance;
    expect(twoMonths.sharpe_ratio).toBe(989.043);
    // 29 days: withheld, the profit rate still says what happened
    const short = twoBars(30, '2024-01-30 00:00:00');
    expect(short.annual_return).toBeNull();
    expect(short.sharpe_ratio).toBeNull();
    expect(short.profit_rate).toBe(0.01);
  });
});

describe('the figures of the bars in one pass', () => {
  // a fixed series of 2,000 daily bars (a seeded walk that also falls to a wipe-out), and
  // trades long and short, closed in their own bar, later, or still open at the end
  let seed = 11;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const series: MetricsBar[] = [];
  let price = 100;
  for (let i = 0; i < 2000; i++) {
    price = i === 1500 ? 0.5 : Math.max(0.01, price * (1 + (random() - 0.52) * 0.05));
    series.push({ time: Date.UTC(2015, 0, 1) + i * 86_400_000, close: price });
  }
  const records = Array.from({ length: 300 }, (_, k) => {
    const open = Math.floor(random() * 1990);
    const close = open + (k % 5 === 0 ? 0 : Math.floor(random() * 9));
    const still = k % 37 === 0;
    const at = (i: number) => formatContractDate((series[i] as MetricsBar).time);
    return {
      open_date: at(open),
      open_price: (series[open] as MetricsBar).close,
      lots: k % 3 === 0 ? -2 : 1.5,
      status: still ? 'NOT' : 'YES',
      ...(still ? {} : { close_date: at(close), close_price: (series[close] as MetricsBar).close }),
    };
  });
  const checked = validateTradeRecords(
    records,
    series.map((bar) => bar.time),
  );
  if (!checked.ok) throw new Error(checked.error);
  const trades = checked.trades;

  it('are exactly what the curve, drawdown, Sharpe and positions functions give', () => {
    for (const conventions of [
      SMALL,
      { ...SMALL, initialCapital: 50, contractMultiplier: 10, commissionPerLot: 1.25 },
    ]) {
      const figures = curveFigures(series, trades, conventions);
      const curve = equityCurve(series, trades, conventions);
      expect(Array.from(figures.curve)).toEqual(curve);
      expect(figures.drawdown).toEqual(maxDrawdown(curve, conventions.initialCapital));
      expect(figures.maxPositions).toBe(maxPositions(series.length, trades));
      const performance = computeBacktest({
        bars: series,
        trades,
        symbol: 'TEST',
        period: 'day',
        conventions,
      }).performance;
      const barsPerYear = (series.length - 1) / (1999 / conventions.daysPerYear);
      expect(performance.sharpe_ratio).toBe(
        sharpeRatio(curve, barsPerYear, conventions.riskFreeRate),
      );
      expect(performance.max_drawdown_amount).toBe(
        Math.round(maxDrawdown(curve, conventions.initialCapital).amount * 100) / 100,
      );
      expect(performance.最大持仓).toBe(maxPositions(series.length, trades));
    }
    expect(curveFigures([], [], SMALL)).toEqual({
      curve: new Float64Array(0),
      drawdown: { fraction: 0, amount: 0 },
      returns: new Float64Array(0),
      maxPositions: 0,
    });
  });

  it('give the performance the figures computed apart gave (fixed series)', () => {
    const { performance, deals } = computeBacktest({
      bars: series,
      trades,
      symbol: 'TEST',
      period: 'day',
      conventions: SMALL,
    });
    const profits = deals.map((deal) => deal.profit);
    const wins = profits.filter((p) => p > 0);
    const losses = profits.filter((p) => p < 0);
    const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
    expect(performance.总盈利).toBe(Math.round(sum(wins) * 100) / 100);
    expect(performance.总亏损).toBe(Math.round(sum(losses) * 100) / 100);
    expect(performance.净利润).toBe(Math.round(sum(profits) * 100) / 100);
    expect(performance.winning_trades).toBe(wins.length);
    expect(performance.losing_trades).toBe(losses.length);
    expect(performance.open_trades).toBe(deals.filter((deal) => deal.status === 'NOT').length);
    expect(performance.commission_total).toBe(
      Math.round(sum(deals.map((deal) => deal.commission)) * 100) / 100,
    );
    expect(performance.equity_curve).toHaveLength(MAX_EQUITY_POINTS);
  });
});

describe('historical data', () => {
  it('reads the client bars and infers the period', () => {
    const result = barsFromHistorical([
      { Time: '2024/01/05 00:00:00', Open: 1, High: 2, Low: 0.5, Close: 1.5, Volume: 10 },
      { Time: '2024/01/08 00:00:00', Open: 1.5, High: 2, Low: 1, Close: 1.8 },
      { Time: '2024/01/09 00:00:00', Open: 1.8, High: 2, Low: 1, Close: 1.9 },
      { Time: '2024/01/10 00:00:00', Open: 1.9, High: 2, Low: 1, Close: 2 },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.bars[1]).toEqual({
      time: Date.UTC(2024, 0, 8),
      open: 1.5,
      high: 2,
      low: 1,
      close: 1.8,
      volume: 0,
    });
    expect(inferPeriod(result.bars.map((b) => b.time))).toBe('day');
  });

  it('names the row out of order', () => {
    expect(
      barsFromHistorical([
        { Time: '2024/01/05 00:00:00', Open: 1, High: 1, Low: 1, Close: 1 },
        { Time: '2024/01/05 00:00:00', Open: 1, High: 1, Low: 1, Close: 1 },
      ]),
    ).toEqual({
      ok: false,
      error:
        'historical_data[1].Time: 2024/01/05 00:00:00 is not after the previous bar (bars must be in ascending time order, without duplicates)',
    });
  });

  it.each([
    [60_000, '1m'],
    [3_600_000, '1h'],
    [7 * 86_400_000, 'week'],
    [31 * 86_400_000, 'month'],
  ])('infers a period from a gap of %i ms', (gap, period) => {
    expect(inferPeriod([0, gap, 2 * gap])).toBe(period);
  });
});
