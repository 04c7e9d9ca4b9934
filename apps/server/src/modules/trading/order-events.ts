import {
  ACTION,
  orderEventName,
  orderStateOfPending,
  orderStatusCode,
  orderTransition,
  type OrderEvent,
  type OrderState,
  type Lots,
  type Of,
  type Price,
} from '@ct/domain';
import type { Journal } from './journal.ts';
import {
  insertOrderWithEvent,
  updateOrderWithEvent,
  type NewOrderEvent,
  type OrderEventRecord,
  type OrderLog,
  type OrderLogChange,
} from './store/history.ts';
import type { Pending } from './store/pendings.ts';
import { insertPositionWithOrder, type NewPosition, type Position } from './store/positions.ts';

/*
 * Every change of an order is an event: it goes through the domain's order state machine
 * and is appended to `order_events`. The order log is the events' projection: the first
 * event of an order carries every column of its log row and inserts it, a later event
 * carries what it changes and updates it — in the same statement, by `appendOrderEvent`
 * only, so nothing writes the log except by applying an event. `projectOrderLog` folds the
 * same functions over stored events (rebuilding the log). A new order starts submitted; a
 * pending order's order moves from its pending row's stored status, so an illegal move is
 * an IllegalTransition thrown before anything is written. The appended events are recorded
 * in the command's journal, from which the account's live events are derived.
 */

/** The log row an order's first event creates. */
export function orderLogOfFirstEvent(e: Omit<OrderEventRecord, 'id'>): Omit<OrderLog, 'id'> {
  const o = e.order;
  if (!o || e.symbol === null)
    throw new Error(`order ${e.orderId}: its first event lacks the order`);
  return {
    uuid: e.uuid,
    symbol: e.symbol,
    cmd: o.cmd,
    actionType: o.actionType,
    orderType: o.orderType,
    volume: o.volume,
    price: e.price ?? o.requestedPrice,
    marketPrice: e.marketPrice ?? 0,
    orderStatus: orderStatusCode(e.state as OrderState),
    createdAt: e.at,
    transactTime: e.at,
    commissionFee: e.commissionFee ?? 0,
    currency: o.currency,
    tp: o.tp,
    sl: o.sl,
    positionId: e.positionId,
    pendingId: e.pendingId,
    message: e.message,
    clientOrderId: o.clientOrderId,
  };
}

/** What a later event of an order changes on its log row. */
export function orderLogChangeOf(e: Omit<OrderEventRecord, 'id'>): OrderLogChange {
  return {
    orderStatus: orderStatusCode(e.state as OrderState),
    transactTime: e.at,
    message: e.message,
    ...(e.price !== null ? { price: e.price } : {}),
    ...(e.marketPrice !== null ? { marketPrice: e.marketPrice } : {}),
    ...(e.commissionFee !== null ? { commissionFee: e.commissionFee } : {}),
    ...(e.positionId !== null ? { positionId: e.positionId } : {}),
  };
}

/** The order log of stored events (oldest first), newest order first as the log lists it. */
export function projectOrderLog(events: readonly OrderEventRecord[]): OrderLog[] {
  const rows = new Map<number, OrderLog>();
  for (const e of events) {
    const row = rows.get(e.orderId);
    if (e.fromState === 'submitted' || !row) {
      rows.set(e.orderId, { id: e.orderId, ...orderLogOfFirstEvent(e) });
    } else {
      rows.set(e.orderId, { ...row, ...orderLogChangeOf(e) });
    }
  }
  return [...rows.values()].sort((a, b) => b.id - a.id);
}

/**
 * Appends an order event and applies it to the order log (insert for an order's first
 * event, update for a later one), records it in the journal; returns the order's id.
 */
export async function appendOrderEvent(journal: Journal, e: NewOrderEvent): Promise<number> {
  const first = e.fromState === 'submitted';
  const orderId = first
    ? await insertOrderWithEvent(journal.tx, e, orderLogOfFirstEvent({ ...e, orderId: 0 }))
    : await updateOrderWithEvent(journal.tx, e, orderLogChangeOf({ ...e, orderId: 0 }));
  journal.record({ kind: 'order', event: { ...e, orderId } });
  return orderId;
}

/** A new order as its first event describes it. */
export type NewOrder = {
  uuid: string;
  symbol: string;
  cmd: number;
  actionType: number;
  orderType: number;
  volume: Of<Lots>;
  /** The order's own price: a pending order's price, 0 for a market order. */
  requestedPrice: Of<Price>;
  /** The fill price (Filled only). */
  fillPrice?: Of<Price>;
  marketPrice: Of<Price>;
  commissionFee: number;
  currency: string;
  tp: number;
  sl: number;
  positionId: number | null;
  pendingId: number | null;
  message: string;
  clientOrderId: string | null;
  nowMs: number;
};

