/**
 * Lifecycles of the venue's records as explicit state machines: every status change goes
 * through `transition(…)`, and a move the table does not allow is an IllegalTransition.
 */
export class IllegalTransition extends Error {
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly event: string,
  ) {
    super(`${machine}: cannot ${event} when ${from}`);
    this.name = 'IllegalTransition';
  }
}

/**
 * A state machine from its table: `table[from][event]` is the state after `event`; a missing
 * entry is a move the lifecycle refuses (IllegalTransition).
 */
export function machine<S extends string, E extends string>(
  name: string,
  table: Record<S, Partial<Record<E, S>>>,
) {
  return (from: S, event: E): S => {
    const to = table[from][event];
    if (to === undefined) throw new IllegalTransition(name, from, event);
    return to;
  };
}

/** A position: open until fully closed; partial closes keep it open. */
export type PositionStatus = 'open' | 'closed';
export type PositionEvent = 'PartiallyClosed' | 'FullyClosed' | 'ProtectionChanged';
export const positionTransition = machine<PositionStatus, PositionEvent>('position', {
  open: { PartiallyClosed: 'open', FullyClosed: 'closed', ProtectionChanged: 'open' },
  closed: {},
});

/** A pending (limit) order: working until filled, canceled or expired. */
export type PendingStatus = 'working' | 'filled' | 'canceled' | 'expired' | 'rejected';
export type PendingEvent = 'Filled' | 'Canceled' | 'Expired' | 'Rejected';
export const pendingTransition = machine<PendingStatus, PendingEvent>('pending order', {
  working: { Filled: 'filled', Canceled: 'canceled', Expired: 'expired', Rejected: 'rejected' },
  filled: {},
  canceled: {},
  expired: {},
  rejected: {},
});

/**
 * An order as the order log shows it. A market order is submitted and at once filled or
 * rejected; a pending order is accepted (working, log status 0) and later filled, canceled,
 * expired or rejected. Closing orders are market orders. Orders fill whole, so
 * 'Partially Filled' (3) never occurs.
 */
export type OrderState = 'submitted' | 'working' | 'filled' | 'rejected' | 'canceled' | 'expired';
export type OrderEvent = 'Accepted' | 'Filled' | 'Rejected' | 'Canceled' | 'Expired';
export const orderTransition = machine<OrderState, OrderEvent>('order', {
  submitted: { Accepted: 'working', Filled: 'filled', Rejected: 'rejected' },
  working: { Filled: 'filled', Canceled: 'canceled', Expired: 'expired', Rejected: 'rejected' },
  filled: {},
  rejected: {},
  canceled: {},
  expired: {},
});

/**
 * The order state of a pending order's stored status (the same words): where its order's
 * next move starts from.
 */
export function orderStateOfPending(status: PendingStatus): OrderState {
  return status;
}

/** Name of an order event as the order event log stores it: past tense, `OrderFilled`. */
export type OrderEventName = `Order${OrderEvent}`;

/** The stored name of an order event ('Filled' → 'OrderFilled'). */
export function orderEventName(event: OrderEvent): OrderEventName {
  return `Order${event}`;
}

/** Order log status codes (spec section 4). */
export const ORDER_STATUS = {
  pending: 0,
  rejected: 1,
  filled: 2,
  partiallyFilled: 3,
  canceled: 4,
} as const;
export type OrderStatusCode = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/**
 * The order log status code of an order state; an expired order shows as Canceled (4), a
 * submitted one (never stored: it fills or is refused at once) as Pending (0).
 */
export function orderStatusCode(state: OrderState): OrderStatusCode {
  switch (state) {
    case 'submitted':
    case 'working':
      return ORDER_STATUS.pending;
    case 'filled':
      return ORDER_STATUS.filled;
    case 'rejected':
      return ORDER_STATUS.rejected;
    case 'canceled':
    case 'expired':
      return ORDER_STATUS.canceled;
  }
}

/**
 * Direction codes: position cmd 1 Buy, 2 Sell; order log actionType 1 Open, 2 Close (the
 * spec's), 3 Modify (ours: a changed TP/SL of a position or a changed pending order, logged
 * Filled at once; it opens or closes nothing).
 */
export const CMD = { buy: 1, sell: 2 } as const;
export const ACTION = { open: 1, close: 2, modify: 3 } as const;
/** Settlement isSettled: 2 Full, 1 Partial. */
export const SETTLED = { partial: 1, full: 2 } as const;

/**
 * Why a position (or part of it) was closed: the trader (manual), its take-profit or
 * stop-loss, a stop-out, or the strategy of a live run that holds it.
 */
export const CLOSE_REASON = {
  manual: 0,
  takeProfit: 1,
  stopLoss: 2,
  stopOut: 3,
  strategy: 4,
} as const;
export type CloseReason = (typeof CLOSE_REASON)[keyof typeof CLOSE_REASON];

/** Side of a cmd code: 1 buy, 2 sell. */
export function sideOfCmd(cmd: number): 'buy' | 'sell' {
  return cmd === CMD.sell ? 'sell' : 'buy';
}

/** The cmd of the order that closes a position of `cmd` (a buy closes with a sell). */
export function closingCmd(cmd: number): 1 | 2 {
  return cmd === CMD.sell ? CMD.buy : CMD.sell;
}
