import type { Bar } from './bars.ts';

/** Where a CSV file is at fault: 1-based row (line) and column, and what is wrong. */
export type CsvError = { row: number; column: number; message: string };

export type CsvParseResult = { ok: true; bars: Bar[] } | { ok: false; error: CsvError };

/** Most rows a single import may hold. */
export const CSV_MAX_ROWS = 500_000;

const HEADER_NAMES: Record<
  string,
  'time' | 'date' | 'clock' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'skip'
> = {
  '': 'time',
  time: 'time',
  datetime: 'time',
  timestamp: 'time',
  'date time': 'time',
  date: 'date',
  day: 'date',
  hour: 'clock',
  clock: 'clock',
  open: 'open',
  o: 'open',
  high: 'high',
  h: 'high',
  low: 'low',
  l: 'low',
  close: 'close',
  c: 'close',
  last: 'close',
  price: 'close',
  volume: 'volume',
  vol: 'volume',
  v: 'volume',
  'tick volume': 'volume',
  tickvol: 'volume',
  'adj close': 'skip',
  adj_close: 'skip',
  'adj. close': 'skip',
  spread: 'skip',
  'real volume': 'skip',
  vol_real: 'skip',
  openinterest: 'skip',
  'open interest': 'skip',
};

type Layout = {
  time: number; // column index of the date or date-time
  clock: number | null; // separate time-of-day column (MetaTrader exports)
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
  hasHeader: boolean;
};

function detectDelimiter(line: string): string {
  const counts = [',', ';', '\t', '|'].map((d) => [d, line.split(d).length] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]?.[0] ?? ',';
}

function splitLine(line: string, delimiter: string): string[] {
  return line.split(delimiter).map((cell) =>
    cell
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim(),
  );
}

/** Parses a date or date-time cell as UTC ms; null when it is not a time. */
export function parseCsvTime(text: string, clock?: string): number | null {
  const value = clock ? `${text} ${clock}` : text;
  if (/^\d{9,13}(\.\d+)?$/.test(value)) {
    const n = Number(value);
    return value.split('.')[0]!.length >= 12 ? Math.round(n) : Math.round(n * 1000);
  }
  const m =
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      value,
    );
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  let t = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  if (new Date(t).getUTCDate() !== day) return null; // 2021-02-30 and the like
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return t;
}

function layoutFromHeader(cells: string[]): Layout | CsvError {
  const roles = cells.map((cell) => HEADER_NAMES[cell.toLowerCase()]);
  const find = (role: string) => roles.indexOf(role as never);
  const unknown = roles.findIndex((r) => r === undefined);
  if (unknown >= 0) {
    return { row: 1, column: unknown + 1, message: `Unknown column '${cells[unknown]}'` };
  }
  const time = find('time') >= 0 ? find('time') : find('date');
  const missing = (['open', 'high', 'low', 'close'] as const).find((r) => find(r) < 0);
  if (time < 0) return { row: 1, column: 1, message: 'No date or time column' };
  if (missing) return { row: 1, column: cells.length, message: `No ${missing} column` };
  const clock = find('time') >= 0 && find('date') >= 0 ? find('time') : find('clock');
  return {
    time: find('time') >= 0 && find('date') >= 0 ? find('date') : time,
    clock: clock >= 0 ? clock : null,
    open: find('open'),
    high: find('high'),
    low: find('low'),
    close: find('close'),
    volume: find('volume') >= 0 ? find('volume') : null,
    hasHeader: true,
  };
}

/** A file without a header: date[,time],open,high,low,close[,volume…] (MetaTrader style). */
function layoutWithoutHeader(cells: string[]): Layout | CsvError {
  const clockFirst = cells.length >= 6 && /^\d{1,2}:\d{2}(:\d{2})?$/.test(cells[1] ?? '');
  const offset = clockFirst ? 2 : 1;
  if (cells.length < offset + 4) {
    return {
      row: 1,
      column: cells.length,
      message: 'Expected date, open, high, low and close columns',
    };
  }
  return {
    time: 0,
    clock: clockFirst ? 1 : null,
    open: offset,
    high: offset + 1,
    low: offset + 2,
    close: offset + 3,
    volume: cells.length > offset + 4 ? offset + 4 : null,
    hasHeader: false,
  };
}

