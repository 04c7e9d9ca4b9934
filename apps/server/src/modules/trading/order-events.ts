import {
  orderEventName,
  orderStateOfPending,
  orderStatusCode,
  orderTransition,
  type OrderEvent,
  type OrderState,
} from '@ct/domain';
import type { Db } from '../../db/types.ts';
import {
  insertOrderEvent,
  insertOrderLog,
  updatePendingLog,
  type OrderLog,
} from './store/history.ts';
import type { Pending } from './store/pendings.ts';

/*
 * Every change of an order goes through the domain's order state machine and is appended to
 * the order event log in the same transaction as the order log row it changes. A new order
 * starts submitted; a pending order's order moves from its pending row's stored status, so
 * an illegal move is an IllegalTransition thrown before anything is written.
 */

/** Logs a new order in the state `event` moves a submitted order to, with its event; returns its id. */
export async function recordNewOrder(
  tx: Db,
  log: Omit<OrderLog, 'id' | 'orderStatus'>,
  event: Extract<OrderEvent, 'Accepted' | 'Filled' | 'Rejected'>,
): Promise<number> {
  const state = orderTransition('submitted', event);
  const orderId = await insertOrderLog(tx, { ...log, orderStatus: orderStatusCode(state) });
  await insertOrderEvent(tx, {
    uuid: log.uuid,
    orderId,
    type: orderEventName(event),
    state,
    price: event === 'Filled' ? log.price : null,
    positionId: log.positionId,
    message: log.message,
    at: log.transactTime,
  });
  return orderId;
}

/** What changes on a pending order's log row when its order moves. */
export type PendingOrderChange = {
  transactTime: number;
  message: string;
  price?: number;
  marketPrice?: number;
  commissionFee?: number;
  positionId?: number;
};

/**
 * Moves the order of a locked pending order (as stored when it was locked) by `event`: its
 * log row takes the new state and the event is appended. Returns the new state.
 */
export async function movePendingOrder(
  tx: Db,
  pending: Pending,
  event: Extract<OrderEvent, 'Filled' | 'Canceled' | 'Expired' | 'Rejected'>,
  change: PendingOrderChange,
): Promise<OrderState> {
  const state = orderTransition(orderStateOfPending(pending.status), event);
  const orderId = await updatePendingLog(tx, pending.id, {
    ...change,
    orderStatus: orderStatusCode(state),
  });
  await insertOrderEvent(tx, {
    uuid: pending.uuid,
    orderId,
    type: orderEventName(event),
    state,
    price: event === 'Filled' ? (change.price ?? null) : null,
    positionId: change.positionId ?? null,
    message: change.message,
    at: change.transactTime,
  });
  return state;
}
