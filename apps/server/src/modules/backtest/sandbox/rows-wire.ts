import { setImmediate as nextTurn } from 'node:timers/promises';
import { formatContractDate, type Bar } from '@ct/domain';

/*
 * The rows of `data_array` on their way to the sandbox, in columns instead of JSON
 * (docs/architecture.md, "Large bodies off the event loop"): one JSON header line, then the columns' bytes,
 * decoded once by harness.py's `read_rows` into exactly the lists that json.loads of the rows
 * would give (same values, same Python types: a JSON number written without a fraction is an
 * int, any other a float). A column is
 * - `const`: every row holds the same value (symbol, period), carried in the header;
 * - `lines`: strings without a newline, joined by "\n", UTF-8 (dates);
 * - `i32`: whole numbers of the int32 range (Int32Array, little-endian as the host);
 * - `f64`: other finite numbers (Float64Array), then the Int32Array of the rows whose value is
 *   whole (Python turns those into ints, as json.loads does);
 * - `json`: anything else (a JSON array), so that nothing changes meaning on the way.
 * Rows of unequal length are sent as JSON (`rows` in the header).
 *
 * A run on one feed's bars (`encodeBarsJob`) makes the same columns straight from the bars,
 * without the rows: the contract dates as lines, symbol and period once, each bar field as
 * the numbers it holds; harness.py reads them as it reads any other job.
 */

export type WireColumn =
  | { kind: 'const'; value: string | number | boolean | null }
  | { kind: 'lines'; bytes: number }
  | { kind: 'i32'; bytes: number }
  | { kind: 'f64'; bytes: number; whole: number }
  | { kind: 'json'; bytes: number };

export type RowsWire = { count: number; bytes: number; columns: WireColumn[] };

type Cell = string | number | boolean | null;
type Row = readonly Cell[];

/** Rows looked at per turn of the event loop while encoding (a run may have 1,000,000). */
const ROWS_PER_TURN = 100_000;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
/** JSON writes whole numbers below this without a fraction or exponent (json.loads: int). */
const WHOLE_LIMIT = Number.MAX_SAFE_INTEGER;
const LONE_SURROGATE = /\p{Cs}/u;

/** Calls `each(from, to)` on blocks of rows, a turn of the event loop between blocks. */
async function inBlocks(n: number, each: (from: number, to: number) => void): Promise<void> {
  for (let from = 0; from < n; from += ROWS_PER_TURN) {
    if (from > 0) await nextTurn();
    each(from, Math.min(n, from + ROWS_PER_TURN));
  }
}

async function encodeColumn(
  n: number,
  valueAt: (i: number) => Cell,
): Promise<{ column: WireColumn; parts: Uint8Array[] }> {
  const first = valueAt(0);
  let constant = true;
  let strings = true;
  let numbers = true;
  let allInt32 = true;
  let wholeCount = 0;
  await inBlocks(n, (from, to) => {
    for (let i = from; i < to; i++) {
      const value = valueAt(i);
      if (value !== first) constant = false;
      if (typeof value === 'string') {
        numbers = false;
        if (value.includes('\n')) strings = false;
      } else if (typeof value === 'number') {
        strings = false;
        if (!Number.isFinite(value)) numbers = false;
        else if (Number.isInteger(value)) {
          // beyond 2^53 JSON's digits are not always the double's exact value: left to JSON
          if (Math.abs(value) > WHOLE_LIMIT) numbers = false;
          wholeCount += 1;
          if (value < INT32_MIN || value > INT32_MAX) allInt32 = false;
        } else allInt32 = false;
      } else {
        strings = false;
        numbers = false;
      }
    }
  });
  if (constant && (typeof first !== 'number' || Number.isFinite(first))) {
    return { column: { kind: 'const', value: first }, parts: [] };
  }
  if (strings) {
    const text = Array.from({ length: n }, (_, i) => valueAt(i) as string).join('\n');
    if (!LONE_SURROGATE.test(text)) {
      const bytes = Buffer.from(text, 'utf8');
      return { column: { kind: 'lines', bytes: bytes.length }, parts: [bytes] };
    }
  }
  if (numbers && allInt32) {
    const ints = new Int32Array(n);
    for (let i = 0; i < n; i++) ints[i] = valueAt(i) as number;
    return { column: { kind: 'i32', bytes: ints.byteLength }, parts: [bytesOf(ints)] };
  }
  if (numbers) {
    const values = new Float64Array(n);
    const whole = new Int32Array(wholeCount);
    let w = 0;
    await inBlocks(n, (from, to) => {
      for (let i = from; i < to; i++) {
        const value = valueAt(i) as number;
        values[i] = value;
        if (Number.isInteger(value)) whole[w++] = i;
      }
    });
    return {
      column: { kind: 'f64', bytes: values.byteLength + whole.byteLength, whole: wholeCount },
      parts: [bytesOf(values), bytesOf(whole)],
    };
  }
  const json = Buffer.from(JSON.stringify(Array.from({ length: n }, (_, i) => valueAt(i))), 'utf8');
  return { column: { kind: 'json', bytes: json.length }, parts: [json] };
}

