import { CLOSE_REASON, availableVolume, exitTriggered, sideOfCmd, type SimQuote } from '@ct/domain';
import type { TradingContext } from './context.ts';
import { publishAccountEvent } from './events.ts';
import { settlePosition } from './fills.ts';
import { conversionQuotes } from './pricing.ts';
import {
  findPosition,
  lockAccount,
  lockPosition,
  type Position,
  type Settlement,
} from './store.ts';

/**
 * The trigger engine closes a position whose TP or SL the quote crossed: the whole open
 * volume at that quote, with the reason recorded (settlement closeReason 1 take-profit, 2
 * stop-loss). The levels are re-read under lock, so an edit or a close that came first wins.
 */
export async function triggerExit(
  ctx: TradingContext,
  positionId: number,
  quote: SimQuote,
): Promise<void> {
  const nowMs = ctx.now();
  const result = await ctx.db.transaction(
    async (
      tx,
    ): Promise<{
      gone: Position | null;
      closed: { position: Position; settlement: Settlement } | null;
    }> => {
      const seen = await findPosition(tx, positionId);
      if (!seen || seen.status !== 'open') return { gone: seen, closed: null };
      await lockAccount(tx, seen.uuid, null);
      const position = await lockPosition(tx, seen.uuid, positionId);
      if (!position || position.status !== 'open') return { gone: position, closed: null };
      const hit = exitTriggered(sideOfCmd(position.cmd), position, quote);
      const instrument = ctx.market.instrument(position.symbol);
      if (!hit || !instrument) return { gone: null, closed: null };
      const closed = await settlePosition(tx, ctx, {
        position,
        instrument,
        volume: availableVolume(position),
        quote,
        reason: hit === 'tp' ? CLOSE_REASON.takeProfit : CLOSE_REASON.stopLoss,
        closeType: 0,
        clientOrderId: null,
        nowMs,
        quotes: conversionQuotes(ctx.market, nowMs),
      });
      return { gone: null, closed };
    },
  );
  if (result.gone) ctx.index.untrackPosition(result.gone.symbol, result.gone.id);
  if (result.closed) {
    const { position, settlement } = result.closed;
    ctx.index.untrackPosition(position.symbol, position.id);
    publishAccountEvent(ctx, {
      type: 'position_closed',
      uuid: position.uuid,
      symbol: position.symbol,
      at: nowMs,
      orderId: String(position.id),
      tradeId: String(settlement.id),
      volume: settlement.settleVolume,
      full: true,
      closeReason: settlement.closeReason,
    });
  }
}
