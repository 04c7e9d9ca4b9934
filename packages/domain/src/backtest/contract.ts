import { formatContractDate, parseContractDate } from './dates.ts';

/** Most trade records one run may return. */
export const MAX_TRADE_RECORDS = 100_000;

/** `status` of a record: 'YES' closed, 'NOT' still open at the end of the data. */
export type TradeStatus = 'YES' | 'NOT';

/** A returned record that passed the contract, placed on the run's bars. */
export type ValidTrade = {
  /** Index of the bar the trade opened in (the last bar starting at or before open_date). */
  openIndex: number;
  /** Index of the closing bar; null while open. */
  closeIndex: number | null;
  openTime: number;
  closeTime: number | null;
  openPrice: number;
  /** null while open (the metrics value it at the last close). */
  closePrice: number | null;
  /** Positive buy (long), negative sell (short); never zero. */
  lots: number;
  status: TradeStatus;
};

export type ContractResult =
  | { ok: true; trades: ValidTrade[] }
  | { ok: false; error: string; index: number | null; field: string | null };

// The harness turns values JSON cannot carry into these markers (sandbox/harness.py).
type TypeMarker = { $type: string };
type NonFiniteMarker = { $nonfinite: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTypeMarker(value: unknown): value is TypeMarker {
  return isObject(value) && typeof value.$type === 'string' && Object.keys(value).length === 1;
}

function isNonFiniteMarker(value: unknown): value is NonFiniteMarker {
  return isObject(value) && typeof value.$nonfinite === 'string' && Object.keys(value).length === 1;
}

/** A returned value as a Python author would recognise it, for error messages. */
export function describePythonValue(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `'${shown}'`;
  }
  if (Array.isArray(value)) return 'a list';
  if (isTypeMarker(value)) return `a value of type ${value.$type}`;
  if (isNonFiniteMarker(value)) return value.$nonfinite;
  return 'a dict';
}

class ContractViolation extends Error {
  constructor(
    message: string,
    readonly index: number | null,
    readonly field: string | null,
  ) {
    super(message);
  }
}

const STATUS_HELP = "'YES' (closed) or 'NOT' (still open)";

/**
 * Checks what `main(data_array)` returned against the strategy contract and places each
 * trade on the bars (`barTimes`: ascending bar starts, UTC ms). The first violation wins;
 * its message names the record (0-based, as in Python) and the field.
 */
export function validateTradeRecords(value: unknown, barTimes: readonly number[]): ContractResult {
  try {
    return { ok: true, trades: checkRecords(value, barTimes) };
  } catch (error) {
    if (error instanceof ContractViolation) {
      return { ok: false, error: error.message, index: error.index, field: error.field };
    }
    throw error;
  }
}

function checkRecords(value: unknown, barTimes: readonly number[]): ValidTrade[] {
  if (!Array.isArray(value)) {
    throw new ContractViolation(
      `main() must return a list of trade records (dicts), got ${describePythonValue(value)}`,
      null,
      null,
    );
  }
  if (value.length > MAX_TRADE_RECORDS) {
    throw new ContractViolation(
      `main() returned ${value.length} trade records; at most ${MAX_TRADE_RECORDS} are allowed`,
      null,
      null,
    );
  }
  const first = barTimes[0];
  const last = barTimes.at(-1);
  if (value.length > 0 && (first === undefined || last === undefined)) {
    throw new ContractViolation('main() returned trades, but there are no bars', null, null);
  }
  // A date may fall inside the last bar (e.g. a time-of-day on the last day): allow one
  // more bar length after the last start.
  const lastGap = barTimes.length > 1 ? (last ?? 0) - (barTimes.at(-2) ?? 0) : 86_400_000;
  const range = { first: first ?? 0, last: last ?? 0, end: (last ?? 0) + lastGap };
  return value.map((record: unknown, index) => checkRecord(record, index, barTimes, range));
}

function checkRecord(
  record: unknown,
  index: number,
  barTimes: readonly number[],
  range: { first: number; last: number; end: number },
): ValidTrade {
  const at = `records[${index}]`;
  if (!isObject(record) || isTypeMarker(record) || isNonFiniteMarker(record)) {
    throw new ContractViolation(
      `${at} must be a dict with open_date, close_date, open_price, close_price, lots, status; got ${describePythonValue(record)}`,
      index,
      null,
    );
  }
  const need = (field: string): unknown => {
    if (!(field in record)) {
      throw new ContractViolation(`${at} is missing '${field}'`, index, field);
    }
    return record[field];
  };

  const status = need('status');
  if (status !== 'YES' && status !== 'NOT') {
    throw new ContractViolation(
      `${at}.status must be ${STATUS_HELP}, got ${describePythonValue(status)}`,
      index,
      'status',
    );
  }
  const openTime = checkDate(need('open_date'), at, index, 'open_date', range);
  const openPrice = checkPrice(need('open_price'), at, index, 'open_price');
  const lots = need('lots');
  if (typeof lots !== 'number' || !Number.isFinite(lots) || lots === 0) {
    throw new ContractViolation(
      `${at}.lots must be a non-zero number (positive buy, negative sell), got ${describePythonValue(lots)}`,
      index,
      'lots',
    );
  }
  const openIndex = barIndexAt(barTimes, openTime);

  if (status === 'NOT') {
    return {
      openIndex,
      closeIndex: null,
      openTime,
      closeTime: null,
      openPrice,
      closePrice: null,
      lots,
      status,
    };
  }
  const closeTime = checkDate(need('close_date'), at, index, 'close_date', range);
  const closePrice = checkPrice(need('close_price'), at, index, 'close_price');
  if (closeTime < openTime) {
    throw new ContractViolation(
      `${at}.close_date ${formatContractDate(closeTime)} is before its open_date ${formatContractDate(openTime)}`,
      index,
      'close_date',
    );
  }
  return {
    openIndex,
    closeIndex: barIndexAt(barTimes, closeTime),
    openTime,
    closeTime,
    openPrice,
    closePrice,
    lots,
    status,
  };
}

function checkDate(
  value: unknown,
  at: string,
  index: number,
  field: string,
  range: { first: number; last: number; end: number },
): number {
  const ms = typeof value === 'string' ? parseContractDate(value) : null;
  if (ms === null) {
    throw new ContractViolation(
      `${at}.${field} must be a date text like '2024-01-31 00:00:00' (the row's date), got ${describePythonValue(value)}`,
      index,
      field,
    );
  }
  if (ms < range.first || ms >= range.end) {
    throw new ContractViolation(
      `${at}.${field} ${formatContractDate(ms)} is outside the data (${formatContractDate(range.first)} to ${formatContractDate(range.last)})`,
      index,
      field,
    );
  }
  return ms;
}

function checkPrice(value: unknown, at: string, index: number, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ContractViolation(
      `${at}.${field} must be a positive number, got ${describePythonValue(value)}`,
      index,
      field,
    );
  }
  return value;
}

/** Index of the last bar starting at or before `time` (binary search; `time` ≥ first bar). */
export function barIndexAt(barTimes: readonly number[], time: number): number {
  let lo = 0;
  let hi = barTimes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((barTimes[mid] ?? Number.POSITIVE_INFINITY) <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