function bytesOf(array: Int32Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * The job for harness.py: its header line (the job's other fields and `wire`, or `rows` as
 * JSON when the rows cannot go in columns) followed by the columns' bytes.
 */
export async function encodeJob(
  job: Record<string, unknown> & { rows: readonly Row[] },
): Promise<Buffer> {
  const { rows, ...rest } = job;
  const width = rows[0]?.length ?? 0;
  if (rows.some((row) => row.length !== width)) {
    return Buffer.from(`${JSON.stringify({ ...rest, rows })}\n`, 'utf8');
  }
  const sources: ((i: number) => Cell)[] = [];
  for (let at = 0; at < width; at++) sources.push((i) => (rows[i] as Row)[at] as Cell);
  return encodeColumns(rest, rows.length, sources);
}

/** A column already encoded (its header entry and bytes). */
type Encoded = { column: WireColumn; parts: Uint8Array[] };

/** A column's values, `valueAt(i)`, or the column already encoded. */
type ColumnSource = ((i: number) => Cell) | Encoded;

/** The header line and the columns' bytes of `n` rows whose column k is `sources[k]`. */
async function encodeColumns(
  rest: Record<string, unknown>,
  n: number,
  sources: readonly ColumnSource[],
): Promise<Buffer> {
  const columns: WireColumn[] = [];
  const parts: Uint8Array[] = [];
  if (n > 0) {
    for (const source of sources) {
      const encoded = typeof source === 'function' ? await encodeColumn(n, source) : source;
      columns.push(encoded.column);
      parts.push(...encoded.parts);
    }
  }
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  const wire: RowsWire = { count: n, bytes, columns };
  const header = Buffer.from(`${JSON.stringify({ ...rest, wire })}\n`, 'utf8');
  return Buffer.concat([header, ...parts]);
}

/** One feed's bars as the rows of `data_array` (`rowsOfBars` gives the same rows). */
export type BarsSource = { bars: readonly Bar[]; symbol: string; period: string };

/**
 * The row main() gets for a bar: date, code, period, open, high, low, close, volume. The
 * reference `encodeBarsJob` is held to (rows-wire.test.ts).
 */
export function rowOfBar(bar: Bar, symbol: string, period: string): (string | number)[] {
  return [
    formatContractDate(bar.time),
    symbol,
    period,
    bar.open,
    bar.high,
    bar.low,
    bar.close,
    bar.volume,
  ];
}

/**
 * `encodeJob` of the rows `rowOfBar` makes of `source`, made from the bars without building
 * the rows: the same header and bytes.
 */
export async function encodeBarsJob(
  job: Record<string, unknown>,
  source: BarsSource,
): Promise<Buffer> {
  const { bars, symbol, period } = source;
  const n = bars.length;
  if (n === 0) return encodeColumns(job, 0, []);
  const dates = await datesColumn(bars);
  // one list of columns: the dates' bytes when they could be written straight (a single
  // row's date is a `const` column, as `encodeColumn` makes it), else the dates as text
  const datesSource: ColumnSource =
    dates !== null && n > 1
      ? { column: { kind: 'lines', bytes: dates.length }, parts: [dates] }
      : (i) => formatContractDate((bars[i] as Bar).time);
  const fields: ColumnSource[] = [];
  for (const key of ['open', 'high', 'low', 'close', 'volume'] as const) {
    fields.push(await barField(bars, key));
  }
  return encodeColumns(job, n, [
    datesSource,
    { column: { kind: 'const', value: symbol }, parts: [] },
    { column: { kind: 'const', value: period }, parts: [] },
    ...fields,
  ]);
}

/**
 * One bar field's column as `encodeColumn` makes it, in one pass over the bars: the values
 * read into a Float64Array while it is seen whether they are all equal, all int32 or whole;
 * a field holding anything but finite numbers of JSON's exact range is left to `encodeColumn`.
 */
async function barField(
  bars: readonly Bar[],
  key: 'open' | 'high' | 'low' | 'close' | 'volume',
): Promise<ColumnSource> {
  const n = bars.length;
  const valueAt = (i: number): Cell => (bars[i] as Bar)[key];
  const values = new Float64Array(n);
  const first = (bars[0] as Bar)[key];
  let plain = true;
  let constant = true;
  let allInt32 = true;
  let wholeCount = 0;
  await inBlocks(n, (from, to) => {
    for (let i = from; i < to && plain; i++) {
      const value = (bars[i] as Bar)[key];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        plain = false;
        break;
      }
      values[i] = value;
      if (value !== first) constant = false;
      if (Number.isInteger(value)) {
        if (Math.abs(value) > WHOLE_LIMIT) plain = false;
        wholeCount += 1;
        if (value < INT32_MIN || value > INT32_MAX) allInt32 = false;
      } else allInt32 = false;
    }
  });
  if (!plain) return valueAt;
  if (constant) return { column: { kind: 'const', value: first }, parts: [] };
  if (allInt32) {
    const ints = Int32Array.from(values);
    return { column: { kind: 'i32', bytes: ints.byteLength }, parts: [bytesOf(ints)] };
  }
  const whole = new Int32Array(wholeCount);
  for (let i = 0, w = 0; w < wholeCount; i++) {
    if (Number.isInteger(values[i])) whole[w++] = i;
  }
  return {
    column: { kind: 'f64', bytes: values.byteLength + whole.byteLength, whole: wholeCount },
    parts: [bytesOf(values), bytesOf(whole)],
  };
}

