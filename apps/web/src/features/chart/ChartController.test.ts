import type { Bar } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { barsUpTo, visibleBarTimes } from './ChartController';

const bars: Bar[] = [0, 1, 2, 3, 4].map((minute) => ({
  time: (100 + minute) * 60_000,
  open: 1,
  high: 1,
  low: 1,
  close: 1,
  volume: 1,
}));

describe('visibleBarTimes', () => {
  it('names the first and last bar a logical range shows, in seconds', () => {
    expect(visibleBarTimes(bars, { from: 0.6, to: 3.2 })).toEqual({ from: 6060, to: 6180 });
  });

  it('clamps to the bars there are: empty space left or right of them shows none', () => {
    expect(visibleBarTimes(bars, { from: -20, to: 10 })).toEqual({ from: 6000, to: 6240 });
  });

  it('is null without bars or without a range', () => {
    expect(visibleBarTimes([], { from: 0, to: 5 })).toBeNull();
    expect(visibleBarTimes(bars, null)).toBeNull();
  });
});

describe('barsUpTo (bar replay)', () => {
  it('keeps the bars up to the cursor bar and none after it', () => {
    expect(barsUpTo(bars, 102 * 60_000).map((b) => b.time)).toEqual([
      6_000_000, 6_060_000, 6_120_000,
    ]);
    expect(barsUpTo(bars, 102 * 60_000 + 30_000)).toHaveLength(3);
    expect(barsUpTo(bars, 99 * 60_000)).toEqual([]);
    expect(barsUpTo(bars, 200 * 60_000)).toHaveLength(5);
  });
});
