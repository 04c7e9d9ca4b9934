import { describe, expect, it } from 'vitest';
import {
  deriveLiveUpdate,
  mergeTick,
  pickInstrument,
  symbolsToFetch,
  type PriceData,
} from './live.ts';
import type { Bar } from './bars.ts';
import { DAY_MS, MINUTE_MS } from './periods.ts';

const T = Date.UTC(2026, 2, 10, 12, 30, 15); // a Tuesday
const msg = (entry: string, price: number, tm = T, size = 0.5) => ({
  price,
  size,
  tm,
  entry,
  strike: 0,
});

describe('deriveLiveUpdate', () => {
  it("entry '0' sets the bid and keeps the known ask", () => {
    const previous: PriceData = { bid: 99, ask: 101, last: 101, timestamp: T - 1000 };
    const update = deriveLiveUpdate(previous, msg('0', 100));
    expect(update?.price).toEqual({ bid: 100, ask: 101, last: 100, timestamp: T });
  });

  it("entry '1' sets the ask and keeps the known bid", () => {
    const previous: PriceData = { bid: 99, ask: 101, last: 99, timestamp: T - 1000 };
    expect(deriveLiveUpdate(previous, msg('1', 102))?.price).toEqual({
      bid: 99,
      ask: 102,
      last: 102,
      timestamp: T,
    });
  });

  it('leaves the other side empty without a previous quote', () => {
    expect(deriveLiveUpdate(undefined, msg('0', 100))?.price).toEqual({
      bid: 100,
      ask: null,
      last: 100,
      timestamp: T,
    });
    expect(deriveLiveUpdate(null, msg('1', 101))?.price.bid).toBeNull();
  });

  it('ignores any other entry', () => {
    expect(deriveLiveUpdate(undefined, msg('2', 100))).toBeNull();
    expect(deriveLiveUpdate(undefined, msg('', 100))).toBeNull();
    expect(deriveLiveUpdate(undefined, msg('01', 100))).toBeNull();
  });

  it('derives a chart point: ISO time, OHLC the price, volume the size, interest 0', () => {
    expect(deriveLiveUpdate(undefined, msg('0', 100.5, T, 2))?.point).toEqual({
      Time: '2026-03-10T12:30:15.000Z',
      Open: 100.5,
      High: 100.5,
      Low: 100.5,
      Close: 100.5,
      Volume: 2,
      Interest: 0,
    });
  });
});

