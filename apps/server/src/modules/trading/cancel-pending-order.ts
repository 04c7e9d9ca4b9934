import {
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  pendingTransition,
  type PendingDelRequest,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { NotFoundError } from '../../http/errors.ts';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { idempotencyKey } from './idempotency.ts';
import { movePendingOrder } from './order-events.ts';
import { runAccountCommand } from './pipeline.ts';
import type { PendingData } from './place-pending-order.ts';
import { finishPending, lockPending, type Pending } from './store/pendings.ts';
import { pendingView } from './views.ts';

/** Cancels a working pending order of the account (pending/del); its log row becomes Canceled. */
export async function cancelPendingOrder(
  ctx: TradingContext,
  trader: TraderRow,
  req: PendingDelRequest,
): Promise<{ msg: string; data: PendingData }> {
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'pending/del', { pId: req.pId });
  const nowMs = ctx.now();

  return runAccountCommand<PendingData>(ctx, { trader, key, nowMs }, async (scope) => {
    const pending = await lockPending(scope.tx, Number(req.pId), trader.uuid);
    if (!pending) throw new NotFoundError(TRADING_MESSAGES.pendingNotFound(req.pId));
    if (pending.status !== 'working') {
      throw new ConflictError(TRADING_MESSAGES.pendingNotWorking(req.pId, pending.status));
    }
    const status = pendingTransition(pending.status, 'Canceled');
    const done: Pending | null = await finishPending(scope.tx, pending, { status, nowMs });
    if (!done) throw new ConflictError(TRADING_MESSAGES.pendingNotWorking(req.pId, 'changed'));
    await movePendingOrder(scope, pending, 'Canceled', {
      transactTime: nowMs,
      message: 'Canceled by user',
    });
    scope.after.untrackPending(done);
    return {
      ok: true,
      msg: TRADING_SUCCESS.pendingCanceled,
      data: { pending: pendingView(done) },
    };
  });
}
