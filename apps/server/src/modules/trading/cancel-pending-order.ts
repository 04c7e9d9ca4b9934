import {
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  orderStatusCode,
  orderTransition,
  pendingTransition,
  type PendingDelRequest,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import { accountInit } from './accounts.ts';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { publishAccountEvent } from './events.ts';
import { idempotencyKey, remember, replay, unwrap, type Outcome } from './idempotency.ts';
import type { PendingData } from './place-pending-order.ts';
import {
  finishPending,
  lockAccount,
  lockPending,
  updatePendingLog,
  type Pending,
} from './store.ts';
import { pendingView } from './views.ts';

/** Cancels a working pending order of the account (pending/del); its log row becomes Canceled. */
export async function cancelPendingOrder(
  ctx: TradingContext,
  trader: TraderRow,
  req: PendingDelRequest,
): Promise<{ msg: string; data: PendingData }> {
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'pending/del', { pId: req.pId });
  const nowMs = ctx.now();

  const { outcome, canceled } = await ctx.db.transaction(async (tx) => {
    await lockAccount(tx, trader.uuid, accountInit(trader, nowMs));
    const seen = await replay<PendingData>(tx, key);
    if (seen) return { outcome: seen, canceled: null };

    const pending = await lockPending(tx, Number(req.pId), trader.uuid);
    if (!pending) throw new NotFoundError(TRADING_MESSAGES.pendingNotFound(req.pId));
    if (pending.status !== 'working') {
      throw new ConflictError(TRADING_MESSAGES.pendingNotWorking(req.pId, pending.status));
    }
    const status = pendingTransition(pending.status, 'Canceled');
    const done: Pending | null = await finishPending(tx, pending, { status, nowMs });
    if (!done) throw new ConflictError(TRADING_MESSAGES.pendingNotWorking(req.pId, 'changed'));
    await updatePendingLog(tx, pending.id, {
      orderStatus: orderStatusCode(orderTransition('working', 'Canceled')),
      transactTime: nowMs,
      message: 'Canceled by user',
    });
    const answer: Outcome<PendingData> = {
      ok: true,
      msg: TRADING_SUCCESS.pendingCanceled,
      data: { pending: pendingView(done) },
    };
    await remember(tx, key, answer, nowMs);
    return { outcome: answer, canceled: done };
  });

  if (canceled) {
    ctx.index.untrackPending(canceled.symbol, canceled.id);
    publishAccountEvent(ctx, {
      type: 'pending_canceled',
      uuid: canceled.uuid,
      symbol: canceled.symbol,
      at: nowMs,
      pId: String(canceled.id),
    });
  }
  return unwrap(outcome);
}
