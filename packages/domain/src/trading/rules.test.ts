import { describe, expect, it } from 'vitest';
import {
  IllegalTransition,
  closingCmd,
  orderStatusCode,
  orderEventName,
  orderStateOfPending,
  orderTransition,
  pendingTransition,
  positionTransition,
  sideOfCmd,
} from './lifecycle.ts';
import {
  exitPriceFromTicks,
  referencePrice,
  validateExitAgainstMarket,
  limitPriceBand,
  nearestValidLimitPrice,
  stopLossRange,
  takeProfitRange,
  ticksFromExitPrice,
  validateLimitPrice,
  validateStopLoss,
  validateTakeProfit,
} from './price-rules.ts';
import { formatPrice, priceDecimals } from '../market/price.ts';
import { clampQuantityUp, closeQuantityRule, quantityRule, validateQuantity } from './quantity.ts';
import {
  availableVolume,
  closingPrice,
  commissionFor,
  floatingProfit,
  normalizeQuantity,
  priceForMargin,
  profitLoss,
  requiredMargin,
  standardLots,
  tradeValue,
} from './values.ts';

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
    [
      1500,
      2000,
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    ],
    [
      1999,
      2000,
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    ],
    [
      2000,
      2000,
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    ],
    [
      2500,
      2000,
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    ],
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

describe('quantity rules, every message and bound', () => {
  const FX = { vol_limit_min: 0.01, vol_limit_max: 100, min_limit_ov: 0.01, max_limit_ov: 100 };
  const FUT = { vol_limit_min: 1, vol_limit_max: 500, min_limit_ov: 1, max_limit_ov: 500 };
  it.each([
    // [quantity, terms, order type, message]
    [1, FUT, 'market', null],
    [500, FUT, 'market', null],
    [501, FUT, 'market', 'Quantity cannot exceed 500 and must be a multiple of 1'],
    [0.5, FUT, 'market', 'Quantity must be at least 1 and a multiple of 1'],
    [2.5, FUT, 'limit', 'Quantity must be a multiple of 1, for example 2, 3, 4'],
    [0.01, FX, 'market', null],
    [100, FX, 'limit', null],
    [0.005, FX, 'limit', 'Quantity must be at least 0.01 and a multiple of 0.01'],
    [0.123, FX, 'market', 'Quantity must be a multiple of 0.01, for example 0.12, 0.13, 0.14'],
    [
      0.35,
      { vol_limit_min: 0.1, vol_limit_max: 10, min_limit_ov: 0, max_limit_ov: 0 },
      'market',
      'Quantity must be a multiple of 0.1, for example 0.3, 0.4, 0.5',
    ],
    [Number.POSITIVE_INFINITY, FX, 'market', 'Invalid quantity'],
    [-0.01, FX, 'market', '数量必须大于0'],
    [0.1 + 0.2, FX, 'market', null], // 0.30000000000000004 is on the grid
  ] as const)('%s lots (%s, %s)', (quantity, terms, type, message) => {
    expect(validateQuantity(quantity, quantityRule(terms, type))).toBe(message);
  });

  it('closes at most the available volume, with the same messages', () => {
    const rule = closeQuantityRule(FX, 0.3);
    expect(validateQuantity(0.3, rule)).toBeNull();
    expect(validateQuantity(0.31, rule)).toBe(
      'Quantity cannot exceed 0.3 and must be a multiple of 0.01',
    );
    expect(validateQuantity(0.01, closeQuantityRule(FX, 0))).toBe(
      'Quantity cannot exceed 0 and must be a multiple of 0.01',
    );
  });

  it('normalizes a valid quantity onto its grid', () => {
    expect(normalizeQuantity(0.1 + 0.2, 0.01)).toBe(0.3);
    expect(normalizeQuantity(0.0100000001, 0.01)).toBe(0.01);
    expect(normalizeQuantity(7, 1)).toBe(7);
  });
});

