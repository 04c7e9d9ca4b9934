import type { Side } from './price-rules.ts';

/**
 * How a pending order works, fixed when it is placed from where its price lies against the
 * reference price (ask for a buy, bid for a sell):
 * - `limit`: a buy below the ask fills when the ask falls to its price or lower; a sell
 *   above the bid fills when the bid rises to its price or higher;
 * - `stop`: a buy above the ask fills when the ask rises to its price or higher; a sell
 *   below the bid fills when the bid falls to its price or lower.
 */
export type PendingTrigger = 'limit' | 'stop';

export function pendingTriggerType(side: Side, price: number, reference: number): PendingTrigger {
  if (side === 'buy') return price < reference ? 'limit' : 'stop';
  return price > reference ? 'limit' : 'stop';
}

/** True when the quote reaches a pending order's price (see PendingTrigger). */
export function isPendingTriggered(
  side: Side,
  trigger: PendingTrigger,
  price: number,
  quote: { bid: number; ask: number },
): boolean {
  const market = side === 'buy' ? quote.ask : quote.bid;
  const fillsAtOrBelow = (side === 'buy') === (trigger === 'limit');
  return fillsAtOrBelow ? market <= price : market >= price;
}

/**
 * Which exit a quote triggers on an open position, or null. A buy closes at the bid: TP
 * when bid >= tp, SL when bid <= sl; a sell closes at the ask: TP when ask <= tp, SL when
 * ask >= sl. A tp or sl of 0 (or less) is not set. When both hold (a gap over a crossed
 * pair, impossible with valid prices) the stop-loss wins.
 */
export function exitTriggered(
  side: Side,
  exits: { tp: number; sl: number },
  quote: { bid: number; ask: number },
): 'tp' | 'sl' | null {
  const price = side === 'buy' ? quote.bid : quote.ask;
  const up = side === 'buy' ? 1 : -1;
  if (exits.sl > 0 && up * (price - exits.sl) <= 0) return 'sl';
  if (exits.tp > 0 && up * (price - exits.tp) >= 0) return 'tp';
  return null;
}
