import { setImmediate as nextTurn } from 'node:timers/promises';

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
  rows: readonly Row[],
  at: number,
): Promise<{ column: WireColumn; parts: Uint8Array[] }> {
  const n = rows.length;
  const first = (rows[0] as Row)[at] as Cell;
  let constant = true;
  let strings = true;
  let numbers = true;
  let allInt32 = true;
  let wholeCount = 0;
  await inBlocks(n, (from, to) => {
    for (let i = from; i < to; i++) {
      const value = (rows[i] as Row)[at] as Cell;
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
    const text = rows.map((row) => row[at] as string).join('\n');
    if (!LONE_SURROGATE.test(text)) {
      const bytes = Buffer.from(text, 'utf8');
      return { column: { kind: 'lines', bytes: bytes.length }, parts: [bytes] };
    }
  }
  if (numbers && allInt32) {
    const ints = new Int32Array(n);
    for (let i = 0; i < n; i++) ints[i] = (rows[i] as Row)[at] as number;
    return { column: { kind: 'i32', bytes: ints.byteLength }, parts: [bytesOf(ints)] };
  }
  if (numbers) {
    const values = new Float64Array(n);
    const whole = new Int32Array(wholeCount);
    let w = 0;
    await inBlocks(n, (from, to) => {
      for (let i = from; i < to; i++) {
        const value = (rows[i] as Row)[at] as number;
        values[i] = value;
        if (Number.isInteger(value)) whole[w++] = i;
      }
    });
    return {
      column: { kind: 'f64', bytes: values.byteLength + whole.byteLength, whole: wholeCount },
      parts: [bytesOf(values), bytesOf(whole)],
    };
  }
  const json = Buffer.from(JSON.stringify(rows.map((row) => row[at])), 'utf8');
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
  const columns: WireColumn[] = [];
  const parts: Uint8Array[] = [];
  if (rows.length > 0) {
    for (let at = 0; at < width; at++) {
      const encoded = await encodeColumn(rows, at);
      columns.push(encoded.column);
      parts.push(...encoded.parts);
    }
  }
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  const wire: RowsWire = { count: rows.length, bytes, columns };
  const header = Buffer.from(`${JSON.stringify({ ...rest, wire })}\n`, 'utf8');
  return Buffer.concat([header, ...parts]);
}
