import type { Bar, Kline } from '@ct/domain';

/** A kline of the API as a bar (time = the bar start in UTC ms). */
export function klineToBar(k: Kline): Bar {
  return {
    time: k.id * 1000,
    open: k.open,
    high: k.high,
    low: k.low,
    close: k.close,
    volume: k.volume,
  };
}

/** Bars in ascending time order with one bar per time (the later one of a duplicate wins). */
export function normalizeBars(bars: readonly Bar[]): Bar[] {
  const byTime = new Map<number, Bar>();
  for (const bar of bars) byTime.set(bar.time, bar);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/**
 * Puts an older history page in front of the bars on screen: only bars strictly older
 * than the oldest one shown are taken, so a page overlapping what is shown adds no
 * duplicates. `added` is how many bars came in front (0: history has no more).
 */
export function prependHistory(
  shown: readonly Bar[],
  older: readonly Bar[],
): { bars: Bar[]; added: number } {
  const oldest = shown[0]?.time ?? Number.POSITIVE_INFINITY;
  const fresh = normalizeBars(older.filter((bar) => bar.time < oldest));
  return { bars: [...fresh, ...shown], added: fresh.length };
}
