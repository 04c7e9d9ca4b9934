import { snapToTick } from '../market/price.ts';
import {
  asLots,
  asPrice,
  roundLots,
  roundMoney,
  type Lots,
  type Money,
  type Of,
  type Price,
} from '../values/units.ts';
import { TOLERANCE } from '../values/tolerance.ts';
import type { Side } from './price-rules.ts';

/*
 * The money arithmetic of a position. Prices, lots and money are branded (values/units.ts):
 * each rule takes `Of<Price>`, `Of<Lots>` or `Of<Money>`, so lots passed where a price goes
 * (or the reverse) fail to type-check, and its answer says what it is.
 */

/** Contract terms the money arithmetic needs. */
export type ContractTerms = { volume_multiple: number; margin_ratio_by_money: number };

/** Volume not yet closed: volume − settledVol, never below 0. */
export function availableVolume(position: { volume: Of<Lots>; settledVol: Of<Lots> }): Lots {
  return roundLots(Math.max(0, position.volume - position.settledVol));
}

/** True when closing `lots` of a position with `available` lots open closes all of it. */
export function isFullClose(lots: Of<Lots>, available: Of<Lots>): boolean {
  return lots >= available - TOLERANCE.quantityBound;
}

/** Trade value in the instrument currency: price × lots × units per lot. */
export function tradeValue(price: Of<Price>, lots: Of<Lots>, terms: ContractTerms): number {
  return price * lots * terms.volume_multiple;
}

/** Initial margin: trade value × margin ratio, 2 decimals. */
export function requiredMargin(price: Of<Price>, lots: Of<Lots>, terms: ContractTerms): Money {
  return roundMoney(tradeValue(price, lots, terms) * terms.margin_ratio_by_money);
}

/** The price at which a margin amount buys `lots` (the ticket's margin ↔ price link). */
export function priceForMargin(margin: Of<Money>, lots: Of<Lots>, terms: ContractTerms): Price {
  const divisor = lots * terms.volume_multiple * terms.margin_ratio_by_money;
  return asPrice(divisor > 0 ? margin / divisor : 0);
}

/** Profit of moving from `openPrice` to `closePrice` on `lots` (buy gains when price rises), 2 decimals. */
export function profitLoss(
  side: Side,
  openPrice: Of<Price>,
  closePrice: Of<Price>,
  lots: Of<Lots>,
  terms: ContractTerms,
): Money {
  const direction = side === 'buy' ? 1 : -1;
  return roundMoney(direction * (closePrice - openPrice) * lots * terms.volume_multiple);
}

/** The price a position closes at: a buy sells at the bid, a sell buys back at the ask. */
export function closingPrice(side: Side, quote: { bid: number; ask: number }): Price {
  return asPrice(side === 'buy' ? quote.bid : quote.ask);
}

/** Lots in standard lots (standard_lot is fixed 1, so lots are standard lots). */
export function standardLots(lots: number): number {
  return lots;
}

/** Commission of `lots` at `perLot` per lot and side, in the instrument currency, 2 decimals. */
export function commissionFor(lots: Of<Lots>, perLot: number): Money {
  return roundMoney(lots * perLot);
}

/**
 * Unrealized profit of the open part of a position at a quote (closing side: a buy at the
 * bid, a sell at the ask), in the instrument currency, 2 decimals.
 */
export function floatingProfit(
  position: { side: Side; price: Of<Price>; volume: Of<Lots>; settledVol: Of<Lots> },
  quote: { bid: number; ask: number },
  terms: ContractTerms,
): Money {
  return profitLoss(
    position.side,
    position.price,
    closingPrice(position.side, quote),
    availableVolume(position),
    terms,
  );
}

/** Snaps a quantity to its step grid (kills float noise such as 0.30000000000000004). */
export function normalizeQuantity(quantity: Of<Lots>, step: number): Lots {
  return asLots(snapToTick(quantity, step));
}
