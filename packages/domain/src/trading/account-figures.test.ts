import { describe, expect, it } from 'vitest';
import {
  accountFigures,
  exposureOfPositions,
  exposureWithPosition,
  floatingPnlOf,
  isMarginLevelLow,
  marginLevelOf,
  openVolumeBySide,
  type ExposureTerms,
  type FiguresMarket,
} from './account-figures.ts';

// Terms as in the catalogue: BTCUSDT (crypto, 10 % margin), XAUUSD (100 oz, 5 %), USDJPY
// (100,000 units, 1 %, priced in yen), GER40 (index, 5 %, priced in euros).
const TERMS: Record<string, ExposureTerms> = {
  BTCUSDT: { volume_multiple: 1, margin_ratio_by_money: 0.1, currency: 'USD' },
  XAUUSD: { volume_multiple: 100, margin_ratio_by_money: 0.05, currency: 'USD' },
  USDJPY: { volume_multiple: 100_000, margin_ratio_by_money: 0.01, currency: 'JPY' },
  GER40: { volume_multiple: 1, margin_ratio_by_money: 0.05, currency: 'EUR' },
};

function market(
  quotes: Record<string, { bid: number; ask: number }>,
  conversion: FiguresMarket['conversion'] = { USDJPY: 150, EURUSD: 1.1 },
): FiguresMarket {
  return { terms: (s) => TERMS[s], quote: (s) => quotes[s], conversion };
}

describe('accountFigures', () => {
  it('an account without positions: equity is the balance, no margin level', () => {
    expect(accountFigures(100_000, [], market({}))).toEqual({
      balance: 100_000,
      unrealizedPnl: 0,
      usedMargin: 0,
      equity: 100_000,
      freeMargin: 100_000,
      marginLevel: null,
    });
  });

  it('sums margin at the open price and P&L at the closing side, converted to USD', () => {
    // BTCUSDT: buys of 2 @ 50,000 and 1 @ 50,300 → 3 lots, average 50,100, at the bid
    // 50,200: P&L 3 × 100 = 300.00, margin 150,300 × 10 % = 15,030.00.
    // XAUUSD: a sell of 0.5 @ 2,000 closes at the ask 1,990.5: P&L 9.5 × 0.5 × 100 = 475.00,
    // margin 2,000 × 0.5 × 100 × 5 % = 5,000.00.
    // USDJPY: a buy of 1 @ 150 at the bid 149.5: −0.5 × 100,000 = −50,000 JPY = −333.33 USD;
    // margin 150 × 100,000 × 1 % = 150,000 JPY = 1,000.00 USD (USDJPY mid 150).
    const exposure = exposureOfPositions([
      { symbol: 'BTCUSDT', side: 'buy', price: 50_000, volume: 2, settledVol: 0 },
      { symbol: 'XAUUSD', side: 'sell', price: 2_000, volume: 0.5, settledVol: 0 },
      { symbol: 'BTCUSDT', side: 'buy', price: 50_300, volume: 1, settledVol: 0 },
      { symbol: 'USDJPY', side: 'buy', price: 150, volume: 1, settledVol: 0 },
    ]);
    const figures = accountFigures(
      100_000,
      exposure,
      market({
        BTCUSDT: { bid: 50_200, ask: 50_200.5 },
        XAUUSD: { bid: 1_990, ask: 1_990.5 },
        USDJPY: { bid: 149.5, ask: 149.51 },
      }),
    );
    expect(figures).toEqual({
      balance: 100_000,
      unrealizedPnl: 441.67, // 300 + 475 − 333.33
      usedMargin: 21_030, // 15,030 + 5,000 + 1,000
      equity: 100_441.67,
      freeMargin: 79_411.67,
      marginLevel: 477.6114, // 100,441.67 / 21,030 × 100, 4 decimals
    });
  });

  it('equity follows the quote; free margin goes negative and the level below 100 %', () => {
    // 18 BTCUSDT @ 50,000: margin 90,000. At the bid 49,000 the loss is 18,000.
    const exposure = [{ symbol: 'BTCUSDT', side: 'buy' as const, volume: 18, notional: 900_000 }];
    const at = (bid: number) =>
      accountFigures(100_000, exposure, market({ BTCUSDT: { bid, ask: bid + 0.5 } }));
    expect(at(50_000)).toMatchObject({
      equity: 100_000,
      freeMargin: 10_000,
      marginLevel: 111.1111,
    });
    expect(at(49_000)).toMatchObject({
      unrealizedPnl: -18_000,
      equity: 82_000,
      usedMargin: 90_000,
      freeMargin: -8_000,
      marginLevel: 91.1111,
    });
  });

  it('a line without a quote adds its margin and no P&L; one without terms adds nothing', () => {
    const exposure = [
      { symbol: 'XAUUSD', side: 'buy' as const, volume: 1, notional: 2_000 },
      { symbol: 'UNKNOWN', side: 'buy' as const, volume: 5, notional: 500 },
    ];
    expect(accountFigures(50_000, exposure, market({}))).toEqual({
      balance: 50_000,
      unrealizedPnl: 0,
      usedMargin: 10_000, // 2,000 × 100 × 5 %
      equity: 50_000,
      freeMargin: 40_000,
      marginLevel: 500,
    });
  });

  it('euros convert at the EURUSD mid, or the fixed 1.08 before it has quoted', () => {
    // GER40 sell 2 @ 18,000 at the ask 17,900: P&L 200 EUR; margin 36,000 × 5 % = 1,800 EUR.
    const exposure = [{ symbol: 'GER40', side: 'sell' as const, volume: 2, notional: 36_000 }];
    const quotes = { GER40: { bid: 17_899, ask: 17_900 } };
    expect(accountFigures(10_000, exposure, market(quotes))).toMatchObject({
      unrealizedPnl: 220, // × 1.1
      usedMargin: 1_980,
    });
    expect(accountFigures(10_000, exposure, market(quotes, {}))).toMatchObject({
      unrealizedPnl: 216, // × 1.08
      usedMargin: 1_944,
    });
  });

  it('floatingPnlOf is the figures’ unrealized P&L', () => {
    const exposure = [{ symbol: 'BTCUSDT', side: 'sell' as const, volume: 0.3, notional: 15_000 }];
    // a sell of 0.3 @ 50,000 buys back at the ask 50,010.5: −10.5 × 0.3 = −3.15
    expect(floatingPnlOf(exposure, market({ BTCUSDT: { bid: 50_010, ask: 50_010.5 } }))).toBe(
      -3.15,
    );
  });
});

