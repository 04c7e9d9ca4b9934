import type { Bar } from '../market/bars.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, type Period } from '../market/periods.ts';
import { parseContractDate } from './dates.ts';

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `'${value.slice(0, 40)}'`;
  return JSON.stringify(value)?.slice(0, 40) ?? String(value);
}

/**
 * The bars of `historical_data`, checked row by row (by hand: 200,000 rows through a schema
 * library cost more than the backtest). Each row is `{ Time, Open, High, Low, Close,
 * Volume? }` as in `historicalBarSchema`; Time is read as UTC wall clock (see dates.ts).
 * Rows must be strictly ascending. The error names the row and the field.
 */
export function barsFromHistorical(
  rows: readonly unknown[],
): { ok: true; bars: Bar[] } | { ok: false; error: string } {
  const bars: Bar[] = new Array(rows.length);
  let previous = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const at = `historical_data[${i}]`;
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      return { ok: false, error: `${at}: must be an object with Time, Open, High, Low, Close` };
    }
    const r = row as Record<string, unknown>;
    const time = typeof r.Time === 'string' ? parseContractDate(r.Time) : null;
    if (time === null) {
      return {
        ok: false,
        error: `${at}.Time: must be a date like '2024/01/31 09:30:00', got ${describe(r.Time)}`,
      };
    }
    for (const field of ['Open', 'High', 'Low', 'Close'] as const) {
      if (!finite(r[field])) {
        return { ok: false, error: `${at}.${field}: must be a number, got ${describe(r[field])}` };
      }
    }
    if (r.Volume !== undefined && r.Volume !== null && !finite(r.Volume)) {
      return { ok: false, error: `${at}.Volume: must be a number, got ${describe(r.Volume)}` };
    }
    if (time <= previous) {
      return {
        ok: false,
        error: `${at}.Time: ${String(r.Time)} is not after the previous bar (bars must be in ascending time order, without duplicates)`,
      };
    }
    previous = time;
    bars[i] = {
      time,
      open: r.Open as number,
      high: r.High as number,
      low: r.Low as number,
      close: r.Close as number,
      volume: (r.Volume as number | null | undefined) ?? 0,
    };
  }
  return { ok: true, bars };
}

const TYPICAL_GAPS: readonly [Period, number][] = [
  ['1m', MINUTE_MS],
  ['5m', 5 * MINUTE_MS],
  ['15m', 15 * MINUTE_MS],
  ['30m', 30 * MINUTE_MS],
  ['1h', HOUR_MS],
  ['4h', 4 * HOUR_MS],
  ['day', DAY_MS],
  ['week', 7 * DAY_MS],
  ['month', 30 * DAY_MS],
];

/**
 * The period whose length is nearest (on a log scale) to the median gap between bars;
 * null with fewer than two bars. Weekends and holidays do not move the median of daily bars.
 */
export function inferPeriod(times: readonly number[]): Period | null {
  if (times.length < 2) return null;
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) gaps.push((times[i] ?? 0) - (times[i - 1] ?? 0));
  gaps.sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
  if (!(median > 0)) return null;
  let best: Period | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [period, length] of TYPICAL_GAPS) {
    const distance = Math.abs(Math.log(median / length));
    if (distance < bestDistance) {
      bestDistance = distance;
      best = period;
    }
  }
  return best;
}
