import { z } from 'zod';
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

/** Numbers per bar in `flatBarsFromHistorical`'s array: time, open, high, low, close, volume. */
export const FLAT_BAR_FIELDS = 6;

/**
 * `historical_data` as columns: the same bars as rows, each field one array (`Volume`
 * optional), all of one length. A large body's columns are about two thirds of its rows'
 * bytes and parse about twice as fast (no key per value). Values are checked by
 * `flatBarsFromHistorical`, as rows are.
 */
export const historicalColumnsSchema = z
  .object({
    Time: z.array(z.unknown()),
    Open: z.array(z.unknown()),
    High: z.array(z.unknown()),
    Low: z.array(z.unknown()),
    Close: z.array(z.unknown()),
    Volume: z.array(z.unknown()).optional(),
  })
  .strict();
export type HistoricalColumns = z.infer<typeof historicalColumnsSchema>;

/** A row of `historical_data` as a client writes it (checked by `flatBarsFromHistorical`). */
type HistoricalRow = {
  Time: unknown;
  Open: unknown;
  High: unknown;
  Low: unknown;
  Close: unknown;
  Volume?: unknown;
};

/** `rows` as `historical_data` columns: the same bars (a missing Volume as null, read as 0). */
export function historicalColumnsOf(rows: readonly HistoricalRow[]): HistoricalColumns {
  return {
    Time: rows.map((row) => row.Time),
    Open: rows.map((row) => row.Open),
    High: rows.map((row) => row.High),
    Low: rows.map((row) => row.Low),
    Close: rows.map((row) => row.Close),
    Volume: rows.map((row) => row.Volume ?? null),
  };
}

/** `historical_data`: rows (objects) or columns; its bars are checked by `flatBarsFromHistorical`. */
export type HistoricalData = readonly unknown[] | HistoricalColumns;

/** `historical_data` of a body (rows or columns), at most `max` bars when given. */
export function historicalDataSchema(max?: { bars: number; message: string }) {
  const rows = max ? z.array(z.unknown()).max(max.bars, max.message) : z.array(z.unknown());
  const columns = max
    ? historicalColumnsSchema.refine((data) => data.Time.length <= max.bars, max.message)
    : historicalColumnsSchema;
  return z.union([rows, columns]);
}

/** How many bars `data` holds (its rows, or its Time column). */
export function historicalLength(data: HistoricalData): number {
  return Array.isArray(data) ? data.length : (data as HistoricalColumns).Time.length;
}

/**
 * The bars of `historical_data`, checked row by row (by hand: 200,000 rows through a schema
 * library cost more than the backtest). Each row is `{ Time, Open, High, Low, Close,
 * Volume? }` as in `historicalBarSchema`; Time is read as UTC wall clock (see dates.ts).
 * Rows must be strictly ascending. The error names the row and the field.
 */
export function barsFromHistorical(
  rows: HistoricalData,
): { ok: true; bars: Bar[] } | { ok: false; error: string } {
  const read = flatBarsFromHistorical(rows);
  return read.ok ? { ok: true, bars: barsOfFlat(read.flat) } : read;
}

/** Bars from a flat array, FLAT_BAR_FIELDS numbers each (time, open, high, low, close, volume). */
export function barsOfFlat(flat: Float64Array): Bar[] {
  const bars = new Array<Bar>(flat.length / FLAT_BAR_FIELDS);
  for (let i = 0, j = 0; j < flat.length; i++, j += FLAT_BAR_FIELDS) {
    bars[i] = {
      time: flat[j] as number,
      open: flat[j + 1] as number,
      high: flat[j + 2] as number,
      low: flat[j + 3] as number,
      close: flat[j + 4] as number,
      volume: flat[j + 5] as number,
    };
  }
  return bars;
}

/**
 * `barsFromHistorical` into one array, FLAT_BAR_FIELDS numbers per bar, with the same checks
 * and errors: what a body worker hands back (transferred, no objects made for the bars).
 * Columns are checked as rows are, an error naming the column and the index.
 */
export function flatBarsFromHistorical(
  data: HistoricalData,
): { ok: true; flat: Float64Array } | { ok: false; error: string } {
  if (!Array.isArray(data)) return flatBarsFromColumns(data as HistoricalColumns);
  const rows = data as readonly unknown[];
  const bars = new FlatBars(
    rows.length,
    (i, field) => `historical_data[${i}]${field ? `.${field}` : ''}`,
  );
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      return bars.refuse(i, '', 'must be an object with Time, Open, High, Low, Close');
    }
    const r = row as Record<string, unknown>;
    const problem = bars.put(i, r.Time, r.Open, r.High, r.Low, r.Close, r.Volume);
    if (problem) return problem;
  }
  return { ok: true, flat: bars.flat };
}

