import type { DrawingPoint, DrawingShape } from '../charts/drawings.ts';
import { mergeBar, type Bar } from '../market/bars.ts';
import {
  bucketStart,
  nextBucketStart,
  previousBucketStart,
  type Period,
} from '../market/periods.ts';

/*
 * What a replayed chart shows (docs/architecture.md, "Bar replay"): the bar forming after
 * the cursor in steps of a lower period, the bars another chart of the grid shows at the
 * same moment, and drawings cut at the cursor. Times are UTC ms; drawing points epoch s.
 */

/**
 * The lower period the forming bar of `period` replays in: the finest one that gives at
 * most 60 steps a bar (1m inside 1h, 5m inside 4h…); null for 1m.
 */
export const REPLAY_STEP_PERIOD: Readonly<Record<Period, Period | null>> = {
  '1m': null,
  '5m': '1m',
  '15m': '1m',
  '30m': '1m',
  '1h': '1m',
  '4h': '5m',
  day: '30m',
  week: '4h',
  month: 'day',
};

/**
 * The bar of `period` starting at `start` as it grows through the lower bars inside it: one
 * bar per lower bar, the k-th built from the first k + 1 (open of the first, highest high,
 * lowest low, close of the last, summed volume). Lower bars outside the bar are ignored;
 * empty when none is inside.
 */
export function formingBars(lower: readonly Bar[], period: Period, start: number): Bar[] {
  const end = nextBucketStart(period, start);
  const out: Bar[] = [];
  let current: Bar | null = null;
  for (const bar of lower) {
    if (bar.time < start || bar.time >= end) continue;
    current = current ? mergeBar(current, bar) : { ...bar, time: start };
    out.push(current);
  }
  return out;
}

/** The newest of the ascending bar `times` at or before `t` (a picked date's bar), or null. */
export function barAtOrBefore(times: readonly number[], t: number): number | null {
  let found: number | null = null;
  for (const time of times) {
    if (time > t) break;
    found = time;
  }
  return found;
}

/**
 * The newest bar of `period` that has closed at `moment` (UTC ms): another chart of a
 * synchronised replay shows bars up to this one, never a bar still forming then.
 */
export function lastClosedBarStart(period: Period, moment: number): number {
  return previousBucketStart(period, bucketStart(period, moment));
}

/** Price of the line from `a` to `b` at time `t` (straight in time). */
function priceAt(
  a: { time: number; price: number },
  b: { time: number; price: number },
  t: number,
) {
  if (b.time === a.time) return b.price;
  return a.price + ((b.price - a.price) * (t - a.time)) / (b.time - a.time);
}

/**
 * A drawing as a replay at `cursor` (epoch s, the last visible bar) shows it: nothing of it
 * after the cursor. A point after the cursor hides a horizontal or vertical line and a
 * Fibonacci retracement (its levels come from both points); a trend line is cut at the
 * cursor (its price there on the line), a rectangle's right side moves to the cursor. Null:
 * hidden. A drawing wholly at or before the cursor comes back as it is.
 */
export function drawingUpTo<T extends DrawingShape>(shape: T, cursor: number): T | null {
  const points: readonly DrawingPoint[] = shape.points;
  if (points.every((p) => p.time <= cursor)) return shape;
  if (points.every((p) => p.time > cursor)) return null;
  switch (shape.kind) {
    case 'trend': {
      const [a, b] = points as [DrawingPoint, DrawingPoint];
      const [early, late] = a.time <= b.time ? [a, b] : [b, a];
      const cut = { time: cursor, price: priceAt(early, late, cursor) };
      return { ...shape, points: a === early ? [a, cut] : [cut, b] };
    }
    case 'rectangle':
      return { ...shape, points: points.map((p) => ({ ...p, time: Math.min(p.time, cursor) })) };
    default:
      return null;
  }
}

/**
 * The bars a jump to the moment `at` (UTC ms) moves a replay's cursor: to the bar at or
 * before `at` among `times` (ascending bar starts), kept between the session's `start` and
 * its `lastBar`; negative goes back, 0 stays. Null when `at` is before every bar or the
 * cursor is not among `times`.
 */
export function replayJumpBars(
  times: readonly number[],
  input: { cursor: number; at: number; start: number; lastBar: number },
): number | null {
  const shown = times.filter((t) => t >= input.start && t <= input.lastBar);
  const landing = barAtOrBefore(shown, Math.max(input.at, input.start));
  const from = shown.indexOf(input.cursor);
  if (landing === null || from < 0) return null;
  return shown.indexOf(landing) - from;
}

/** A move of `bars` as step calls of at most `most` bars each, in order. */
export function stepChunks(bars: number, most: number): number[] {
  const chunks: number[] = [];
  let left = bars;
  while (left !== 0) {
    const chunk = Math.sign(left) * Math.min(Math.abs(left), most);
    chunks.push(chunk);
    left -= chunk;
  }
  return chunks;
}
