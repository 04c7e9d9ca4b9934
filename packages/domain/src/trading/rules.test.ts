import { describe, expect, it } from 'vitest';
import { IllegalTransition, pendingTransition, positionTransition } from './lifecycle.ts';
import {
  exitPriceFromTicks,
  limitPriceBand,
  stopLossRange,
  takeProfitRange,
  ticksFromExitPrice,
  validateLimitPrice,
  validateStopLoss,
  validateTakeProfit,
} from './price-rules.ts';
import { clampQuantityUp, closeQuantityRule, quantityRule, validateQuantity } from './quantity.ts';
import { availableVolume, priceForMargin, profitLoss, requiredMargin } from './values.ts';

const BTC = { vol_limit_min: 0.01, vol_limit_max: 100, min_limit_ov: 0.05, max_limit_ov: 50 };
const NO_LIMIT_TERMS = { vol_limit_min: 1, vol_limit_max: 500, min_limit_ov: 0, max_limit_ov: 0 };

describe('quantity rules', () => {
  it('derives bounds by order type', () => {
    expect(quantityRule(BTC, 'market')).toEqual({ min: 0.01, max: 100, step: 0.01 });
    expect(quantityRule(BTC, 'limit')).toEqual({ min: 0.05, max: 50, step: 0.05 });
    expect(quantityRule(NO_LIMIT_TERMS, 'limit')).toEqual({ min: 1, max: 500, step: 1 });
    expect(
      quantityRule(
        { vol_limit_min: 0, vol_limit_max: 0, min_limit_ov: 0, max_limit_ov: 0 },
        'market',
      ),
    ).toEqual({ min: 1, max: 1_000_000, step: 1 });
    expect(closeQuantityRule(BTC, 0.3)).toEqual({ min: 0.01, max: 0.3, step: 0.01 });
    expect(closeQuantityRule(BTC, -1).max).toBe(0);
  });

  it.each([
    [0, BTC, 'market', '数量必须大于0'],
    [-1, BTC, 'market', '数量必须大于0'],
    [Number.NaN, BTC, 'market', 'Invalid quantity'],
    [0.001, BTC, 'market', 'Quantity must be at least 0.01 and a multiple of 0.01'],
    [101, BTC, 'market', 'Quantity cannot exceed 100 and must be a multiple of 0.01'],
    [0.015, BTC, 'market', 'Quantity must be a multiple of 0.01, for example 0.01, 0.02, 0.03'],
    [0.07, BTC, 'limit', 'Quantity must be a multiple of 0.05, for example 0.05, 0.1, 0.15'],
    [1.5, NO_LIMIT_TERMS, 'market', 'Quantity must be a multiple of 1, for example 1, 2, 3'],
    [0.3, BTC, 'market', null],
    [0.1, BTC, 'limit', null],
  ] as const)('validates %s (%s %s)', (quantity, terms, type, message) => {
    expect(validateQuantity(quantity, quantityRule(terms, type))).toBe(message);
  });

  it('only requires a positive quantity without instrument data', () => {
    expect(validateQuantity(0.123, null)).toBeNull();
    expect(validateQuantity(0, null)).toBe('数量必须大于0');
  });

  it('clamps a quantity up to the minimum', () => {
    expect(clampQuantityUp(0.001, quantityRule(BTC, 'market'))).toBe(0.01);
    expect(clampQuantityUp(5, quantityRule(BTC, 'market'))).toBe(5);
  });
});

describe('limit price band', () => {
  it('uses 0.8-0.999 below the reference and 1.001-1.2 above it, on the tick grid', () => {
    expect(limitPriceBand(1900, 2000, 0.01)).toEqual({ min: 1600, max: 1998 });
    expect(limitPriceBand(2100, 2000, 0.01)).toEqual({ min: 2002, max: 2400 });
  });

  it.each([
    [0, 2000, 'Limit order price must be greater than 0'],
    [-5, 2000, 'Limit order price must be greater than 0'],
    [1500, 2000, 'Limit price must be between 1600.00 and 1998.00'],
    [1999, 2000, 'Limit price must be between 1600.00 and 1998.00'],
    [2000, 2000, 'Limit price must be between 2002.00 and 2400.00'],
    [2500, 2000, 'Limit price must be between 2002.00 and 2400.00'],
    [1900, null, 'No quote available for this instrument'],
    [1998, 2000, null],
    [1600, 2000, null],
    [2002, 2000, null],
  ] as const)('price %s against reference %s', (price, reference, message) => {
    expect(validateLimitPrice(price, reference, 0.01)).toBe(message);
  });
});

