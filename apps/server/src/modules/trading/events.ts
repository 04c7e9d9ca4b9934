import { accountChannel, type AccountEvent } from '@ct/domain';
import type { TradingContext } from './context.ts';

/**
 * Tells the account's open pages what changed, on its private live channel. Called after
 * the change is committed, by the API use cases and the trigger engine alike.
 */
export function publishAccountEvent(ctx: TradingContext, event: AccountEvent): void {
  ctx.broker.publish(accountChannel(event.uuid), event);
}
