import { nextBucketStart, previousBucketStart, type Period } from '@ct/domain';

/*
 * Drawings are anchored in time (epoch seconds) and price, not in bar indexes: they stay
 * where they were drawn when older history loads, and show at any period. The chart places
 * things by bar index ("logical"), so these two functions map between the two over the
 * chart's bars (times in epoch ms, ascending). Beyond the bars, time advances one bucket of
 * the period per bar.
 */

/** At most this many buckets are stepped beyond either end of the bars. */
const MAX_STEPS = 5000;

type Timed = { readonly time: number };

/**
 * The fractional bar index of `timeSec`: a bar's own index at its time, interpolated
 * between two bars (a point drawn at another period), extrapolated by the period's bucket
 * beyond the ends. Null without bars.
 */
export function logicalOfTime(
  bars: readonly Timed[],
  period: Period,
  timeSec: number,
): number | null {
  const n = bars.length;
  if (n === 0) return null;
  const t = timeSec * 1000;
  const first = bars[0]!.time;
  const last = bars[n - 1]!.time;
  if (t >= last) {
    let start = last;
    let k = 0;
    for (; k < MAX_STEPS && nextBucketStart(period, start) <= t; k++) {
      start = nextBucketStart(period, start);
    }
    return n - 1 + k + (t - start) / (nextBucketStart(period, start) - start);
  }
  if (t <= first) {
    let start = first;
    let k = 0;
    for (; k < MAX_STEPS && start > t; k++) start = previousBucketStart(period, start);
    return -k + (t - start) / (nextBucketStart(period, start) - start);
  }
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (bars[mid]!.time <= t) lo = mid;
    else hi = mid;
  }
  const a = bars[lo]!.time;
  const b = bars[hi]!.time;
  return lo + (t - a) / (b - a);
}

/**
 * The time (epoch seconds) of a whole bar index: the bar's time, or whole buckets of the
 * period beyond the ends (at most 5000). Null without bars.
 */
export function timeOfIndex(bars: readonly Timed[], period: Period, index: number): number | null {
  const n = bars.length;
  if (n === 0) return null;
  const i = Math.round(index);
  if (i >= 0 && i < n) return bars[i]!.time / 1000;
  if (i >= n) {
    let t = bars[n - 1]!.time;
    for (let k = n - 1; k < Math.min(i, n - 1 + MAX_STEPS); k++) t = nextBucketStart(period, t);
    return t / 1000;
  }
  let t = bars[0]!.time;
  for (let k = 0; k > Math.max(i, -MAX_STEPS); k--) t = previousBucketStart(period, t);
  return t / 1000;
}
