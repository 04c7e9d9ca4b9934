import { describe, expect, it } from 'vitest';
import { MAX_TRADE_RECORDS, barIndexAt, validateTradeRecords } from './contract.ts';
import { parseContractDate } from './dates.ts';

const day = (d: number) => Date.UTC(2024, 0, d);
const TIMES = [day(1), day(2), day(3), day(4), day(5)];

const closed = {
  open_date: '2024-01-01 00:00:00',
  close_date: '2024-01-03 00:00:00',
  open_price: 100,
  close_price: 101,
  lots: 2,
  status: 'YES',
};

function errorOf(value: unknown): string {
  const result = validateTradeRecords(value, TIMES);
  if (result.ok) throw new Error('expected a contract violation');
  return result.error;
}

describe('validateTradeRecords', () => {
  it('accepts closed and open trades and places them on bars', () => {
    const result = validateTradeRecords(
      [
        closed,
        {
          open_date: '2024/01/04',
          close_date: null,
          open_price: 105,
          close_price: null,
          lots: -1,
          status: 'NOT',
        },
        // an open trade may leave the close fields out entirely
        { open_date: '2024-01-05T00:00:00', open_price: 1.5, lots: 0.01, status: 'NOT' },
      ],
      TIMES,
    );
    expect(result).toEqual({
      ok: true,
      trades: [
        {
          openIndex: 0,
          closeIndex: 2,
          openTime: day(1),
          closeTime: day(3),
          openPrice: 100,
          closePrice: 101,
          lots: 2,
          status: 'YES',
        },
        {
          openIndex: 3,
          closeIndex: null,
          openTime: day(4),
          closeTime: null,
          openPrice: 105,
          closePrice: null,
          lots: -1,
          status: 'NOT',
        },
        {
          openIndex: 4,
          closeIndex: null,
          openTime: day(5),
          closeTime: null,
          openPrice: 1.5,
          closePrice: null,
          lots: 0.01,
          status: 'NOT',
        },
      ],
    });
  });

  it('accepts no trades', () => {
    expect(validateTradeRecords([], TIMES)).toEqual({ ok: true, trades: [] });
    expect(validateTradeRecords([], [])).toEqual({ ok: true, trades: [] });
  });

  it('places a time inside a bar on that bar', () => {
    const result = validateTradeRecords(
      [{ ...closed, open_date: '2024-01-02 15:30', close_date: '2024-01-05 23:59:59' }],
      TIMES,
    );
    expect(result.ok && result.trades[0]).toMatchObject({ openIndex: 1, closeIndex: 4 });
  });

  it.each([
    [null, 'main() must return a list of trade records (dicts), got None'],
    [{ a: 1 }, 'main() must return a list of trade records (dicts), got a dict'],
    [{ $type: 'generator' }, 'got a value of type generator'],
    [[closed, 5], 'records[1] must be a dict with open_date'],
    [
      [{ $type: 'tuple' }],
      'records[0] must be a dict with open_date, close_date, open_price, close_price, lots, status; got a value of type tuple',
    ],
    [[{ ...closed, status: undefined }], "records[0] is missing 'status'"],
    [
      [{ ...closed, status: 'yes' }],
      "records[0].status must be 'YES' (closed) or 'NOT' (still open), got 'yes'",
    ],
    [
      [{ ...closed, lots: 0 }],
      'records[0].lots must be a non-zero number (positive buy, negative sell), got 0',
    ],
    [
      [{ ...closed, lots: '1' }],
      "records[0].lots must be a non-zero number (positive buy, negative sell), got '1'",
    ],
    [[{ ...closed, lots: true }], 'got True'],
    [
      [{ ...closed, lots: { $nonfinite: 'nan' } }],
      'records[0].lots must be a non-zero number (positive buy, negative sell), got nan',
    ],
    [[{ ...closed, open_price: -1 }], 'records[0].open_price must be a positive number, got -1'],
    [
      [{ ...closed, close_price: { $type: 'Decimal' } }],
      'records[0].close_price must be a positive number, got a value of type Decimal',
    ],
    [
      [{ ...closed, open_date: 20240101 }],
      "records[0].open_date must be a date text like '2024-01-31 00:00:00' (the row's date), got 20240101",
    ],
    [[{ ...closed, open_date: '2024-02-30' }], 'records[0].open_date must be a date text'],
    [
      [{ ...closed, open_date: '2023-12-31' }],
      'records[0].open_date 2023-12-31 00:00:00 is outside the data (2024-01-01 00:00:00 to 2024-01-05 00:00:00)',
    ],
    [
      [{ ...closed, close_date: '2024-01-07' }],
      'records[0].close_date 2024-01-07 00:00:00 is outside the data',
    ],
    [
      [{ ...closed, close_date: '2024-01-01', open_date: '2024-01-02' }],
      'records[0].close_date 2024-01-01 00:00:00 is before its open_date 2024-01-02 00:00:00',
    ],
    [[closed, { ...closed, close_date: undefined }], "records[1] is missing 'close_date'"],
    [[closed, { ...closed, close_date: null }], 'records[1].close_date must be a date text'],
  ])('names the record and the field: %j', (value, message) => {
    // a JSON round trip drops undefined fields, as the harness's JSON would
    expect(errorOf(JSON.parse(JSON.stringify(value)))).toContain(message);
  });

  it('reports index and field', () => {
    const result = validateTradeRecords([closed, closed, { ...closed, lots: 0 }], TIMES);
    expect(result).toMatchObject({ ok: false, index: 2, field: 'lots' });
  });

  it('refuses more records than the limit', () => {
    const many = new Array<unknown>(MAX_TRADE_RECORDS + 1).fill(closed);
    expect(errorOf(many)).toBe(
      `main() returned ${MAX_TRADE_RECORDS + 1} trade records; at most ${MAX_TRADE_RECORDS} are allowed`,
    );
  });

  it('refuses trades without bars', () => {
    expect(validateTradeRecords([closed], [])).toMatchObject({
      ok: false,
      error: 'main() returned trades, but there are no bars',
    });
  });
});

