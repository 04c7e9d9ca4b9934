import { describe, expect, it } from 'vitest';
import { formatLots, formatMoney, formatPercent, winRateUnit } from './numbers.ts';
import { isFullClose } from '../trading/values.ts';

describe('formatMoney', () => {
  it('shows 2 decimals with thousands separators', () => {
    expect(formatMoney(1200.5)).toBe('1,200.50');
    expect(formatMoney(-1200.5)).toBe('-1,200.50');
    expect(formatMoney(100945)).toBe('100,945.00');
    expect(formatMoney(0.005)).toBe('0.01');
  });

  it('signs only values above zero after rounding', () => {
    expect(formatMoney(1200.5, { signed: true })).toBe('+1,200.50');
    expect(formatMoney(-4, { signed: true })).toBe('-4.00');
    expect(formatMoney(0, { signed: true })).toBe('0.00');
    expect(formatMoney(0.001, { signed: true })).toBe('0.00');
    expect(formatMoney(-0.001, { signed: true })).toBe('0.00');
  });
});

describe('formatPercent', () => {
  it('takes the unit of its value from the caller', () => {
    expect(formatPercent(0.125, 'fraction')).toBe('12.50%');
    expect(formatPercent(12.5, 'percent')).toBe('12.50%');
    expect(formatPercent(1009.19771, 'percent', { decimals: 4, symbol: false })).toBe('1,009.1977');
    expect(formatPercent(0.05, 'fraction', { signed: true })).toBe('+5.00%');
    expect(formatPercent(-0.00001, 'fraction')).toBe('0.00%');
  });
});

describe('winRateUnit (spec section 9)', () => {
  it('reads a win rate above 1 as a percent, any other as a fraction', () => {
    expect(winRateUnit(0.583333)).toBe('fraction');
    expect(winRateUnit(1)).toBe('fraction');
    expect(winRateUnit(58.3333)).toBe('percent');
  });
});

describe('formatLots', () => {
  it('shows lots without float noise or separators', () => {
    expect(formatLots(0.1 + 0.2)).toBe('0.3');
    expect(formatLots(1000000)).toBe('1000000');
  });
});

describe('isFullClose', () => {
  it('forgives only representation noise', () => {
    expect(isFullClose(0.3, 0.1 + 0.2)).toBe(true);
    expect(isFullClose(2, 2)).toBe(true);
    expect(isFullClose(1.99, 2)).toBe(false);
  });
});
