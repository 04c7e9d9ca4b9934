import { describe, expect, it } from 'vitest';
import {
  objectiveScore,
  optimizationRequestSchema,
  periodReturns,
  stitchEquity,
  stitchedPerformance,
  systemQualityNumber,
  type TrialPerformance,
} from './api.ts';

const PERFORMANCE: TrialPerformance = {
  net_profit: 120,
  trade_count: 4,
  win_rate: 0.5,
  sharpe: 1.2,
  max_drawdown: 0.1,
  profit_factor: 2,
  sqn: 0.8,
};

describe('optimisation answers', () => {
  it('system quality number: √n × mean / sample standard deviation of the profits', () => {
    // mean 25, sample sd of 10, 20, 30, 40 = 12.9099…; √4 × 25 / 12.9099 = 3.8730
    expect(systemQualityNumber([10, 20, 30, 40])).toBe(3.873);
    expect(systemQualityNumber([10])).toBeNull();
    expect(systemQualityNumber([5, 5, 5])).toBeNull();
  });

  it('scores the objective with higher better, the drawdown negated', () => {
    expect(objectiveScore('net_profit', PERFORMANCE)).toBe(120);
    expect(objectiveScore('max_drawdown', PERFORMANCE)).toBe(-0.1);
    expect(objectiveScore('profit_factor', { ...PERFORMANCE, profit_factor: null })).toBeNull();
  });

  it('per-period returns of an equity curve', () => {
    const [up, down] = periodReturns([100, 110, 99]);
    expect(up).toBeCloseTo(0.1, 12);
    expect(down).toBeCloseTo(-0.1, 12);
    expect(periodReturns([0, 10])).toEqual([0]);
  });

  it('stitches out-of-sample parts, each continuing where the one before ended', () => {
    expect(
      stitchEquity(
        [
          [
            ['a', 100],
            ['b', 110],
          ],
          [
            ['c', 100],
            ['d', 95],
          ],
        ],
        100,
      ),
    ).toEqual([
      ['a', 100],
      ['b', 110],
      ['c', 110],
      ['d', 105],
    ]);
  });

  it('refuses a body without code or strategy, and bars with a date range', () => {
    const base = {
      symbol_id: 'GOOG',
      period: 'oneDay',
      objective: 'sharpe',
      method: 'grid',
      params: { n: { values: [1] } },
    };
    expect(optimizationRequestSchema.safeParse(base).error?.issues[0]?.message).toBe(
      'give strategy_name or code',
    );
    const both = optimizationRequestSchema.safeParse({
      ...base,
      code: 'x',
      bars: 100,
      from: '2024-01-01',
    });
    expect(both.error?.issues[0]?.message).toBe('give bars or from/to, not both');
  });
});

describe('stitched out-of-sample figures', () => {
  it('net profit, win rate, profit factor, drawdown from the running peak and SQN of the parts', () => {
    const figures = stitchedPerformance({
      equity: [
        ['a', 1000],
        ['b', 1100],
        ['c', 990],
        ['d', 1050],
      ],
      profits: [100, -110, 60],
      returns: [0.1, -0.1, 0.0606060606],
      initialCapital: 1000,
      barsPerYear: 252,
    });
    // independent: statistics.mean(r) / statistics.stdev(r) * sqrt(252) = 3.0270 (Python)
    expect(figures).toEqual({
      net_profit: 50,
      trade_count: 3,
      win_rate: 0.666667,
      sharpe: 3.027,
      max_drawdown: 0.1,
      profit_factor: 1.4545,
      sqn: systemQualityNumber([100, -110, 60]),
    });
  });

  it('no Sharpe ratio for returns that do not vary or without a year of bars, no profit factor without losses', () => {
    const base = {
      equity: [['a', 1000] as const],
      profits: [10, 20],
      returns: [0.01, 0.01, 0.01],
      initialCapital: 1000,
    };
    const flat = stitchedPerformance({ ...base, barsPerYear: 252 });
    expect(flat.sharpe).toBeNull();
    expect(flat.profit_factor).toBeNull();
    expect(flat.win_rate).toBe(1);
    expect(
      stitchedPerformance({ ...base, returns: [0.01, 0.02], barsPerYear: null }).sharpe,
    ).toBeNull();
    expect(stitchedPerformance({ ...base, profits: [], barsPerYear: 252 })).toMatchObject({
      net_profit: 0,
      trade_count: 0,
      win_rate: 0,
      max_drawdown: 0,
    });
  });
});
