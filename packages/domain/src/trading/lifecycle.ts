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

function machine<S extends string, E extends string>(
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

/** Order log status codes (spec section 4). */
export const ORDER_STATUS = {
  pending: 0,
  rejected: 1,
  filled: 2,
  partiallyFilled: 3,
  canceled: 4,
} as const;
export type OrderStatusCode = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/** Direction codes: position cmd 1 Buy, 2 Sell; order log actionType 1 Open, 2 Close. */
export const CMD = { buy: 1, sell: 2 } as const;
export const ACTION = { open: 1, close: 2 } as const;
/** Settlement isSettled: 2 Full, 1 Partial. */
export const SETTLED = { partial: 1, full: 2 } as const;

/** Why a position (or part of it) was closed. */
export const CLOSE_REASON = { manual: 0, takeProfit: 1, stopLoss: 2, stopOut: 3 } as const;