const COLUMNS = ['Time', 'Open', 'High', 'Low', 'Close', 'Volume'] as const;

/** `flatBarsFromHistorical` of columns: equal lengths, then each bar's values as a row's. */
function flatBarsFromColumns(
  columns: HistoricalColumns,
): { ok: true; flat: Float64Array } | { ok: false; error: string } {
  const count = columns.Time.length;
  for (const name of COLUMNS) {
    const values = columns[name];
    if (values !== undefined && values.length !== count) {
      return {
        ok: false,
        error: `historical_data.${name}: has ${values.length} values where Time has ${count}`,
      };
    }
  }
  const { Time: times, Open: opens, High: highs, Low: lows, Close: closes } = columns;
  const volumes = columns.Volume;
  const bars = new FlatBars(count, (i, field) => `historical_data.${field}[${i}]`);
  for (let i = 0; i < count; i++) {
    const problem = bars.put(i, times[i], opens[i], highs[i], lows[i], closes[i], volumes?.[i]);
    if (problem) return problem;
  }
  return { ok: true, flat: bars.flat };
}

/**
 * Bars checked one at a time in order (rows or columns alike) into one flat array; an error
 * names where the bad value is with `where`, called only for an error (200,000 bars would
 * otherwise make as many strings).
 */
class FlatBars {
  readonly flat: Float64Array;
  private previous = Number.NEGATIVE_INFINITY;

  constructor(
    count: number,
    private readonly where: (i: number, field: string) => string,
  ) {
    this.flat = new Float64Array(count * FLAT_BAR_FIELDS);
  }

  refuse(i: number, field: string, problem: string): { ok: false; error: string } {
    return { ok: false, error: `${this.where(i, field)}: ${problem}` };
  }

  /** Bar `i` from its fields, or why it is refused (the first problem, in field order). */
  put(
    i: number,
    text: unknown,
    open: unknown,
    high: unknown,
    low: unknown,
    close: unknown,
    volume: unknown,
  ): { ok: false; error: string } | null {
    const time = typeof text === 'string' ? parseContractDate(text) : null;
    if (time === null) {
      return this.refuse(
        i,
        'Time',
        `must be a date like '2024/01/31 09:30:00', got ${describe(text)}`,
      );
    }
    if (!finite(open)) return this.refuse(i, 'Open', `must be a number, got ${describe(open)}`);
    if (!finite(high)) return this.refuse(i, 'High', `must be a number, got ${describe(high)}`);
    if (!finite(low)) return this.refuse(i, 'Low', `must be a number, got ${describe(low)}`);
    if (!finite(close)) return this.refuse(i, 'Close', `must be a number, got ${describe(close)}`);
    if (volume !== undefined && volume !== null && !finite(volume)) {
      return this.refuse(i, 'Volume', `must be a number, got ${describe(volume)}`);
    }
    if (time <= this.previous) {
      return this.refuse(
        i,
        'Time',
        `${String(text)} is not after the previous bar (bars must be in ascending time order, without duplicates)`,
      );
    }
    this.previous = time;
    const j = i * FLAT_BAR_FIELDS;
    this.flat[j] = time;
    this.flat[j + 1] = open;
    this.flat[j + 2] = high;
    this.flat[j + 3] = low;
    this.flat[j + 4] = close;
    this.flat[j + 5] = (volume as number | null | undefined) ?? 0;
    return null;
  }
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
 * The period whose length is nearest (on a log scale) to the median gap between bars (every
 * `stride`-th number of `times`: a flat array's times); null with fewer than two bars. Weekends and holidays do not move the median of daily bars.
 */
export function inferPeriod(times: ArrayLike<number>, stride = 1): Period | null {
  const count = Math.floor((times.length + stride - 1) / stride);
  if (count < 2) return null;
  // a typed array sorts numerically in native code (a comparator on 200,000 gaps cost more)
  const gaps = new Float64Array(count - 1);
  for (let i = 1; i < count; i++) {
    gaps[i - 1] = (times[i * stride] ?? 0) - (times[(i - 1) * stride] ?? 0);
  }
  gaps.sort();
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
