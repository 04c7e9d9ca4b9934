import type { UTCTimestamp } from 'lightweight-charts';

/** One point of the equity chart: the bar's time (UTC seconds) and the account value. */
export type EquityPoint = { time: UTCTimestamp; value: number };

const DATE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/**
 * The chart points of `performance.equity_curve` ([date, equity] with dates as
 * 'YYYY-MM-DD HH:MM:SS', the wall clock of the bars read in UTC, like the trade markers).
 * Unreadable dates and points not after the previous one are left out: the chart needs
 * strictly ascending times.
 */
export function equityPoints(curve: readonly (readonly [string, number])[]): EquityPoint[] {
  const points: EquityPoint[] = [];
  for (const [date, value] of curve) {
    const match = DATE.exec(date);
    if (!match || !Number.isFinite(value)) continue;
    const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
    const time = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) / 1000;
    const last = points.at(-1);
    if (last && time <= last.time) continue;
    points.push({ time: time as UTCTimestamp, value });
  }
  return points;
}