/** A new order, moved from submitted by `event`: its first event; returns its id. */
export function recordNewOrder(
  journal: Journal,
  order: NewOrder,
  event: Extract<OrderEvent, 'Accepted' | 'Filled' | 'Rejected'>,
): Promise<number> {
  return appendOrderEvent(journal, firstEventOf(order, event));
}

/** A change of a position's TP/SL or of a pending order, as its Modify row records it. */
export type Modification = {
  uuid: string;
  symbol: string;
  cmd: number;
  /** What was changed: a position (1, market) or a pending order (2). */
  orderType: number;
  volume: Of<Lots>;
  /** The position's open price, or the pending order's new price. */
  price: Of<Price>;
  /** The quote of the moment (0 when the instrument never quoted). */
  marketPrice: Of<Price>;
  currency: string;
  /** The new levels (0: not set). */
  tp: number;
  sl: number;
  positionId: number | null;
  pendingId: number | null;
  clientOrderId: string | null;
  nowMs: number;
};

/**
 * The Modify row of a change (actionType 3, our extension of the spec's 1 Open, 2 Close): an
 * order that is filled at once (status 2) at `price`, without commission, carrying the new
 * levels. It opens and closes nothing: fills, settlements and account figures ignore it.
 */
export function recordModification(journal: Journal, m: Modification): Promise<number> {
  return recordNewOrder(
    journal,
    {
      ...m,
      actionType: ACTION.modify,
      requestedPrice: m.price,
      fillPrice: m.price,
      commissionFee: 0,
      message: '',
    },
    'Filled',
  );
}

/** The first event of a new order, moved from submitted by `event`. */
export function firstEventOf(
  order: NewOrder,
  event: Extract<OrderEvent, 'Accepted' | 'Filled' | 'Rejected'>,
): NewOrderEvent {
  const state = orderTransition('submitted', event);
  return {
    uuid: order.uuid,
    type: orderEventName(event),
    fromState: 'submitted',
    state,
    symbol: order.symbol,
    pendingId: order.pendingId,
    positionId: order.positionId,
    price: event === 'Filled' ? (order.fillPrice ?? null) : null,
    marketPrice: order.marketPrice,
    commissionFee: order.commissionFee,
    message: order.message,
    at: order.nowMs,
    order: {
      cmd: order.cmd,
      actionType: order.actionType,
      orderType: order.orderType,
      volume: order.volume,
      requestedPrice: order.requestedPrice,
      currency: order.currency,
      tp: order.tp,
      sl: order.sl,
      clientOrderId: order.clientOrderId,
    },
  };
}

/**
 * A new market order that fills at once and opens `position`: the statement that opens the
 * position also appends the order's first event (OrderFilled) and inserts its log row, the
 * position being the new one (insertPositionWithOrder), so the order costs one statement.
 * The event is recorded in the journal with the position's id; returns the position.
 */
export async function openPositionWithOrder(
  journal: Journal,
  position: NewPosition,
  commission: number,
  order: Omit<NewOrder, 'positionId'>,
): Promise<Position> {
  const e = firstEventOf({ ...order, positionId: null }, 'Filled');
  const opened = await insertPositionWithOrder(
    journal.tx,
    position,
    commission,
    e,
    orderLogOfFirstEvent({ ...e, orderId: 0 }),
  );
  journal.record({
    kind: 'order',
    event: { ...e, positionId: opened.position.id, orderId: opened.orderId },
  });
  return opened.position;
}

/** What changes on a pending order's order when it moves. */
export type PendingOrderChange = {
  transactTime: number;
  message: string;
  price?: number;
  marketPrice?: number;
  commissionFee?: number;
  positionId?: number;
};

/**
 * Moves the order of a locked pending order (as stored when it was locked) by `event`: the
 * event is appended and its log row follows. Returns the new state.
 */
export async function movePendingOrder(
  journal: Journal,
  pending: Pending,
  event: Extract<OrderEvent, 'Filled' | 'Canceled' | 'Expired' | 'Rejected'>,
  change: PendingOrderChange,
): Promise<OrderState> {
  const from = orderStateOfPending(pending.status);
  const state = orderTransition(from, event);
  await appendOrderEvent(journal, {
    uuid: pending.uuid,
    type: orderEventName(event),
    fromState: from,
    state,
    symbol: pending.symbol,
    pendingId: pending.id,
    positionId: change.positionId ?? null,
    price: event === 'Filled' ? (change.price ?? null) : null,
    marketPrice: change.marketPrice ?? null,
    commissionFee: change.commissionFee ?? null,
    message: change.message,
    at: change.transactTime,
    order: null,
  });
  return state;
}