describe('contract dates', () => {
  it.each([
    ['2024-01-31 09:30:00', Date.UTC(2024, 0, 31, 9, 30)],
    ['2024/01/31 09:30:05', Date.UTC(2024, 0, 31, 9, 30, 5)],
    ['2024-1-3', Date.UTC(2024, 0, 3)],
    ['2024-01-31T09:30:00.000000000', Date.UTC(2024, 0, 31, 9, 30)],
    ['2024-01-31T09:30:00Z', Date.UTC(2024, 0, 31, 9, 30)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
  ])('reads %s', (text, ms) => expect(parseContractDate(text)).toBe(ms));

  it.each(['', 'yesterday', '2023-02-29', '2024-13-01', '2024-01-01 24:00:00', '01/31/2024'])(
    'refuses %j',
    (text) => expect(parseContractDate(text)).toBeNull(),
  );

  it('reads every canonical date as Date.UTC does, and refuses the days a month has not', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    for (const year of [
      0, 1, 99, 100, 1599, 1600, 1700, 1899, 1900, 1970, 1999, 2000, 2024, 2100, 2400, 9999,
    ]) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 1; day <= 31; day++) {
          const text = `${String(year).padStart(4, '0')}/${two(month)}/${two(day)} 23:59:58`;
          const ms = Date.UTC(year, month - 1, day, 23, 59, 58);
          const exists = new Date(ms).getUTCDate() === day;
          expect(parseContractDate(text), text).toBe(exists ? ms : null);
          expect(parseContractDate(text.replace(/\//g, '-')), text).toBe(exists ? ms : null);
        }
      }
    }
  });

  it('finds the bar of a time', () => {
    expect(barIndexAt(TIMES, day(1))).toBe(0);
    expect(barIndexAt(TIMES, day(3) + 1)).toBe(2);
    expect(barIndexAt(TIMES, day(9))).toBe(4);
  });
});
