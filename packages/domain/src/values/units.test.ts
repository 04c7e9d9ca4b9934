import { describe, expect, it } from 'vitest';
import { commissionFor, isFullClose, priceForMargin, profitLoss } from '../trading/values.ts';
import {
  asPrice,
  roundLots,
  roundMoney,
  toEpochMs,
  toEpochSec,
  type EpochMs,
  type EpochSec,
  type Money,
} from './units.ts';

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

describe('prices, lots and money', () => {
  const terms = { volume_multiple: 100, margin_ratio_by_money: 0.1 };

  it('makes lots and money without float residue', () => {
    expect(roundLots(0.1 + 0.2)).toBe(0.3);
    expect(roundLots(1.123456789)).toBe(1.12345679);
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(-0.001)).toBe(0);
    expect(asPrice(1.2345)).toBe(1.2345);
  });

  it('refuses, by type, lots where a price goes and a price where lots go', () => {
    const open = asPrice(100);
    const close = asPrice(101.5);
    const lots = roundLots(0.1 + 0.2);
    const profit: Money = profitLoss('buy', open, close, lots, terms);
    expect(profit).toBe(45);
    // plain numbers (a request's fields, a stored column) are still accepted
    expect(profitLoss('sell', 100, 101.5, 0.3, terms)).toBe(-45);
    // @ts-expect-error: lots are not a price
    expect(profitLoss('buy', lots, close, lots, terms)).not.toBe(profit);
    // @ts-expect-error: a price is not lots
    expect(profitLoss('buy', open, close, close, terms)).not.toBe(profit);
    // @ts-expect-error: money is not lots
    expect(commissionFor(profit, 7)).toBe(315);
    // @ts-expect-error: a price is not money
    expect(priceForMargin(open, lots, terms)).toBeGreaterThan(0);
    expect(isFullClose(lots, roundLots(0.3))).toBe(true);
  });
});