describe('TP and SL', () => {
  it('puts TP above a buy and below a sell, SL mirrored', () => {
    expect(takeProfitRange('buy', 100, 0.01)).toEqual({ min: 100.1, max: 120 });
    expect(takeProfitRange('sell', 100, 0.01)).toEqual({ min: 80, max: 99.9 });
    expect(stopLossRange('buy', 100, 0.01)).toEqual({ min: 80, max: 99.9 });
    expect(stopLossRange('sell', 100, 0.01)).toEqual({ min: 100.1, max: 120 });
  });

  it.each([
    ['buy', 110, null],
    ['buy', 100.05, 'TP price must be between 100.10 and 120.00'],
    ['buy', 95, 'TP price must be between 100.10 and 120.00'],
    ['sell', 95, null],
    ['sell', 110, 'TP price must be between 80.00 and 99.90'],
  ] as const)('TP for a %s at 100: %s', (side, tp, message) => {
    expect(validateTakeProfit(side, 100, tp, 0.01)).toBe(message);
  });

  it.each([
    ['buy', 95, null],
    ['buy', 105, 'SL price must be between 80.00 and 99.90'],
    ['sell', 105, null],
    ['sell', 99.95, 'SL price must be between 100.10 and 120.00'],
  ] as const)('SL for a %s at 100: %s', (side, sl, message) => {
    expect(validateStopLoss(side, 100, sl, 0.01)).toBe(message);
  });

  it('requires a whole number of ticks from the order price', () => {
    expect(validateTakeProfit('buy', 100, 110.25, 0.5)).toBe(
      'TP price difference from the order price must be a multiple of the tick size',
    );
    expect(validateStopLoss('buy', 100, 90.25, 0.5)).toBe(
      'SL price difference from the order price must be a multiple of the tick size',
    );
    expect(validateTakeProfit('buy', 100, 110.5, 0.5)).toBeNull();
  });

  it('converts ticks to prices and back', () => {
    expect(exitPriceFromTicks('tp', 'buy', 2000, 10, 0.01)).toBe(2000.1);
    expect(exitPriceFromTicks('sl', 'buy', 2000, 10, 0.01)).toBe(1999.9);
    expect(exitPriceFromTicks('tp', 'sell', 2000, 10, 0.01)).toBe(1999.9);
    expect(exitPriceFromTicks('sl', 'sell', 2000, 10, 0.01)).toBe(2000.1);
    expect(ticksFromExitPrice(2000, 2000.1, 0.01)).toBe(10);
  });
});

describe('money', () => {
  const gold = { volume_multiple: 100, margin_ratio_by_money: 0.05 };
  it('computes margin, the price for a margin, P&L and available volume', () => {
    expect(requiredMargin(2000, 0.5, gold)).toBe(5000);
    expect(priceForMargin(5000, 0.5, gold)).toBe(2000);
    expect(profitLoss('buy', 2000, 2010.5, 0.5, gold)).toBe(525);
    expect(profitLoss('sell', 2000, 2010.5, 0.5, gold)).toBe(-525);
    expect(availableVolume({ volume: 1, settledVol: 0.3 })).toBe(0.7);
    expect(availableVolume({ volume: 1, settledVol: 2 })).toBe(0);
  });
});

describe('lifecycles', () => {
  it('allows the table moves and refuses the rest', () => {
    expect(positionTransition('open', 'PartiallyClosed')).toBe('open');
    expect(positionTransition('open', 'FullyClosed')).toBe('closed');
    expect(() => positionTransition('closed', 'PartiallyClosed')).toThrow(IllegalTransition);
    expect(pendingTransition('working', 'Filled')).toBe('filled');
    expect(() => pendingTransition('filled', 'Canceled')).toThrow(
      'pending order: cannot Canceled when filled',
    );
    expect(() => pendingTransition('expired', 'Filled')).toThrow(IllegalTransition);
  });
});
