import {
  formatPrice,
  isOnTick,
  isPriceWithin,
  roundTo,
  snapToTick,
  snapToTickDirected,
  tickDecimals,
} from '../market/price.ts';
import { TOLERANCE } from '../values/tolerance.ts';
import { asPrice, type Price } from '../values/units.ts';

export type Side = 'buy' | 'sell';

/** Limit price band around the reference price (spec sections 5 and 9). */
export const LIMIT_BAND = {
  belowMin: 0.8,
  belowMax: 0.999,
  aboveMin: 1.001,
  aboveMax: 1.2,
} as const;

export const PRICE_MESSAGES = {
  limitNotPositive: 'Limit order price must be greater than 0',
  /** Names both ranges: below the market (0.8–0.999 ×) and above it (1.001–1.2 ×). */
  limitOutOfBand: (belowMin: string, belowMax: string, aboveMin: string, aboveMax: string) =>
    `Limit price must be between ${belowMin} and ${belowMax} (below the market) or between ${aboveMin} and ${aboveMax} (above the market)`,
  limitTick: (tick: string) => `Limit price must be a multiple of the tick size ${tick}`,
  noQuote: 'No quote available for this instrument',
  tpRange: (min: string, max: string) => `TP price must be between ${min} and ${max}`,
  slRange: (min: string, max: string) => `SL price must be between ${min} and ${max}`,
  tpTick: 'TP price difference from the order price must be a multiple of the tick size',
  slTick: 'SL price difference from the order price must be a multiple of the tick size',
  /** A TP/SL the current closing price has already passed would fire at once. */
  exitAlreadyReached: (kind: 'TP' | 'SL', relation: 'above' | 'below', price: string) =>
    `${kind} price must be ${relation} the current price ${price}`,
} as const;

/** The reference price of a side: buy uses the ask, sell the bid. */
export function referencePrice(side: Side, quote: { bid: number; ask: number }): Price {
  return asPrice(side === 'buy' ? quote.ask : quote.bid);
}

export type PriceRange = { min: number; max: number };

/** A range of `price` × [lo, hi] snapped inwards to the tick grid. */
function snappedRange(price: number, lo: number, hi: number, tick: number): PriceRange {
  return {
    min: snapToTickDirected(price * lo, tick, 'up'),
    max: snapToTickDirected(price * hi, tick, 'down'),
  };
}

/**
 * The band a limit price must lie in, given the reference price: below the reference
 * 0.8–0.999 of it, otherwise 1.001–1.2 of it; both ends on the tick grid.
 */
export function limitPriceBand(price: number, reference: number, tick: number): PriceRange {
  return price < reference
    ? snappedRange(reference, LIMIT_BAND.belowMin, LIMIT_BAND.belowMax, tick)
    : snappedRange(reference, LIMIT_BAND.aboveMin, LIMIT_BAND.aboveMax, tick);
}

/** Both limit ranges around the reference price, each on the tick grid (see limitPriceBand). */
export function limitPriceBands(
  reference: number,
  tick: number,
): { below: PriceRange; above: PriceRange } {
  return {
    below: snappedRange(reference, LIMIT_BAND.belowMin, LIMIT_BAND.belowMax, tick),
    above: snappedRange(reference, LIMIT_BAND.aboveMin, LIMIT_BAND.aboveMax, tick),
  };
}

/**
 * The valid limit price nearest to `price` (on the tick grid, inside one of the two ranges
 * around the reference price): `price` itself when valid. A price in the gap around the
 * reference goes to the closer range's edge; on a tie, and for a price that is not a
 * positive number, the side's resting range wins (a buy below the ask, a sell above the bid).
 * Null without a reference price above 0.
 */
export function nearestValidLimitPrice(
  side: Side,
  price: number | null,
  reference: number | null,
  tick: number,
): number | null {
  if (reference === null || !(reference > 0)) return null;
  const { below, above } = limitPriceBands(reference, tick);
  const resting = side === 'buy' ? below : above;
  if (price === null || !Number.isFinite(price) || price <= 0) {
    return side === 'buy' ? resting.max : resting.min;
  }
  const clampInto = (range: PriceRange) =>
    Math.min(Math.max(snapToTick(price, tick), range.min), range.max);
  const low = clampInto(below);
  const high = clampInto(above);
  const dLow = Math.abs(price - low);
  const dHigh = Math.abs(price - high);
  if (Math.abs(dLow - dHigh) <= tick * TOLERANCE.onGrid) return side === 'buy' ? low : high;
  return dLow < dHigh ? low : high;
}

