import {
  isPendingTriggered,
  orderStatusCode,
  orderTransition,
  pendingTransition,
  referencePrice,
  sideOfCmd,
  type SimQuote,
} from '@ct/domain';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { publishAccountEvent } from './events.ts';
import { expireLocked } from './expire-pending.ts';
import { openPosition } from './fills.ts';
import { marginShortfall } from './margin.ts';
import { conversionQuotes } from './pricing.ts';
import {
  findPending,
  finishPending,
  lockAccount,
  lockPending,
  updatePendingLog,
  type Pending,
  type Position,
} from './store.ts';

type FillResult =
  | { kind: 'gone'; pending: Pending | null }
  | { kind: 'waiting' }
  | { kind: 'expired'; pending: Pending }
  | { kind: 'rejected'; pending: Pending; message: string }
  | { kind: 'filled'; pending: Pending; position: Position };

/**
 * The trigger engine fills a pending order whose price the quote reached: at the quote (a
 * buy at the ask, a sell at the bid), after re-checking under lock that it still works and
 * still triggers. Not enough free margin at that moment rejects it instead.
 */
export async function fillPending(
  ctx: TradingContext,
  pendingId: number,
  quote: SimQuote,
): Promise<void> {
  const nowMs = ctx.now();
  const result = await ctx.db.transaction(async (tx): Promise<FillResult> => {
    const seen = await findPending(tx, pendingId);
    if (!seen || seen.status !== 'working') return { kind: 'gone', pending: seen };
    const account = await lockAccount(tx, seen.uuid, null);
    const pending = await lockPending(tx, pendingId);
    if (!account || !pending || pending.status !== 'working') return { kind: 'gone', pending };
    if (pending.expiresAt !== null && pending.expiresAt <= nowMs) {
      return { kind: 'expired', pending: await expireLocked(tx, pending, nowMs) };
    }
    const side = sideOfCmd(pending.cmd);
    if (!isPendingTriggered(side, pending.triggerType, pending.pendPrice, quote)) {
      return { kind: 'waiting' };
    }
    const instrument = ctx.market.instrument(pending.symbol);
    if (!instrument) return { kind: 'waiting' };
    const price = referencePrice(side, quote);
    const quotes = conversionQuotes(ctx.market, nowMs);
    const message = await marginShortfall(
      tx,
      ctx,
      account,
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
      await updatePendingLog(tx, pending.id, {
        orderStatus: orderStatusCode(orderTransition('working', 'Rejected')),
        transactTime: nowMs,
        marketPrice: price,
        message,
      });
      return { kind: 'rejected', pending: rejected, message };
    }
    const position = await openPosition(tx, ctx, {
      uuid: pending.uuid,
      instrument,
      cmd: pending.cmd === 2 ? 2 : 1,
      volume: pending.volume,
      price,
      tp: pending.tp,
      sl: pending.sl,
      comment: pending.comment,
      clientOrderId: pending.clientOrderId,
      pendingId: pending.id,
      nowMs,
      quotes,
    });
    const filled = await finishPending(tx, pending, {
      status: pendingTransition(pending.status, 'Filled'),
      positionId: position.id,
      nowMs,
    });
    if (!filled) throw new ConflictError(`Pending order ${pending.id} changed`);
    return { kind: 'filled', pending: filled, position };
  });

  switch (result.kind) {
    case 'waiting':
      return;
    case 'gone':
      if (result.pending) ctx.index.untrackPending(result.pending.symbol, result.pending.id);
      return;
    case 'expired':
      ctx.index.untrackPending(result.pending.symbol, result.pending.id);
      publishAccountEvent(ctx, {
        type: 'pending_expired',
        uuid: result.pending.uuid,
        symbol: result.pending.symbol,
        at: nowMs,
        pId: String(result.pending.id),
      });
      return;
    case 'rejected':
      ctx.index.untrackPending(result.pending.symbol, result.pending.id);
      publishAccountEvent(ctx, {
        type: 'pending_rejected',
        uuid: result.pending.uuid,
        symbol: result.pending.symbol,
        at: nowMs,
        pId: String(result.pending.id),
        message: result.message,
      });
      return;
    case 'filled':
      ctx.index.untrackPending(result.pending.symbol, result.pending.id);
      ctx.index.trackPosition(result.position);
      publishAccountEvent(ctx, {
        type: 'pending_filled',
        uuid: result.pending.uuid,
        symbol: result.pending.symbol,
        at: nowMs,
        pId: String(result.pending.id),
        orderId: String(result.position.id),
      });
      return;
  }
}
