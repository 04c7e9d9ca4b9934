import {
  isPendingTriggered,
  pendingTransition,
  referencePrice,
  sideOfCmd,
  type SimQuote,
} from '@ct/domain';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { expireLocked } from './expire-pending.ts';
import { openPosition } from './fills.ts';
import { marginShortfall } from './margin.ts';
import { movePendingOrder } from './order-events.ts';
import { PENDING_TARGET, runTriggerCommand } from './pipeline.ts';
import { conversionQuotes } from './pricing.ts';
import { finishPending } from './store/pendings.ts';

/**
 * The trigger engine fills a pending order whose price the quote reached: at the quote (a
 * buy at the ask, a sell at the bid), after re-checking under lock that it still works and
 * still triggers. Not enough free margin at that moment rejects it instead.
 */
export function fillPending(
  ctx: TradingContext,
  pendingId: number,
  quote: SimQuote,
): Promise<void> {
  return runTriggerCommand(ctx, PENDING_TARGET, pendingId, async (scope, pending) => {
    const { tx, nowMs, after } = scope;
    if (pending.expiresAt !== null && pending.expiresAt <= nowMs) {
      await expireLocked(scope, pending);
      return;
    }
    const side = sideOfCmd(pending.cmd);
    if (!isPendingTriggered(side, pending.triggerType, pending.pendPrice, quote)) return;
    const instrument = ctx.market.instrument(pending.symbol);
    if (!instrument) return;
    const price = referencePrice(side, quote);
    const quotes = conversionQuotes(ctx.market, nowMs);
    const message = await marginShortfall(
      scope,
      ctx,
      instrument,
      { price, volume: pending.volume },
      nowMs,
      quotes,
    );
    if (message) {
      const rejected = await finishPending(tx, pending, {
        status: pendingTransition(pending.status, 'Rejected'),
        nowMs,
      });
      if (!rejected) throw new ConflictError(`Pending order ${pending.id} changed`);
      await movePendingOrder(scope, pending, 'Rejected', {
        transactTime: nowMs,
        marketPrice: price,
        message,
      });
      after.untrackPending(rejected);
      return;
    }
    const position = await openPosition(scope, ctx, {
      uuid: pending.uuid,
      instrument,
      cmd: pending.cmd === 2 ? 2 : 1,
      volume: pending.volume,
      price,
      tp: pending.tp,
      sl: pending.sl,
      comment: pending.comment,
      clientOrderId: pending.clientOrderId,
      pending,
      nowMs,
      quotes,
    });
    const filled = await finishPending(tx, pending, {
      status: pendingTransition(pending.status, 'Filled'),
      positionId: position.id,
      nowMs,
    });
    if (!filled) throw new ConflictError(`Pending order ${pending.id} changed`);
    after.untrackPending(filled);
    after.trackPosition(position);
  });
}
