import { snapToTick } from '../market/price.ts';
import {
  referencePrice,
  validateLimitPrice,
  validateStopLoss,
  validateTakeProfit,
  type Side,
} from './price-rules.ts';

/*
 * Changing a working pending order (our extension of the spec: the chart drags its line):
 * its new price obeys the ticket's limit-price rule against the live quote, and its TP and
 * SL, measured from the price, follow it.
 */

/** A pending order's price and its TP and SL (0: not set). */
export type PendingLevels = { price: number; tp: number; sl: number };

/**
 * The TP and SL of a pending order whose price moves from `from` to `to`: each set level
 * moves by the same amount, so it keeps its distance in ticks from the price (the ticket
 * keeps TP/SL ticks and the limit price in sync, spec section 4), snapped to the tick; a
 * level of 0 (not set) stays 0.
 */
export function shiftExits(
  exits: { tp: number; sl: number },
  from: number,
  to: number,
  tick: number,
): { tp: number; sl: number } {
  const move = (level: number) => (level > 0 ? snapToTick(level + (to - from), tick) : 0);
  return { tp: move(exits.tp), sl: move(exits.sl) };
}

/**
 * The first rule new levels of a pending order of `side` break, or null: the ticket's
 * limit-price rule (above 0, in the band around the reference price of the side — the ask
 * for a buy, the bid for a sell — and on the tick; without a quote 'No quote available for
 * this instrument'), then its TP and SL rules against the new price (range and whole ticks).
 */
export function validatePendingChange(
  side: Side,
  levels: PendingLevels,
  quote: { bid: number; ask: number } | null,
  tick: number,
): string | null {
  const reference = quote ? referencePrice(side, quote) : null;
  const priceProblem = validateLimitPrice(levels.price, reference, tick);
  if (priceProblem) return priceProblem;
  if (levels.tp !== 0) {
    const problem = validateTakeProfit(side, levels.price, levels.tp, tick);
    if (problem) return problem;
  }
  if (levels.sl !== 0) {
    const problem = validateStopLoss(side, levels.price, levels.sl, tick);
    if (problem) return problem;
  }
  return null;
}
