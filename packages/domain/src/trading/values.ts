import { PNL_DECIMALS, roundLots, roundTo, snapToTick, TOLERANCE } from '../market/price.ts';
import type { Side } from './price-rules.ts';

/** Contract terms the money arithmetic needs. */
export type ContractTerms = { volume_multiple: number; margin_ratio_by_money: number };

/** Volume not yet closed: volume − settledVol, never below 0. */
export function availableVolume(position: { volume: number; settledVol: number }): number {
  return Math.max(0, roundLots(position.volume - position.settledVol));
}

/** True when closing `lots` of a position with `available` lots open closes all of it. */
export function isFullClose(lots: number, available: number): boolean {
  return lots >= available - TOLERANCE.quantityBound;
}

/** Trade value in the instrument currency: price × lots × units per lot. */
export function tradeValue(price: number, lots: number, terms: ContractTerms): number {
  return price * lots * terms.volume_multiple;
}

/** Initial margin: trade value × margin ratio, 2 decimals. */
export function requiredMargin(price: number, lots: number, terms: ContractTerms): number {
  return roundTo(tradeValue(price, lots, terms) * terms.margin_ratio_by_money, PNL_DECIMALS);
}

/** The price at which a margin amount buys `lots` (the ticket's margin ↔ price link). */
export function priceForMargin(margin: number, lots: number, terms: ContractTerms): number {
  const divisor = lots * terms.volume_multiple * terms.margin_ratio_by_money;
  return divisor > 0 ? margin / divisor : 0;
}

/** Profit of moving from `openPrice` to `closePrice` on `lots` (buy gains when price rises), 2 decimals. */
export function profitLoss(
  side: Side,
  openPrice: number,
  closePrice: number,
  lots: number,
  terms: ContractTerms,
): number {
  const direction = side === 'buy' ? 1 : -1;
  return roundTo(direction * (closePrice - openPrice) * lots * terms.volume_multiple, PNL_DECIMALS);
}

/** The price a position closes at: a buy sells at the bid, a sell buys back at the ask. */
export function closingPrice(side: Side, quote: { bid: number; ask: number }): number {
  return side === 'buy' ? quote.bid : quote.ask;
}

/** Lots in standard lots (standard_lot is fixed 1, so lots are standard lots). */
export function standardLots(lots: number): number {
  return lots;
}

/** Commission of `lots` at `perLot` per lot and side, in the instrument currency, 2 decimals. */
export function commissionFor(lots: number, perLot: number): number {
  return roundTo(lots * perLot, PNL_DECIMALS);
}

/**
 * Unrealized profit of the open part of a position at a quote (closing side: a buy at the
 * bid, a sell at the ask), in the instrument currency, 2 decimals.
 */
export function floatingProfit(
  position: { side: Side; price: number; volume: number; settledVol: number },
  quote: { bid: number; ask: number },
  terms: ContractTerms,
): number {
  return profitLoss(
    position.side,
    position.price,
    closingPrice(position.side, quote),
    availableVolume(position),
    terms,
  );
}

/** Snaps a quantity to its step grid (kills float noise such as 0.30000000000000004). */
export function normalizeQuantity(quantity: number, step: number): number {
  return snapToTick(quantity, step);
}