/**
 * The first limit-price rule `price` breaks, or null: above 0, inside the band around the
 * reference price (see limitPriceBand), and on the tick grid.
 */
export function validateLimitPrice(
  price: number,
  reference: number | null,
  tick: number,
): string | null {
  if (!Number.isFinite(price) || price <= 0) return PRICE_MESSAGES.limitNotPositive;
  if (reference === null || !(reference > 0)) return PRICE_MESSAGES.noQuote;
  const band = limitPriceBand(price, reference, tick);
  if (!isPriceWithin(price, band)) {
    const { below, above } = limitPriceBands(reference, tick);
    const text = (value: number) => formatPrice(value, tick);
    return PRICE_MESSAGES.limitOutOfBand(
      text(below.min),
      text(below.max),
      text(above.min),
      text(above.max),
    );
  }
  if (!isOnTick(price, tick)) return PRICE_MESSAGES.limitTick(formatPrice(tick, tick));
  return null;
}

/**
 * Where take-profit may lie for an order at `price`: above it for a buy (1.001–1.2 ×),
 * below it for a sell (0.8–0.999 ×), snapped inwards to the tick.
 */
export function takeProfitRange(side: Side, price: number, tick: number): PriceRange {
  return side === 'buy'
    ? snappedRange(price, LIMIT_BAND.aboveMin, LIMIT_BAND.aboveMax, tick)
    : snappedRange(price, LIMIT_BAND.belowMin, LIMIT_BAND.belowMax, tick);
}

/** Where stop-loss may lie: the mirror of take-profit. */
export function stopLossRange(side: Side, price: number, tick: number): PriceRange {
  return takeProfitRange(side === 'buy' ? 'sell' : 'buy', price, tick);
}

function validateExit(
  kind: 'tp' | 'sl',
  side: Side,
  orderPrice: number,
  exitPrice: number,
  tick: number,
): string | null {
  const range =
    kind === 'tp' ? takeProfitRange(side, orderPrice, tick) : stopLossRange(side, orderPrice, tick);
  const message = kind === 'tp' ? PRICE_MESSAGES.tpRange : PRICE_MESSAGES.slRange;
  if (!isPriceWithin(exitPrice, range)) {
    return message(formatPrice(range.min, tick), formatPrice(range.max, tick));
  }
  if (!isOnTick(roundTo(exitPrice - orderPrice, 10), tick)) {
    return kind === 'tp' ? PRICE_MESSAGES.tpTick : PRICE_MESSAGES.slTick;
  }
  return null;
}

/** Take-profit rule of the ticket and the edit panel (spec section 5); null when valid. */
export function validateTakeProfit(
  side: Side,
  orderPrice: number,
  tp: number,
  tick: number,
): string | null {
  return validateExit('tp', side, orderPrice, tp, tick);
}

/** Stop-loss rule (the mirror of take-profit); null when valid. */
export function validateStopLoss(
  side: Side,
  orderPrice: number,
  sl: number,
  tick: number,
): string | null {
  return validateExit('sl', side, orderPrice, sl, tick);
}

/** TP/SL price `ticks` ticks away from the order price, on the profitable or losing side. */
export function exitPriceFromTicks(
  kind: 'tp' | 'sl',
  side: Side,
  orderPrice: number,
  ticks: number,
  tick: number,
): number {
  const direction = (kind === 'tp') === (side === 'buy') ? 1 : -1;
  return roundTo(orderPrice + direction * ticks * tick, tickDecimals(tick));
}

/** Whole ticks between an order price and a TP/SL price (absolute, rounded). */
export function ticksFromExitPrice(orderPrice: number, exitPrice: number, tick: number): number {
  return Math.round(Math.abs(exitPrice - orderPrice) / tick);
}

/**
 * A TP or SL the market has already passed would close the position on the next tick, so
 * it is refused: for a buy (closed at the bid) TP must be above and SL below the bid, for a
 * sell (closed at the ask) TP below and SL above the ask. `closePrice` is that bid or ask.
 */
export function validateExitAgainstMarket(
  kind: 'tp' | 'sl',
  side: Side,
  exitPrice: number,
  closePrice: number,
  tick: number,
): string | null {
  const mustBeAbove = (kind === 'tp') === (side === 'buy');
  const ok = mustBeAbove ? exitPrice > closePrice : exitPrice < closePrice;
  if (ok) return null;
  return PRICE_MESSAGES.exitAlreadyReached(
    kind === 'tp' ? 'TP' : 'SL',
    mustBeAbove ? 'above' : 'below',
    formatPrice(closePrice, tick),
  );
}