describe('nearest valid limit price', () => {
  // ask 2000: below 1600.00–1998.00, above 2002.00–2400.00
  it.each([
    ['buy', 2000, 1998],
    ['sell', 2000, 2002],
    ['buy', 1999.5, 1998],
    ['sell', 1999.5, 1998],
    ['buy', 2000.5, 2002],
    ['sell', 2001.99, 2002],
    ['buy', 1500, 1600],
    ['buy', 2500, 2400],
    ['buy', 1900, 1900],
    ['buy', 1900.004, 1900],
    ['buy', 2100.006, 2100.01],
    ['buy', null, 1998],
    ['sell', 0, 2002],
    ['sell', Number.NaN, 2002],
  ] as const)('%s at %s goes to %s', (side, price, nearest) => {
    const snapped = nearestValidLimitPrice(side, price, 2000, 0.01);
    expect(snapped).toBe(nearest);
    expect(validateLimitPrice(snapped!, 2000, 0.01)).toBeNull();
  });

  it('needs a reference price', () => {
    expect(nearestValidLimitPrice('buy', 1900, null, 0.01)).toBeNull();
    expect(nearestValidLimitPrice('buy', 1900, 0, 0.01)).toBeNull();
  });

  it('stays on a coarse tick grid inside the band', () => {
    // ask 101, tick 0.5: below 81.0–100.5, above 101.5–121.0
    expect(nearestValidLimitPrice('buy', 101, 101, 0.5)).toBe(100.5);
    expect(nearestValidLimitPrice('sell', 101, 101, 0.5)).toBe(101.5);
    expect(nearestValidLimitPrice('buy', 101.2, 101, 0.5)).toBe(101.5);
  });
});

describe('limit price band and tick, by side', () => {
  // The reference price is the ask for a buy and the bid for a sell.
  const quote = { bid: 1999.5, ask: 2000 };
  it.each([
    ['buy', 1998, null],
    ['buy', 1600, null],
    [
      'buy',
      1599.99,
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    ],
    ['buy', 2002, null],
    ['buy', 2400, null],
    [
      'buy',
      2400.01,
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    ],
    ['buy', 1997.005, 'Limit price must be a multiple of the tick size 0.01'],
    ['sell', 2001.5, null],
    ['sell', 1997.5, null],
    [
      'sell',
      1999,
      'Limit price must be between 1599.60 and 1997.50 (below the market) or between 2001.50 and 2399.40 (above the market)',
    ],
    [
      'sell',
      2000,
      'Limit price must be between 1599.60 and 1997.50 (below the market) or between 2001.50 and 2399.40 (above the market)',
    ],
  ] as const)('%s at %s', (side, price, message) => {
    expect(validateLimitPrice(price, referencePrice(side, quote), 0.01)).toBe(message);
  });

  it('formats prices with the decimals of the tick', () => {
    expect(formatPrice(1.1, 0.00001)).toBe('1.10000');
    expect(formatPrice(3500, 1)).toBe('3500');
    expect(formatPrice(5210.25, 0.25)).toBe('5210.25');
  });

  it("shows every price with its instrument precision: the tick's decimals, 4 without a tick", () => {
    // EURUSD quotes in 0.00001: bid and ask 1.29896 / 1.29904 must not both read 1.2990.
    expect(formatPrice(1.29896, 0.00001)).toBe('1.29896');
    expect(formatPrice(1.29904, 0.00001)).toBe('1.29904');
    expect(formatPrice(68788, 0.1)).toBe('68788.0');
    expect(formatPrice(68829.3, 0.1)).toBe('68829.3');
    expect(formatPrice(1.2345678, undefined)).toBe('1.2346');
    expect(formatPrice(2, 0)).toBe('2.0000');
    expect(formatPrice(null, 0.01)).toBe('—');
    expect(formatPrice(Number.NaN, 0.01)).toBe('—');
    expect(priceDecimals(0.00001)).toBe(5);
    expect(priceDecimals(null)).toBe(4);
  });
});

describe('TP and SL against the market', () => {
  it.each([
    // [kind, side, level, closing price, message]
    ['tp', 'buy', 101, 100, null],
    ['tp', 'buy', 100, 100, 'TP price must be above the current price 100.00'],
    ['sl', 'buy', 99, 100, null],
    ['sl', 'buy', 100.5, 100, 'SL price must be below the current price 100.00'],
    ['tp', 'sell', 99, 100, null],
    ['tp', 'sell', 101, 100, 'TP price must be below the current price 100.00'],
    ['sl', 'sell', 101, 100, null],
    ['sl', 'sell', 99.99, 100, 'SL price must be above the current price 100.00'],
  ] as const)('%s of a %s at %s (market %s)', (kind, side, level, close, message) => {
    expect(validateExitAgainstMarket(kind, side, level, close, 0.01)).toBe(message);
  });

  it('rejects negative and non-numeric levels with the range message', () => {
    expect(validateTakeProfit('buy', 100, -1, 0.01)).toBe(
      'TP price must be between 100.10 and 120.00',
    );
    expect(validateStopLoss('sell', 100, Number.NaN, 0.01)).toBe(
      'SL price must be between 100.10 and 120.00',
    );
  });
});

