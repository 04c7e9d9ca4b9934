import { describe, expect, it } from 'vitest';
import { formatEpochSeconds, formatLocalDateTime } from './datetime.ts';

describe('formatEpochSeconds', () => {
  it('shows epoch seconds as local date-time', () => {
    const seconds = 1_700_000_000;
    expect(formatEpochSeconds(seconds)).toBe(formatLocalDateTime(new Date(seconds * 1000)));
    expect(formatEpochSeconds(seconds)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('says Unknown when the time is missing', () => {
    expect(formatEpochSeconds(null)).toBe('Unknown');
    expect(formatEpochSeconds(undefined)).toBe('Unknown');
    expect(formatEpochSeconds(0)).toBe('Unknown');
    expect(formatEpochSeconds(Number.NaN)).toBe('Unknown');
  });
});
