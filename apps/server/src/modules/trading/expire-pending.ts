import { pendingTransition } from '@ct/domain';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { PENDING_TARGET, runTriggerCommand, type CommandScope } from './pipeline.ts';
import { movePendingOrder } from './order-events.ts';
import { finishPending, type Pending } from './store/pendings.ts';

/** Message of the log row of an expired good-for-the-day order. */
export const EXPIRED_MESSAGE = 'Expired at the end of the trading day (GFD)';

/** Expires a locked working pending order inside the caller's command. */
export async function expireLocked(scope: CommandScope, pending: Pending): Promise<Pending> {
  const { tx, nowMs } = scope;
  const expired = await finishPending(tx, pending, {
    status: pendingTransition(pending.status, 'Expired'),
    nowMs,
  });
  if (!expired) throw new ConflictError(`Pending order ${pending.id} changed`);
  await movePendingOrder(scope, pending, 'Expired', {
    transactTime: nowMs,
    message: EXPIRED_MESSAGE,
  });
  scope.after.untrackPending(expired);
  return expired;
}

/** The trigger engine expires a GFD order whose trading day has ended (on a tick or its timer). */
export function expirePending(ctx: TradingContext, pendingId: number): Promise<void> {
  return runTriggerCommand(ctx, PENDING_TARGET, pendingId, async (scope, pending) => {
    if (pending.expiresAt === null || pending.expiresAt > scope.nowMs) return;
    await expireLocked(scope, pending);
  });
}
