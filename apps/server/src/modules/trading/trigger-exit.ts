import { CLOSE_REASON, availableVolume, exitTriggered, sideOfCmd, type SimQuote } from '@ct/domain';
import type { TradingContext } from './context.ts';
import { settlePosition } from './fills.ts';
import { POSITION_TARGET, runTriggerCommand } from './pipeline.ts';
import { conversionQuotes } from './pricing.ts';

/**
 * The trigger engine closes a position whose TP or SL the quote crossed: the whole open
 * volume at that quote, with the reason recorded (settlement closeReason 1 take-profit, 2
 * stop-loss). The levels are re-read under lock, so an edit or a close that came first wins.
 */
export function triggerExit(
  ctx: TradingContext,
  positionId: number,
  quote: SimQuote,
): Promise<void> {
  return runTriggerCommand(ctx, POSITION_TARGET, positionId, async (scope, position) => {
    const hit = exitTriggered(sideOfCmd(position.cmd), position, quote);
    const instrument = ctx.market.instrument(position.symbol);
    if (!hit || !instrument) return;
    const { position: closed } = await settlePosition(scope, ctx, {
      position,
      instrument,
      volume: availableVolume(position),
      quote,
      reason: hit === 'tp' ? CLOSE_REASON.takeProfit : CLOSE_REASON.stopLoss,
      closeType: 0,
      clientOrderId: null,
      nowMs: scope.nowMs,
      quotes: conversionQuotes(ctx.market, scope.nowMs),
    });
    scope.after.untrackPosition(closed);
  });
}