describe('mergeTick', () => {
  const minuteStart = Date.UTC(2026, 2, 10, 12, 30);
  const bar: Bar = { time: minuteStart, open: 10, high: 12, low: 9, close: 11, volume: 3 };

  it('moves high, low and close of the newest bar and adds the size', () => {
    expect(mergeTick(bar, { time: minuteStart + 20_000, price: 13, size: 0.1 }, '1m')).toEqual({
      kind: 'update',
      bar: { time: minuteStart, open: 10, high: 13, low: 9, close: 13, volume: 3.1 },
    });
    expect(mergeTick(bar, { time: minuteStart + 59_999, price: 8.5, size: 0.2 }, '1m')).toEqual({
      kind: 'update',
      bar: { time: minuteStart, open: 10, high: 12, low: 8.5, close: 8.5, volume: 3.2 },
    });
  });

  it('keeps float residue out of the volume', () => {
    const merged = mergeTick(
      { ...bar, volume: 0.1 },
      { time: minuteStart + 1, price: 11, size: 0.2 },
      '1m',
    );
    expect(merged.kind === 'update' && merged.bar.volume).toBe(0.3);
  });

  it('opens a new bar at the bucket start when the tick falls into the next bucket', () => {
    expect(
      mergeTick(bar, { time: minuteStart + MINUTE_MS + 5, price: 11.5, size: 1 }, '1m'),
    ).toEqual({
      kind: 'new',
      bar: {
        time: minuteStart + MINUTE_MS,
        open: 11.5,
        high: 11.5,
        low: 11.5,
        close: 11.5,
        volume: 1,
      },
    });
  });

  it('uses the period bucket: 5 minutes, days, Monday weeks, calendar months', () => {
    const five = { ...bar, time: Date.UTC(2026, 2, 10, 12, 30) };
    expect(
      mergeTick(five, { time: Date.UTC(2026, 2, 10, 12, 34, 59), price: 1, size: 0 }, '5m').kind,
    ).toBe('update');
    expect(
      mergeTick(five, { time: Date.UTC(2026, 2, 10, 12, 35), price: 1, size: 0 }, '5m').kind,
    ).toBe('new');

    const day = { ...bar, time: Date.UTC(2026, 2, 10) };
    expect(
      mergeTick(day, { time: Date.UTC(2026, 2, 10, 23, 59), price: 1, size: 0 }, 'day').kind,
    ).toBe('update');
    const nextDay = mergeTick(
      day,
      { time: Date.UTC(2026, 2, 11, 0, 0, 1), price: 1, size: 0 },
      'day',
    );
    expect(nextDay.kind === 'new' && nextDay.bar.time).toBe(Date.UTC(2026, 2, 10) + DAY_MS);

    const week = { ...bar, time: Date.UTC(2026, 2, 9) }; // Monday
    expect(
      mergeTick(week, { time: Date.UTC(2026, 2, 15, 22), price: 1, size: 0 }, 'week').kind,
    ).toBe('update');
    const nextWeek = mergeTick(week, { time: Date.UTC(2026, 2, 16, 1), price: 1, size: 0 }, 'week');
    expect(nextWeek.kind === 'new' && nextWeek.bar.time).toBe(Date.UTC(2026, 2, 16));

    const month = { ...bar, time: Date.UTC(2026, 1, 1) };
    const march = mergeTick(month, { time: T, price: 1, size: 0 }, 'month');
    expect(march.kind === 'new' && march.bar.time).toBe(Date.UTC(2026, 2, 1));
  });

  it('ignores a tick older than the newest bar', () => {
    expect(mergeTick(bar, { time: minuteStart - 1, price: 50, size: 1 }, '1m')).toEqual({
      kind: 'stale',
    });
  });

  it('starts the first bar when there is none', () => {
    const first = mergeTick(null, { time: T, price: 7, size: 2 }, '1h');
    expect(first).toEqual({
      kind: 'new',
      bar: { time: Date.UTC(2026, 2, 10, 12), open: 7, high: 7, low: 7, close: 7, volume: 2 },
    });
  });
});

describe('symbolsToFetch (quote cache skip rule)', () => {
  it('trims, drops empties and repeats, skips cached and in-flight symbols', () => {
    expect(
      symbolsToFetch(
        [' BTCUSDT', 'ETHUSDT ', '', '  ', 'XAUUSD', 'BTCUSDT', 'EURUSD'],
        new Set(['XAUUSD']),
        new Set(['EURUSD']),
      ),
    ).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it('asks for nothing when everything is cached or in flight', () => {
    expect(symbolsToFetch(['A', 'B'], new Set(['A']), new Set(['B']))).toEqual([]);
  });
});

describe('pickInstrument', () => {
  const groups = [
    { children: [] },
    { children: [{ id: 'XAUUSD' }, { id: 'XAGUSD' }] },
    { children: [{ id: 'BTCUSDT' }] },
  ];

  it('takes the asked instrument when it exists', () => {
    expect(pickInstrument(groups, 'XAGUSD')).toBe('XAGUSD');
    expect(pickInstrument(groups, ' XAGUSD ')).toBe('XAGUSD');
  });

  it('falls back to the default instrument, then to the first one of the groups', () => {
    expect(pickInstrument(groups, null)).toBe('BTCUSDT');
    expect(pickInstrument(groups, 'NOPE')).toBe('BTCUSDT');
    expect(pickInstrument(groups.slice(0, 2), 'NOPE')).toBe('XAUUSD');
    expect(pickInstrument([], 'BTCUSDT')).toBeNull();
  });
});
