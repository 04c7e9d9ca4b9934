import { PERCENT_DECIMALS, roundTo } from '../market/price.ts';
import type { DrawingPoint } from './drawings.ts';

/** The ratios of a Fibonacci retracement, from its second point (0) to its first (1). */
export const FIBONACCI_RATIOS = [0, 0.236, 0.382, 0.5, 0.618, 0.786, 1] as const;

/**
 * The levels of a retracement drawn from `from` to `to`: level 0 at `to`'s price, 1 at
 * `from`'s, ratio r at `to + (from - to) × r` (the move from `from` to `to` retraced by r).
 * Prices are not rounded; equal prices give every level at that price.
 */
export function fibonacciLevels(
  from: DrawingPoint,
  to: DrawingPoint,
): { ratio: number; price: number }[] {
  return FIBONACCI_RATIOS.map((ratio) => ({
    ratio,
    price: to.price + (from.price - to.price) * ratio,
  }));
}

/** What the measuring tool shows for a span from A to B. */
export type Measurement = {
  /** B's price minus A's price. */
  priceDistance: number;
  /** The price distance in percent of A's price (4 decimals); null when A's price is 0. */
  percent: number | null;
  /** Bars from A to B (negative when B is left of A). */
  bars: number;
  /** Seconds from A to B (negative when B is before A). */
  seconds: number;
};

/**
 * Measures from `a` to `b`. `bars` is the bar count between them on the chart (the
 * difference of their bar indexes), which the caller knows from the chart's bars.
 */
export function measureSpan(a: DrawingPoint, b: DrawingPoint, bars: number): Measurement {
  const priceDistance = b.price - a.price;
  return {
    priceDistance,
    percent:
      a.price === 0 ? null : roundTo((priceDistance / Math.abs(a.price)) * 100, PERCENT_DECIMALS),
    bars: Math.round(bars),
    seconds: b.time - a.time,
  };
}

const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
] as const;

/**
 * A time span for the measuring tool: its largest unit of days, hours and minutes, with
 * the next smaller unit when that is not zero ('3d 4h', '3d', '2h 15m', '45m'; seconds
 * beyond whole minutes are dropped); seconds only under a minute ('30s'); the sign is
 * ignored; '0m' for zero.
 */
export function formatDuration(seconds: number): string {
  let rest = Math.round(Math.abs(seconds));
  if (rest === 0) return '0m';
  if (rest < 60) return `${rest}s`;
  const counts = UNITS.map(([unit, size]) => {
    const count = Math.floor(rest / size);
    rest -= count * size;
    return { unit, count };
  });
  const first = counts.findIndex((c) => c.count > 0);
  const shown = counts.slice(first, first + 2).filter((c, i) => i === 0 || c.count > 0);
  return shown.map((c) => `${c.count}${c.unit}`).join(' ');
}
