import { orderStatusCode, orderTransition, pendingTransition } from '@ct/domain';
import type { Db } from '../../db/types.ts';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { publishAccountEvent } from './events.ts';
import {
  findPending,
  finishPending,
  lockAccount,
  lockPending,
  updatePendingLog,
  type Pending,
} from './store.ts';

/** Message of the log row of an expired good-for-the-day order. */
export const EXPIRED_MESSAGE = 'Expired at the end of the trading day (GFD)';

/** Expires a locked working pending order inside the caller's transaction. */
export async function expireLocked(tx: Db, pending: Pending, nowMs: number): Promise<Pending> {
  const expired = await finishPending(tx, pending, {
    status: pendingTransition(pending.status, 'Expired'),
    nowMs,
  });
  if (!expired) throw new ConflictError(`Pending order ${pending.id} changed`);
  await updatePendingLog(tx, pending.id, {
    orderStatus: orderStatusCode(orderTransition('working', 'Expired')),
    transactTime: nowMs,
    message: EXPIRED_MESSAGE,
  });
  return expired;
}

/** The trigger engine expires a GFD order whose trading day has ended (on a tick or its timer). */
export async function expirePending(ctx: TradingContext, pendingId: number): Promise<void> {
  const nowMs = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    const seen = await findPending(tx, pendingId);
    if (!seen || seen.status !== 'working') return { expired: null, gone: seen };
    await lockAccount(tx, seen.uuid, null);
    const pending = await lockPending(tx, pendingId);
    if (!pending || pending.status !== 'working') return { expired: null, gone: pending };
    if (pending.expiresAt === null || pending.expiresAt > nowMs)
      return { expired: null, gone: null };
    return { expired: await expireLocked(tx, pending, nowMs), gone: null };
  });
  if (result.gone) ctx.index.untrackPending(result.gone.symbol, result.gone.id);
  if (result.expired) {
    ctx.index.untrackPending(result.expired.symbol, result.expired.id);
    publishAccountEvent(ctx, {
      type: 'pending_expired',
      uuid: result.expired.uuid,
      symbol: result.expired.symbol,
      at: nowMs,
      pId: String(result.expired.id),
    });
  }
}
