import { describe, expect, it } from 'vitest';
import { gfdExpiresAt, settleDateOf } from './calendar.ts';

const at = (iso: string) => Date.parse(iso);

describe('GFD expiry: end of the last session minute of the UTC day', () => {
  it.each([
    // [calendar, placed at, expires at]
    ['24x7', '2026-01-05T09:00:00Z', '2026-01-06T00:00:00Z'],
    ['24x7', '2026-01-05T23:59:59Z', '2026-01-06T00:00:00Z'],
    // NYSE closes 16:00 New York = 21:00 UTC in winter, 20:00 UTC in summer
    ['us-equity', '2026-01-05T15:00:00Z', '2026-01-05T21:00:00Z'],
    ['us-equity', '2026-07-06T15:00:00Z', '2026-07-06T20:00:00Z'],
    // Xetra closes 17:30 Frankfurt = 16:30 UTC in winter
    ['eu-equity', '2026-01-05T10:00:00Z', '2026-01-05T16:30:00Z'],
    // Shanghai's last session of the UTC day (21:00-23:00 local) ends 15:00 UTC
    ['cn-futures', '2026-01-05T02:00:00Z', '2026-01-05T15:00:00Z'],
    // Globex trades until 22:00 UTC and reopens 23:00 UTC: the UTC day ends at midnight
    ['cme', '2026-01-05T09:00:00Z', '2026-01-06T00:00:00Z'],
    // FX closes Friday 17:00 New York = 22:00 UTC
    ['fx', '2026-01-09T12:00:00Z', '2026-01-09T22:00:00Z'],
    // after the day's last session: the next midnight
    ['us-equity', '2026-01-05T22:00:00Z', '2026-01-06T00:00:00Z'],
    // a day without a session: the next midnight
    ['us-equity', '2026-01-10T12:00:00Z', '2026-01-11T00:00:00Z'],
  ] as const)('%s placed %s expires %s', (calendar, placed, expires) => {
    expect(new Date(gfdExpiresAt(calendar, at(placed))).toISOString()).toBe(
      new Date(at(expires)).toISOString(),
    );
  });
});

describe('settle date', () => {
  it.each([
    ['2026-01-05T09:00:00Z', 20260105],
    ['2026-12-31T23:59:59.999Z', 20261231],
    ['2027-01-01T00:00:00Z', 20270101],
  ])('%s → %s (UTC)', (iso, date) => {
    expect(settleDateOf(at(iso))).toBe(date);
  });
});