/** A run's job as harness.py reads it: its rows (`encodeJob`) or one feed's bars. */
export function encodeRunJob(
  job:
    | { code: string; filename: string; rows: readonly Row[] }
    | { code: string; filename: string; bars: BarsSource },
): Promise<Buffer> {
  if ('bars' in job) return encodeBarsJob({ code: job.code, filename: job.filename }, job.bars);
  return encodeJob(job);
}

/**
 * The dates column's bytes ('YYYY-MM-DD HH:MM:SS' lines, `formatContractDate`) written
 * straight into one buffer, or null when a date is not of that form (a year beyond 0–9999).
 */
async function datesColumn(bars: readonly Bar[]): Promise<Buffer | null> {
  const n = bars.length;
  const out = Buffer.allocUnsafe(Math.max(0, n * 20 - 1));
  let day = Number.NaN;
  let dayBytes = Buffer.alloc(11);
  let fits = true;
  await inBlocks(n, (from, to) => {
    for (let i = from; i < to && fits; i++) {
      const ms = (bars[i] as Bar).time;
      const dayStart = Math.floor(ms / 86_400_000) * 86_400_000;
      if (dayStart !== day) {
        day = dayStart;
        const text = formatContractDate(dayStart).slice(0, 11);
        if (text.length !== 11 || !/^\d{4}-\d\d-\d\d $/.test(text)) fits = false;
        dayBytes = Buffer.from(text, 'latin1');
      }
      const at = i * 20;
      dayBytes.copy(out, at);
      const seconds = Math.floor((ms - dayStart) / 1000);
      const h = Math.floor(seconds / 3600);
      const m = Math.floor(seconds / 60) % 60;
      const sec = seconds % 60;
      out[at + 11] = 48 + Math.floor(h / 10);
      out[at + 12] = 48 + (h % 10);
      out[at + 13] = 58; // ':'
      out[at + 14] = 48 + Math.floor(m / 10);
      out[at + 15] = 48 + (m % 10);
      out[at + 16] = 58;
      out[at + 17] = 48 + Math.floor(sec / 10);
      out[at + 18] = 48 + (sec % 10);
      if (i < n - 1) out[at + 19] = 10; // '\n'
    }
  });
  return fits ? out : null;
}
