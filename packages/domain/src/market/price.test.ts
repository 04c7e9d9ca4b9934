import { describe, expect, it } from 'vitest';
import {
  formatPrice,
  isAbove,
  isBelow,
  isOnGrid,
  isOnTick,
  isPriceWithin,
  priceDecimals,
  roundTo,
  snapToTick,
  snapToTickDirected,
  tickDecimals,
  wholeSteps,
} from './price.ts';
import { TOLERANCE } from '../values/tolerance.ts';
import { limitPriceBand, validateLimitPrice } from '../trading/price-rules.ts';
import { isMultipleOfStep, validateQuantity } from '../trading/quantity.ts';

describe('tickDecimals and priceDecimals', () => {
  it.each([
    [0.01, 2],
    [0.25, 2],
    [5, 0],
    [1, 0],
    [0.00001, 5],
    [0.1, 1],
    [1e-9, 8],
    [0, 2],
    [-0.01, 2],
  ])('a tick of %s needs %s decimals', (tick, decimals) => {
    expect(tickDecimals(tick)).toBe(decimals);
  });

  it('shows a price without a tick with the spec 4 decimals', () => {
    expect(priceDecimals(null)).toBe(4);
    expect(priceDecimals(undefined)).toBe(4);
    expect(priceDecimals(0)).toBe(4);
    expect(priceDecimals(0.00001)).toBe(5);
    expect(formatPrice(1.29896, 0.00001)).toBe('1.29896');
    expect(formatPrice(150, 0.001)).toBe('150.000');
    expect(formatPrice(Number.NaN, 0.01)).toBe('—');
    expect(formatPrice(null, 0.01)).toBe('—');
  });
});

describe('roundTo', () => {
  it('rounds half away from zero without float residue', () => {
    expect(roundTo(1.005, 2)).toBe(1.01); // 1.005 is 1.00499999… in binary
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(0.1 + 0.2, 2)).toBe(0.3);
    expect(roundTo(-0.001, 2)).toBe(0); // never -0
    expect(Object.is(roundTo(-0.001, 2), 0)).toBe(true);
  });
});

describe('wholeSteps', () => {
  it('counts 0.3 as three steps of 0.1 both ways (0.3 / 0.1 = 2.9999999999999996)', () => {
    expect(0.3 / 0.1).toBeLessThan(3);
    expect(wholeSteps(0.3, 0.1, 'floor')).toBe(3);
    expect(wholeSteps(0.3, 0.1, 'ceil')).toBe(3);
  });

  it('rounds a value between grid lines down or up', () => {
    expect(wholeSteps(0.35, 0.1, 'floor')).toBe(3);
    expect(wholeSteps(0.35, 0.1, 'ceil')).toBe(4);
  });

  it('forgives a wider tolerance when asked', () => {
    const justAbove = 3 * 0.1 + 0.1 * 1e-7; // a ten-millionth of a step above 0.3
    expect(wholeSteps(justAbove, 0.1, 'ceil')).toBe(4);
    expect(wholeSteps(justAbove, 0.1, 'ceil', TOLERANCE.onGrid)).toBe(3);
  });
});

describe('snapToTick and snapToTickDirected', () => {
  it('snaps to the nearest tick with the tick decimals', () => {
    expect(snapToTick(1.298964, 0.00001)).toBe(1.29896);
    expect(snapToTick(1.298966, 0.00001)).toBe(1.29897);
    expect(snapToTick(0.1 + 0.2, 0.1)).toBe(0.3);
    expect(snapToTick(101.13, 0.25)).toBe(101.25);
    expect(snapToTick(1.2345, 0)).toBe(1.2345); // no tick: unchanged
  });

  it('snaps down or up, keeping a price already on the grid', () => {
    expect(snapToTickDirected(0.88, 0.01, 'down')).toBe(0.88); // 0.8 × 1.1 = 0.8800000000000001
    expect(snapToTickDirected(0.8 * 1.1, 0.01, 'up')).toBe(0.88);
    expect(snapToTickDirected(1.298964, 0.00001, 'down')).toBe(1.29896);
    expect(snapToTickDirected(1.298961, 0.00001, 'up')).toBe(1.29897);
    expect(snapToTickDirected(1.2345, -1, 'up')).toBe(1.2345);
  });
});

describe('isOnGrid, isOnTick and isMultipleOfStep', () => {
  it('accepts float noise of a price on the grid (1.29896 at 0.00001)', () => {
    expect(1.29896 / 0.00001).not.toBe(129896);
    expect(isOnTick(1.29896, 0.00001)).toBe(true);
    expect(isOnGrid(0.3, 0.1)).toBe(true);
    expect(isMultipleOfStep(0.3, 0.1)).toBe(true);
  });

  it('refuses a fraction of a tick', () => {
    expect(isOnTick(1.298961, 0.00001)).toBe(false);
    expect(isOnTick(101.13, 0.25)).toBe(false);
    expect(isMultipleOfStep(0.35, 0.1)).toBe(false);
  });

  it('is always true without a grid', () => {
    expect(isOnGrid(1.234567, 0)).toBe(true);
    expect(isOnTick(1.234567, -0.01)).toBe(true);
  });
});

describe('bound comparisons', () => {
  it('forgives only the given absolute tolerance', () => {
    expect(isBelow(1 - 1e-13, 1, TOLERANCE.priceBound)).toBe(false);
    expect(isBelow(1 - 1e-11, 1, TOLERANCE.priceBound)).toBe(true);
    expect(isAbove(1 + 1e-13, 1, TOLERANCE.priceBound)).toBe(false);
    expect(isAbove(1 + 1e-11, 1, TOLERANCE.priceBound)).toBe(true);
    expect(isAbove(1 + 1e-10, 1, TOLERANCE.quantityBound)).toBe(false);
  });

  it('keeps band ends inside the band and refuses a tick beyond them', () => {
    const band = limitPriceBand(1.0, 1.1, 0.01); // below the reference: 0.88–1.09
    expect(band).toEqual({ min: 0.88, max: 1.09 });
    expect(isPriceWithin(0.8 * 1.1, band)).toBe(true); // 0.8800000000000001
    expect(isPriceWithin(band.max, band)).toBe(true);
    expect(isPriceWithin(0.87, band)).toBe(false);
    expect(isPriceWithin(1.1, band)).toBe(false);
    expect(isPriceWithin(Number.NaN, band)).toBe(false);
    expect(validateLimitPrice(0.88, 1.1, 0.01)).toBeNull();
    expect(validateLimitPrice(0.87, 1.1, 0.01)).toBe(
      'Limit price must be between 0.88 and 1.09 (below the market) or between 1.11 and 1.32 (above the market)',
    );
  });

  it('keeps a quantity at its bounds valid despite float noise', () => {
    const rule = { min: 0.1, max: 0.3, step: 0.1 };
    expect(validateQuantity(0.1 + 0.2, rule)).toBeNull(); // 0.30000000000000004
    expect(validateQuantity(0.4, rule)).toBe(
      'Quantity cannot exceed 0.3 and must be a multiple of 0.1',
    );
    expect(validateQuantity(0.05, rule)).toBe(
      'Quantity must be at least 0.1 and a multiple of 0.1',
    );
  });
});
