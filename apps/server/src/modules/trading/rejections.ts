import type { Lots, Of, Price } from '@ct/domain';
import type { CatalogueInstrument } from '../market/catalogue.ts';
import { OrderRejectedError } from './errors.ts';
import type { Outcome } from './idempotency.ts';
import type { Journal } from './journal.ts';
import { recordNewOrder, type NewOrder } from './order-events.ts';

export type Rejection = {
  uuid: string;
  instrument: CatalogueInstrument;
  cmd: number;
  actionType: number;
  orderType: number;
  volume: Of<Lots>;
  /** The order's price if it had one (a pending price), else 0. */
  price: Of<Price>;
  /** The quote on the order's side, 0 when there was none. */
  marketPrice: Of<Price>;
  tp: number;
  sl: number;
  positionId: number | null;
  clientOrderId: string | null;
  message: string;
  nowMs: number;
};

/**
 * A refused order is refused before its prices are checked against the quote (a closed
 * market has none), so what it asked for may be any number: the log keeps what a price
 * column can hold (|x| < 10^20 in numeric(30,10)) and 0, "not set", for anything else.
 */
function loggable(price: number): number {
  return Number.isFinite(price) && Math.abs(price) < 1e15 ? price : 0;
}

/**
 * The venue refuses an order it understood (market closed, not enough margin): the refusal
 * is logged (status Rejected) in the caller's transaction, which then commits (the command
 * pipeline remembers it under the idempotency key and throws it afterwards).
 */
export async function rejectOrder<T>(journal: Journal, r: Rejection): Promise<Outcome<T>> {
  await recordNewOrder(journal, rejectedOrder(r), 'Rejected');
  return rejectionOutcome(r);
}

/** The order a refusal logs (its first event: Rejected). */
export function rejectedOrder(r: Rejection): NewOrder {
  return {
    uuid: r.uuid,
    symbol: r.instrument.symbol,
    cmd: r.cmd,
    actionType: r.actionType,
    orderType: r.orderType,
    volume: r.volume,
    requestedPrice: loggable(r.price),
    marketPrice: r.marketPrice,
    nowMs: r.nowMs,
    commissionFee: 0,
    currency: r.instrument.currency,
    tp: loggable(r.tp),
    sl: loggable(r.sl),
    positionId: r.positionId,
    pendingId: null,
    message: r.message,
    clientOrderId: r.clientOrderId,
  };
}

/** What a refused order answers. */
export function rejectionOutcome<T>(r: Pick<Rejection, 'message'>): Outcome<T> {
  return { ok: false, error: new OrderRejectedError(r.message) };
}
