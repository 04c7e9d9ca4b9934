import { describe, expect, it } from 'vitest';
import { logicalOfTime, timeOfIndex } from './timeMap';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 0, 0, 0);
// hourly bars at 00:00, 01:00, 02:00, then a gap (closed market) to 10:00
const bars = [0, 1, 2, 10].map((h) => ({ time: T0 + h * H }));
const sec = (ms: number) => ms / 1000;

describe('logicalOfTime', () => {
  it('is the index of a bar at its own time', () => {
    expect(logicalOfTime(bars, '1h', sec(T0 + 2 * H))).toBe(2);
    expect(logicalOfTime(bars, '1h', sec(T0 + 10 * H))).toBe(3);
  });

  it('interpolates between bars (a time inside a gap or a coarser bar)', () => {
    expect(logicalOfTime(bars, '1h', sec(T0 + 30 * 60_000))).toBe(0.5);
    expect(logicalOfTime(bars, '1h', sec(T0 + 6 * H))).toBe(2.5);
  });

  it('steps one bar per hour beyond the ends', () => {
    expect(logicalOfTime(bars, '1h', sec(T0 + 13 * H))).toBe(6);
    expect(logicalOfTime(bars, '1h', sec(T0 - 2 * H))).toBe(-2);
  });

  it('is null without bars', () => {
    expect(logicalOfTime([], '1h', 0)).toBeNull();
  });
});

describe('timeOfIndex', () => {
  it("is a bar's time inside, whole buckets outside", () => {
    expect(timeOfIndex(bars, '1h', 3)).toBe(sec(T0 + 10 * H));
    expect(timeOfIndex(bars, '1h', 1.4)).toBe(sec(T0 + H));
    expect(timeOfIndex(bars, '1h', 5)).toBe(sec(T0 + 12 * H));
    expect(timeOfIndex(bars, '1h', -3)).toBe(sec(T0 - 3 * H));
  });

  it('steps months by the calendar', () => {
    const monthly = [{ time: Date.UTC(2026, 0, 1) }, { time: Date.UTC(2026, 1, 1) }];
    expect(timeOfIndex(monthly, 'month', 3)).toBe(sec(Date.UTC(2026, 3, 1)));
    expect(logicalOfTime(monthly, 'month', sec(Date.UTC(2026, 3, 1)))).toBeCloseTo(3, 10);
  });

  it('maps back to the same index', () => {
    for (const i of [-4, 0, 1, 2, 3, 7]) {
      expect(logicalOfTime(bars, '1h', timeOfIndex(bars, '1h', i)!)).toBe(i);
    }
  });
});
