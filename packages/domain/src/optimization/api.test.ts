import { describe, expect, it } from 'vitest';
import {
  objectiveScore,
  optimizationRequestSchema,
  periodReturns,
  stitchEquity,
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
