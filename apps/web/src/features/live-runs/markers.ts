import type { OrderLogView } from '@ct/domain';
import { liveRunIdOf } from './logic';

/*
 * The live runs' colour of their own: their fills on the price chart and the forward line
 * of the comparison. One violet for both sides (the arrow's direction and its text tell the
 * side); readable on the light and the dark chart background (contrast above 3:1 on both).
 */
export const LIVE_COLOR = '#9254de';

/** True for an order a live run sent (its idempotency key names the run). */
export function isLiveRunOrder(log: Pick<OrderLogView, 'clientOrderId'>): boolean {
  return liveRunIdOf(log) !== null;
}
