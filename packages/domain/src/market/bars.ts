import { bucketStart, type Period } from './periods.ts';

/** An OHLCV bar; `time` is the bar's start in UTC ms. */
export type Bar = {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
};

/** Volumes are summed with this many decimals to keep float residue out. */
const VOLUME_DECIMALS = 8;

function sumVolume(a: number, b: number): number {
  const f = 10 ** VOLUME_DECIMALS;
  return Math.round((a + b) * f) / f;
}

/**
 * Folds ascending bars of a finer resolution into bars of `period`: open of the first,
 * close of the last, highest high, lowest low, summed volume; `time` is the bucket start.
 */
export function aggregateBars(bars: readonly Bar[], period: Period): Bar[] {
  const out: Bar[] = [];
  let current: Bar | null = null;
  for (const bar of bars) {
    const start = bucketStart(period, bar.time);
    if (current && current.time === start) {
      current.high = Math.max(current.high, bar.high);
      current.low = Math.min(current.low, bar.low);
      current.close = bar.close;
      current.volume = sumVolume(current.volume, bar.volume);
    } else {
      current = { ...bar, time: start };
      out.push(current);
    }
  }
  return out;
}

/** Merges a newer bar of the same bucket into an existing one (live updates). */
export function mergeBar(into: Bar, next: Bar): Bar {
  return {
    time: into.time,
    open: into.open,
    high: Math.max(into.high, next.high),
    low: Math.min(into.low, next.low),
    close: next.close,
    volume: sumVolume(into.volume, next.volume),
  };
}

/** True when the bar's high and low bound its open and close. */
export function isConsistentBar(bar: Bar): boolean {
  return (
    bar.low <= bar.high &&
    bar.low <= Math.min(bar.open, bar.close) &&
    bar.high >= Math.max(bar.open, bar.close) &&
    bar.volume >= 0
  );
}
