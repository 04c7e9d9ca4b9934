import {
  snapToTick,
  validateExitAgainstMarket,
  validateStopLoss,
  validateTakeProfit,
  type Side,
} from '@ct/domain';
import { BadRequestError } from '../../http/errors.ts';

/**
 * Checks a TP and an SL (0 = not set) with the domain rules against the order price (side,
 * range and tick), and, when a position would be protected at once, against the current
 * closing price (a level the market has already passed is refused). Throws a 400 with the
 * rule's message; returns both levels snapped to the tick.
 */
export function checkExits(
  side: Side,
  orderPrice: number,
  exits: { tp: number; sl: number },
  tick: number,
  closePrice: number | null,
): { tp: number; sl: number } {
  for (const kind of ['tp', 'sl'] as const) {
    const level = exits[kind];
    if (level === 0) continue;
    const problem =
      (kind === 'tp'
        ? validateTakeProfit(side, orderPrice, level, tick)
        : validateStopLoss(side, orderPrice, level, tick)) ??
      (closePrice === null ? null : validateExitAgainstMarket(kind, side, level, closePrice, tick));
    if (problem) throw new BadRequestError(problem);
  }
  return {
    tp: exits.tp === 0 ? 0 : snapToTick(exits.tp, tick),
    sl: exits.sl === 0 ? 0 : snapToTick(exits.sl, tick),
  };
}