describe('exposureOfPositions', () => {
  it('sums the open part of positions per symbol and side', () => {
    expect(
      exposureOfPositions([
        { symbol: 'BTCUSDT', side: 'buy', price: 50_000, volume: 1, settledVol: 0.4 },
        { symbol: 'BTCUSDT', side: 'sell', price: 51_000, volume: 0.2, settledVol: 0 },
        { symbol: 'BTCUSDT', side: 'buy', price: 49_000, volume: 0.1, settledVol: 0 },
        { symbol: 'XAUUSD', side: 'buy', price: 2_000, volume: 1, settledVol: 1 },
      ]),
    ).toEqual([
      // 0.6 @ 50,000 + 0.1 @ 49,000
      { symbol: 'BTCUSDT', side: 'buy', volume: 0.7, notional: 34_900 },
      { symbol: 'BTCUSDT', side: 'sell', volume: 0.2, notional: 10_200 },
    ]);
  });
});

describe('exposureWithPosition', () => {
  it('adds a new position to its line as exposureOfPositions sums it, a new line else', () => {
    const before = exposureOfPositions([
      { symbol: 'BTCUSDT', side: 'buy', price: 50_000, volume: 0.6, settledVol: 0 },
    ]);
    const after = exposureWithPosition(
      exposureWithPosition(before, { symbol: 'BTCUSDT', side: 'buy', price: 49_000, volume: 0.1 }),
      { symbol: 'BTCUSDT', side: 'sell', price: 51_000, volume: 0.2 },
    );
    expect(after).toEqual(
      exposureOfPositions([
        { symbol: 'BTCUSDT', side: 'buy', price: 50_000, volume: 0.6, settledVol: 0 },
        { symbol: 'BTCUSDT', side: 'buy', price: 49_000, volume: 0.1, settledVol: 0 },
        { symbol: 'BTCUSDT', side: 'sell', price: 51_000, volume: 0.2, settledVol: 0 },
      ]),
    );
    // the lines given are not changed
    expect(before).toEqual([{ symbol: 'BTCUSDT', side: 'buy', volume: 0.6, notional: 30_000 }]);
  });
});

describe('openVolumeBySide', () => {
  it('adds the open lots of buys and of sells without float noise', () => {
    expect(
      openVolumeBySide([
        { side: 'buy', volume: 0.1, settledVol: 0 },
        { side: 'buy', volume: 0.2, settledVol: 0 },
        { side: 'sell', volume: 1, settledVol: 0.4 },
      ]),
    ).toEqual({ buy: 0.3, sell: 0.6 });
    expect(openVolumeBySide([])).toEqual({ buy: 0, sell: 0 });
  });
});

describe('margin level', () => {
  it('is equity over used margin in percent, none without margin', () => {
    expect(marginLevelOf(82_000, 90_000)).toBe(91.1111);
    expect(marginLevelOf(100_000, 0)).toBeNull();
  });

  it('warns strictly below the configured level, never without margin', () => {
    expect(isMarginLevelLow(99.9999, 100)).toBe(true);
    expect(isMarginLevelLow(100, 100)).toBe(false);
    expect(isMarginLevelLow(null, 100)).toBe(false);
  });
});
