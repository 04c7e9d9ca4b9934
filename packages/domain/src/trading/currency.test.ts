import { describe, expect, it } from 'vitest';
import { startingBalance, toAccountCurrency, usdPerUnit } from './currency.ts';

describe('account currency conversion', () => {
  it.each([
    // [currency, quotes, USD per unit]
    ['USD', {}, 1],
    ['JPY', { USDJPY: 160 }, 1 / 160],
    ['JPY', {}, 1 / 150],
    ['JPY', { USDJPY: null }, 1 / 150],
    ['EUR', { EURUSD: 1.2 }, 1.2],
    ['EUR', {}, 1.08],
    ['CNY', { USDJPY: 160, EURUSD: 1.2 }, 1 / 7.2],
  ] as const)('%s with %o', (currency, quotes, rate) => {
    expect(usdPerUnit(currency, quotes)).toBeCloseTo(rate, 12);
  });

  it('converts amounts to 2 decimals and refuses unknown currencies', () => {
    expect(toAccountCurrency(15000, 'JPY', { USDJPY: 150 })).toBe(100);
    expect(toAccountCurrency(-720, 'CNY')).toBe(-100);
    expect(toAccountCurrency(10.005, 'USD')).toBe(10.01);
    expect(() => usdPerUnit('XYZ')).toThrow('No conversion rate for XYZ');
  });

  it.each([
    [1, 100_000],
    [2, 250_000],
    [3, 1_000_000],
    [7, 1_000_000],
    [0, 100_000],
  ])('level %s starts with %s USD', (level, balance) => {
    expect(startingBalance(level)).toBe(balance);
  });
});
