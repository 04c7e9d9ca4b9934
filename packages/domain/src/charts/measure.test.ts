import { describe, expect, it } from 'vitest';
import { fibonacciLevels, formatDuration, measureSpan } from './measure.ts';

describe('fibonacciLevels', () => {
  it('puts 0 at the second point, 1 at the first and the ratios between (100 → 200)', () => {
    const levels = fibonacciLevels({ time: 0, price: 100 }, { time: 60, price: 200 });
    expect(levels.map((l) => [l.ratio, Number(l.price.toFixed(6))])).toEqual([
      [0, 200],
      [0.236, 176.4],
      [0.382, 161.8],
      [0.5, 150],
      [0.618, 138.2],
      [0.786, 121.4],
      [1, 100],
    ]);
  });

  it('works downwards: from 50 down to 40, 0.618 retraces to 46.18', () => {
    const levels = fibonacciLevels({ time: 0, price: 50 }, { time: 60, price: 40 });
    expect(levels.find((l) => l.ratio === 0.618)?.price).toBeCloseTo(46.18, 10);
    expect(levels[0]?.price).toBe(40);
    expect(levels.at(-1)?.price).toBe(50);
  });
});

describe('measureSpan', () => {
  it('measures price, percent, bars and seconds from A to B', () => {
    const m = measureSpan({ time: 1000, price: 80 }, { time: 1000 + 5 * 3600, price: 100 }, 5);
    expect(m).toEqual({ priceDistance: 20, percent: 25, bars: 5, seconds: 18_000 });
  });

  it('is negative when B is lower and earlier; percent has 4 decimals', () => {
    const m = measureSpan({ time: 7200, price: 3 }, { time: 0, price: 2 }, -2);
    expect(m.priceDistance).toBe(-1);
    expect(m.percent).toBe(-33.3333);
    expect(m.bars).toBe(-2);
    expect(m.seconds).toBe(-7200);
  });

  it('has no percent from a price of 0', () => {
    expect(measureSpan({ time: 0, price: 0 }, { time: 60, price: 1 }, 1).percent).toBeNull();
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0m'],
    [30, '30s'],
    [59, '59s'],
    [60, '1m'],
    [45 * 60 + 20, '45m'],
    [2 * 3600 + 15 * 60, '2h 15m'],
    [3 * 86400 + 4 * 3600 + 5 * 60, '3d 4h'],
    [3 * 86400 + 5 * 60, '3d'],
    [-(26 * 3600), '1d 2h'],
  ])('%d s is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});