/**
 * Parses an OHLCV CSV: the backtesting.py layout (unnamed date index, Open, High, Low,
 * Close, Volume), Yahoo (Date … Adj Close, Volume), TradingView (time in unix seconds),
 * MetaTrader (separate date and time columns, with or without a header), with `,`, `;`,
 * tab or `|` delimiters. Rows may be ascending or descending; the result is ascending.
 * The first fault stops the parse and names its row and column; nothing partial is returned.
 */
export function parseOhlcvCsv(text: string): CsvParseResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  const firstLine = lines[0];
  if (firstLine === undefined || firstLine.trim() === '') {
    return { ok: false, error: { row: 1, column: 1, message: 'The file is empty' } };
  }
  const delimiter = detectDelimiter(firstLine);
  const firstCells = splitLine(firstLine, delimiter);
  const looksLikeData = parseCsvTime(firstCells[0] ?? '', undefined) !== null;
  const layout = looksLikeData ? layoutWithoutHeader(firstCells) : layoutFromHeader(firstCells);
  if ('message' in layout) return { ok: false, error: layout };
  const width = firstCells.length;
  const start = layout.hasHeader ? 1 : 0;
  if (lines.length - start > CSV_MAX_ROWS) {
    return {
      ok: false,
      error: {
        row: CSV_MAX_ROWS + start + 1,
        column: 1,
        message: `More than ${CSV_MAX_ROWS} rows`,
      },
    };
  }
  const bars: Bar[] = [];
  for (let i = start; i < lines.length; i++) {
    const row = i + 1;
    const line = lines[i] ?? '';
    if (line.trim() === '') return { ok: false, error: { row, column: 1, message: 'Empty row' } };
    const cells = splitLine(line, delimiter);
    if (cells.length !== width) {
      return {
        ok: false,
        error: {
          row,
          column: Math.min(cells.length, width) + 1,
          message: `Expected ${width} columns, found ${cells.length}`,
        },
      };
    }
    const time = parseCsvTime(
      cells[layout.time] ?? '',
      layout.clock === null ? undefined : cells[layout.clock],
    );
    if (time === null) {
      return {
        ok: false,
        error: {
          row,
          column: layout.time + 1,
          message: `Not a date or time: '${cells[layout.time]}'`,
        },
      };
    }
    const numbers: Record<'open' | 'high' | 'low' | 'close' | 'volume', number> = {
      open: 0,
      high: 0,
      low: 0,
      close: 0,
      volume: 0,
    };
    for (const field of ['open', 'high', 'low', 'close', 'volume'] as const) {
      const column = layout[field];
      if (column === null) continue;
      const cell = cells[column] ?? '';
      const value = cell === '' && field === 'volume' ? 0 : Number(cell);
      if (cell === '' && field !== 'volume') {
        return { ok: false, error: { row, column: column + 1, message: `Missing ${field}` } };
      }
      if (!Number.isFinite(value)) {
        return {
          ok: false,
          error: { row, column: column + 1, message: `Not a number: '${cell}'` },
        };
      }
      if (field === 'volume' ? value < 0 : value <= 0) {
        return {
          ok: false,
          error: {
            row,
            column: column + 1,
            message: `${field} must be ${field === 'volume' ? 'zero or more' : 'positive'}`,
          },
        };
      }
      numbers[field] = value;
    }
    const { open, high, low, close, volume } = numbers;
    if (high < Math.max(open, close, low)) {
      return {
        ok: false,
        error: { row, column: layout.high + 1, message: 'High is below open, low or close' },
      };
    }
    if (low > Math.min(open, close)) {
      return {
        ok: false,
        error: { row, column: layout.low + 1, message: 'Low is above open or close' },
      };
    }
    bars.push({ time, open, high, low, close, volume });
  }
  if (bars.length === 0)
    return { ok: false, error: { row: 2, column: 1, message: 'No data rows' } };
  const descending = bars.length > 1 && (bars[1]?.time ?? 0) < (bars[0]?.time ?? 0);
  for (let i = 1; i < bars.length; i++) {
    const prev = bars[i - 1]?.time ?? 0;
    const cur = bars[i]?.time ?? 0;
    if (descending ? cur >= prev : cur <= prev) {
      return {
        ok: false,
        error: {
          row: i + start + 1,
          column: layout.time + 1,
          message: cur === prev ? 'Duplicate time' : 'Rows are not in time order',
        },
      };
    }
  }
  if (descending) bars.reverse();
  return { ok: true, bars };
}
