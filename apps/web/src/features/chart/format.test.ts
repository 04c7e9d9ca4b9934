import { describe, expect, it } from 'vitest';
import { formatChange, formatVolume } from './format';

describe('chart number formats', () => {
  it('volumes kept short', () => {
    expect(formatVolume(0.25)).toBe('0.25');
    expect(formatVolume(950)).toBe('950');
    expect(formatVolume(12_500)).toBe('12.5K');
    expect(formatVolume(3_210_000)).toBe('3.21M');
    expect(formatVolume(1_100_000_000)).toBe('1.1B');
  });

  it('change from the previous close with a sign', () => {
    expect(formatChange(101, 100)).toBe('+1.00%');
    expect(formatChange(99, 100)).toBe('−1.00%');
    expect(formatChange(100, 100)).toBe('0.00%');
    expect(formatChange(71290.3, 71290.4)).toBe('0.00%');
    expect(formatChange(71290.4, 71290.3)).toBe('0.00%');
    expect(formatChange(100, null)).toBe('');
  });
});
