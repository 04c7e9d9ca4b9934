import type { Bar } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { klineToBar, normalizeBars, prependHistory } from './history';

const bar = (minute: number, close = minute): Bar => ({
  time: minute * 60_000,
  open: close,
  high: close,
  low: close,
  close,
  volume: 1,
});

describe('history paging', () => {
  it('turns a kline (id in epoch seconds) into a bar in ms', () => {
    expect(
      klineToBar({
        id: 60,
        ctm: 60,
        ctmFmt: '',
        open: 1,
        high: 2,
        low: 0.5,
        close: 1.5,
        volume: 3,
      }),
    ).toEqual({ time: 60_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 3 });
  });

  it('puts strictly older bars in front and counts them', () => {
    const shown = [bar(10), bar(11), bar(12)];
    const { bars, added } = prependHistory(shown, [bar(7), bar(8), bar(9)]);
    expect(added).toBe(3);
    expect(bars.map((b) => b.time / 60_000)).toEqual([7, 8, 9, 10, 11, 12]);
  });

  it('drops bars that overlap what is shown, and duplicates within the page', () => {
    const shown = [bar(10, 100), bar(11)];
    const { bars, added } = prependHistory(shown, [bar(8), bar(9), bar(9), bar(10, 999), bar(11)]);
    expect(added).toBe(2);
    expect(bars.map((b) => b.time / 60_000)).toEqual([8, 9, 10, 11]);
    expect(bars[2]!.close).toBe(100);
  });

  it('adds nothing when history is exhausted', () => {
    expect(prependHistory([bar(1)], []).added).toBe(0);
    expect(prependHistory([bar(1)], [bar(1), bar(2)]).added).toBe(0);
  });

  it('sorts and deduplicates bars', () => {
    expect(normalizeBars([bar(3), bar(1), bar(2, 5), bar(2, 6)]).map((b) => b.close)).toEqual([
      1, 6, 3,
    ]);
  });
});
