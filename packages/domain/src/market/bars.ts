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

/** A bar's direction for its volume colour: 1 when it closed at or above its open, else -1. */
export function barDirection(bar: Bar): 1 | -1 {
  return bar.close >= bar.open ? 1 : -1;
}

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

/**
 * The period of a bar series: the shortest gap between consecutive bars, rounded up to
 * the nearest period (weekend and session gaps are longer, so they do not count).
 */
export function detectResolution(bars: readonly Bar[]): Period {
  let gap = Number.POSITIVE_INFINITY;
  for (let i = 1; i < bars.length; i++) {
    gap = Math.min(gap, (bars[i]?.time ?? 0) - (bars[i - 1]?.time ?? 0));
  }
  const minute = 60_000;
  const steps: [number, Period][] = [
    [minute, '1m'],
    [5 * minute, '5m'],
    [15 * minute, '15m'],
    [30 * minute, '30m'],
    [60 * minute, '1h'],
    [240 * minute, '4h'],
    [1440 * minute, 'day'],
    [7 * 1440 * minute, 'week'],
  ];
  for (const [length, period] of steps) if (gap <= length) return period;
  return 'month';
}

const PERIOD_ORDER: readonly Period[] = [
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '4h',
  'day',
  'week',
  'month',
];

/** True when bars of `resolution` can be aggregated into bars of `period`. */
export function canAggregate(resolution: Period, period: Period): boolean {
  return PERIOD_ORDER.indexOf(period) >= PERIOD_ORDER.indexOf(resolution);
}