describe('money of positions', () => {
  const gold = { volume_multiple: 100, margin_ratio_by_money: 0.05 };
  const fx = { volume_multiple: 100_000, margin_ratio_by_money: 0.01 };
  it.each([
    // [side, open, close, lots, terms, profit]
    ['buy', 2000, 2001, 1, gold, 100],
    ['sell', 2000, 2001, 1, gold, -100],
    ['buy', 1.1, 1.10015, 0.1, fx, 1.5],
    ['sell', 1.1, 1.09985, 0.01, fx, 0.15],
    ['buy', 150.123, 150.1, 0.5, fx, -1150],
  ] as const)('%s %s → %s on %s lots', (side, open, close, lots, terms, profit) => {
    expect(profitLoss(side, open, close, lots, terms)).toBe(profit);
  });

  it('values the open part of a position at the closing side of the quote', () => {
    const quote = { bid: 2010, ask: 2010.5 };
    expect(closingPrice('buy', quote)).toBe(2010);
    expect(closingPrice('sell', quote)).toBe(2010.5);
    expect(
      floatingProfit({ side: 'buy', price: 2000, volume: 1, settledVol: 0.4 }, quote, gold),
    ).toBe(600);
    expect(
      floatingProfit({ side: 'sell', price: 2000, volume: 1, settledVol: 0 }, quote, gold),
    ).toBe(-1050);
  });

  it('computes trade value, margin, commission and lots', () => {
    expect(tradeValue(1.1, 0.1, fx)).toBeCloseTo(11_000, 6);
    expect(requiredMargin(1.1, 0.1, fx)).toBe(110);
    expect(commissionFor(0.3, 5)).toBe(1.5);
    expect(commissionFor(3, 0.005)).toBe(0.02);
    expect(standardLots(0.25)).toBe(0.25);
  });
});

describe('order lifecycle', () => {
  it.each([
    ['submitted', 'Filled', 'filled', 2],
    ['submitted', 'Rejected', 'rejected', 1],
    ['submitted', 'Accepted', 'working', 0],
    ['working', 'Filled', 'filled', 2],
    ['working', 'Canceled', 'canceled', 4],
    ['working', 'Expired', 'expired', 4],
    ['working', 'Rejected', 'rejected', 1],
  ] as const)('%s + %s → %s (log status %s)', (from, event, to, code) => {
    const state = orderTransition(from, event);
    expect(state).toBe(to);
    expect(orderStatusCode(state)).toBe(code);
  });

  it.each([
    ['filled', 'Canceled'],
    ['canceled', 'Filled'],
    ['rejected', 'Filled'],
    ['expired', 'Canceled'],
    ['submitted', 'Canceled'],
  ] as const)('refuses %s + %s', (from, event) => {
    expect(() => orderTransition(from, event)).toThrow(IllegalTransition);
  });

  it.each([
    ['working', 'Canceled', 'canceled'],
    ['working', 'Filled', 'filled'],
    ['working', 'Expired', 'expired'],
    ['filled', 'Canceled', IllegalTransition],
    ['canceled', 'Expired', IllegalTransition],
    ['expired', 'Filled', IllegalTransition],
  ] as const)('a pending order stored %s + %s → %o', (stored, event, to) => {
    const from = orderStateOfPending(stored);
    if (to === IllegalTransition) {
      expect(() => orderTransition(from, event)).toThrow(IllegalTransition);
    } else {
      expect(orderTransition(from, event)).toBe(to);
    }
    expect(orderEventName(event)).toBe(`Order${event}`);
  });

  it('refuses to edit or close a closed position and to touch a finished pending order', () => {
    expect(positionTransition('open', 'ProtectionChanged')).toBe('open');
    expect(() => positionTransition('closed', 'ProtectionChanged')).toThrow(
      'position: cannot ProtectionChanged when closed',
    );
    expect(() => positionTransition('closed', 'FullyClosed')).toThrow(IllegalTransition);
    for (const from of ['filled', 'canceled', 'expired', 'rejected'] as const) {
      expect(() => pendingTransition(from, 'Expired')).toThrow(IllegalTransition);
    }
  });

  it('maps cmd codes to sides and closing cmds', () => {
    expect(sideOfCmd(1)).toBe('buy');
    expect(sideOfCmd(2)).toBe('sell');
    expect(closingCmd(1)).toBe(2);
    expect(closingCmd(2)).toBe(1);
  });
});
