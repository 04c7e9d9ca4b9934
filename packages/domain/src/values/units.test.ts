import { describe, expect, it } from 'vitest';
import { toEpochMs, toEpochSec, type EpochMs, type EpochSec } from './units.ts';

describe('epoch conversions', () => {
  it('turns milliseconds into whole seconds, rounding down, and back', () => {
    expect(toEpochSec(1_700_000_000_999)).toBe(1_700_000_000);
    expect(toEpochSec(-1)).toBe(-1);
    expect(toEpochMs(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toEpochMs(toEpochSec(1_700_000_000_500))).toBe(1_700_000_000_000);
  });

  it('refuses, by type, a value already in the target unit', () => {
    const seconds = toEpochSec(1_700_000_000_000);
    const ms = toEpochMs(seconds);
    // @ts-expect-error: seconds are not milliseconds
    toEpochSec(seconds);
    // @ts-expect-error: milliseconds are not seconds
    toEpochMs(ms);
    const asNumber: number = seconds; // a branded value is still a number
    expect(asNumber).toBe(1_700_000_000);
    expect(typeof (ms satisfies EpochMs)).toBe('number');
    expect(typeof (seconds satisfies EpochSec)).toBe('number');
  });
});
