import { describe, expect, it } from 'vitest';
import { shiftExits, validatePendingChange } from './pending-change.ts';

// XAUUSD-like: tick 0.01, bid 2000, ask 2000.50.
const QUOTE = { bid: 2000, ask: 2000.5 };
const TICK = 0.01;

describe('shiftExits: TP and SL follow a pending order’s price', () => {
  it('moves each set level by the price’s move, keeping its ticks from the price', () => {
    // 1990 → 1985 (−5.00): TP 2000 → 1995, SL 1980 → 1975
    expect(shiftExits({ tp: 2000, sl: 1980 }, 1990, 1985, TICK)).toEqual({ tp: 1995, sl: 1975 });
    // upwards, with binary-unfriendly decimals: 1.1 → 1.3 (+0.2), TP 1.15 → 1.35
    expect(shiftExits({ tp: 1.15, sl: 1.05 }, 1.1, 1.3, 0.01)).toEqual({ tp: 1.35, sl: 1.25 });
  });

  it('leaves a level that is not set (0) unset', () => {
    expect(shiftExits({ tp: 0, sl: 1980 }, 1990, 1985, TICK)).toEqual({ tp: 0, sl: 1975 });
    expect(shiftExits({ tp: 0, sl: 0 }, 1990, 1900, TICK)).toEqual({ tp: 0, sl: 0 });
  });
});

describe('validatePendingChange: the ticket’s limit rule, then TP/SL from the new price', () => {
  it('accepts a buy limit moved inside its band with its levels in range', () => {
    expect(validatePendingChange('buy', { price: 1985, tp: 1995, sl: 1975 }, QUOTE, TICK)).toBe(
      null,
    );
    // a buy above the ask (a stop order) within 1.001–1.2 of it
    expect(validatePendingChange('buy', { price: 2010, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(null);
  });

  it('measures a buy against the ask: 0.8–0.999 × 2000.50 below, 1.001–1.2 × above', () => {
    // 0.999 × 2000.5 = 1998.4995 → 1998.49 (inwards); 0.8 × 2000.5 = 1600.40
    expect(validatePendingChange('buy', { price: 1999, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    );
    // at the ask itself: the band above, 1.001 × 2000.5 = 2002.5005 → 2002.51; 1.2 × = 2400.60
    expect(validatePendingChange('buy', { price: 2000.5, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    );
  });

  it('measures a sell against the bid', () => {
    // 1.001 × 2000 = 2002.00, 1.2 × 2000 = 2400.00
    expect(validatePendingChange('sell', { price: 2001, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    );
    expect(validatePendingChange('sell', { price: 2002, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(null);
    // a buy at 2001 would be fine against the ask? no: 2001 is inside 0.999–1.001 of 2000.50
    expect(validatePendingChange('buy', { price: 2001, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    );
  });

  it('refuses a price off the tick, not above 0, or without a quote', () => {
    expect(validatePendingChange('buy', { price: 1985.005, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(
      'Limit price must be a multiple of the tick size 0.01',
    );
    expect(validatePendingChange('buy', { price: 0, tp: 0, sl: 0 }, QUOTE, TICK)).toBe(
      'Limit order price must be greater than 0',
    );
    expect(validatePendingChange('buy', { price: 1985, tp: 0, sl: 0 }, null, TICK)).toBe(
      'No quote available for this instrument',
    );
  });

  it('checks TP then SL against the new price', () => {
    // buy at 1985: TP 1.001–1.2 × 1985 = 1986.985 → 1986.99 … 2382.00
    expect(validatePendingChange('buy', { price: 1985, tp: 1985.5, sl: 0 }, QUOTE, TICK)).toBe(
      'TP price must be between 1986.99 and 2382.00',
    );
    // SL 0.8–0.999 × 1985 = 1588.00 … 1983.015 → 1983.01
    expect(validatePendingChange('buy', { price: 1985, tp: 0, sl: 1985.5 }, QUOTE, TICK)).toBe(
      'SL price must be between 1588.00 and 1983.01',
    );
    // a sell mirrors: TP below the price
    expect(validatePendingChange('sell', { price: 2010, tp: 2020, sl: 0 }, QUOTE, TICK)).toBe(
      'TP price must be between 1608.00 and 2007.99',
    );
  });
});
