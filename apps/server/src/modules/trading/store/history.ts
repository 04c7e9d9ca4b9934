import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { rawQuery } from '../../../db/raw.ts';
import type { Db } from '../../../db/types.ts';
import {
  orderEvents,
  orderLogs,
  positions,
  settlements,
  type OrderLogRow,
  type SettlementRow,
} from '../../../db/schema.ts';
import { dec, num } from './values.ts';

/* SQL of the history: settlements, the order log and the order event log. */

export type Settlement = {
  id: number;
  positionId: number;
  uuid: string;
  symbol: string;
  openCmd: number;
  closeCmd: number;
  openPrice: number;
  closePrice: number;
  settleVolume: number;
  isSettled: number;
  settleDate: number;
  settleProfit: number;
  accountProfit: number;
  openAt: number;
  closeAt: number;
  openCommission: number;
  closeCommission: number;
  currency: string;
  closeReason: number;
  closeType: number;
  /** The closed position's comment (not stored with the settlement: read with it). */
  comment: string;
};

function toSettlement(row: SettlementRow, comment: string): Settlement {
  return {
    ...row,
    comment,
    openPrice: num(row.openPrice),
    closePrice: num(row.closePrice),
    settleVolume: num(row.settleVolume),
    settleProfit: num(row.settleProfit),
    accountProfit: num(row.accountProfit),
    openCommission: num(row.openCommission),
    closeCommission: num(row.closeCommission),
  };
}

export async function insertSettlement(tx: Db, s: Omit<Settlement, 'id'>): Promise<Settlement> {
  const { comment, ...stored } = s;
  const [row] = await tx
    .insert(settlements)
    .values({
      ...stored,
      openPrice: dec(s.openPrice),
      closePrice: dec(s.closePrice),
      settleVolume: dec(s.settleVolume),
      settleProfit: dec(s.settleProfit),
      accountProfit: dec(s.accountProfit),
      openCommission: dec(s.openCommission),
      closeCommission: dec(s.closeCommission),
    })
    .returning();
  if (!row) throw new Error('settlement insert returned no row');
  return toSettlement(row, comment);
}

/** A page of an account's settlements, newest first, with ids below `beforeId` (-1: all). */
export async function listSettlements(
  db: Db,
  uuid: string,
  beforeId: number,
  limit: number,
): Promise<Settlement[]> {
  const rows = await db
    .select({ settlement: settlements, comment: positions.comment })
    .from(settlements)
    .leftJoin(positions, eq(positions.id, settlements.positionId))
    .where(
      beforeId > 0
        ? and(eq(settlements.uuid, uuid), lt(settlements.id, beforeId))
        : eq(settlements.uuid, uuid),
    )
    .orderBy(desc(settlements.id))
    .limit(limit);
  return rows.map((r) => toSettlement(r.settlement, r.comment ?? ''));
}

/** Every settlement of the account (the `total` of the settles page). */
export const countSettlements = (db: Db, uuid: string) => countOfAccount(db, settlements, uuid);

export type OrderLog = {
  id: number;
  uuid: string;
  symbol: string;
  cmd: number;
  actionType: number;
  orderType: number;
  volume: number;
  price: number;
  marketPrice: number;
  orderStatus: number;
  createdAt: number;
  transactTime: number;
  commissionFee: number;
  currency: string;
  tp: number;
  sl: number;
  positionId: number | null;
  pendingId: number | null;
  message: string;
  clientOrderId: string | null;
};

function toOrderLog(row: OrderLogRow): OrderLog {
  return {
    ...row,
    volume: num(row.volume),
    price: num(row.price),
    marketPrice: num(row.marketPrice),
    commissionFee: num(row.commissionFee),
    tp: num(row.tp),
    sl: num(row.sl),
  };
}

/** An order event as stored (see order-events.ts for what its fields mean). */
export type OrderEventRecord = {
  id: number;
  uuid: string;
  orderId: number;
  type: string;
  /** The state before the event ('submitted': the event created the order); null before 0008. */
  fromState: string | null;
  state: string;
  symbol: string | null;
  pendingId: number | null;
  positionId: number | null;
  /** The fill price of OrderFilled; null otherwise. */
  price: number | null;
  marketPrice: number | null;
  commissionFee: number | null;
  message: string;
  at: number;
  /** The order itself: set on its first event only. */
  order: {
    cmd: number;
    actionType: number;
    orderType: number;
    volume: number;
    requestedPrice: number;
    currency: string;
    tp: number;
    sl: number;
    clientOrderId: string | null;
  } | null;
};

/** An event to append: the order's id is the log row's, known once the event is applied. */
export type NewOrderEvent = Omit<OrderEventRecord, 'id' | 'orderId'> & {
  symbol: string;
  pendingId: number | null;
};

const decOrNull = (value: number | null | undefined) =>
  value === null || value === undefined ? null : dec(value);

// The only statements that write the order log: each appends an event and applies it to the
// log in the same statement (order-events.ts builds the row and the change from the event).

/**
 * The CTEs `log` (inserts an order's log row) and `event` (appends its first event, with
 * the log row's id) of a statement whose parameters from $n+1 are `firstEventParams` and
 * whose new log row's position is `positionId` (an SQL expression over `source`).
 */
function firstEventCtes(n: number, positionId: string, source: string): string {
  const $ = (i: number) => `$${n + i}`;
  return `log as (
  insert into order_logs (uuid, symbol, cmd, action_type, order_type, volume, price, market_price,
    order_status, created_at, transact_time, commission_fee, currency, tp, sl, position_id,
    pending_id, message, client_order_id)
  select ${$(1)}::text, ${$(2)}::text, ${$(3)}::smallint, ${$(4)}::smallint, ${$(5)}::smallint,
    ${$(6)}::numeric, ${$(7)}::numeric, ${$(8)}::numeric, ${$(9)}::smallint, ${$(10)}::bigint,
    ${$(10)}::bigint, ${$(11)}::numeric, ${$(12)}::text, ${$(13)}::numeric, ${$(14)}::numeric,
    ${positionId}, ${$(15)}::bigint, ${$(16)}::text, ${$(17)}::text
  ${source}
  returning id, position_id
), event as (
  insert into order_events (uuid, order_id, type, from_state, state, symbol, pending_id,
    position_id, price, market_price, commission_fee, message, at, cmd, action_type, order_type,
    volume, requested_price, currency, tp, sl, client_order_id)
  select ${$(1)}::text, log.id, ${$(18)}::text, ${$(19)}::text, ${$(20)}::text, ${$(2)}::text,
    ${$(15)}::bigint, log.position_id, ${$(21)}::numeric, ${$(22)}::numeric, ${$(23)}::numeric,
    ${$(16)}::text, ${$(10)}::bigint, ${$(3)}::smallint, ${$(4)}::smallint, ${$(5)}::smallint,
    ${$(6)}::numeric, ${$(24)}::numeric, ${$(12)}::text, ${$(13)}::numeric, ${$(14)}::numeric,
    ${$(17)}::text
  from log
  returning order_id
)`;
}

const INSERT_ORDER_WITH_EVENT = `
with ${firstEventCtes(1, '$1::bigint', '')}
select order_id from event`;

/**
 * The part of a statement that opens a position (CTE `pos`, parameters $1…$n) which logs
 * the order that opened it: its log row and first event (parameters from $n+1, as
 * `firstEventParams`), the log row's position being the new one. The statement answers
 * the order's id as `order_id`.
 */
export function firstEventOfOpenedPosition(n: number): string {
  return firstEventCtes(n, 'pos.id', 'from pos');
}

/**
 * The parameters of an order's first event and its log row (`row`, built from the event by
 * orderLogOfFirstEvent), in the order of the statements above; the row's position id is not
 * among them.
 */
export function firstEventParams(e: NewOrderEvent, row: Omit<OrderLog, 'id'>): unknown[] {
  const o = e.order;
  if (!o) throw new Error('the first event of an order must carry the order');
  return [
    row.uuid,
    row.symbol,
    row.cmd,
    row.actionType,
    row.orderType,
    dec(row.volume),
    dec(row.price),
    dec(row.marketPrice),
    row.orderStatus,
    row.createdAt,
    dec(row.commissionFee),
    row.currency,
    dec(row.tp),
    dec(row.sl),
    row.pendingId,
    row.message,
    row.clientOrderId,
    e.type,
    e.fromState,
    e.state,
    decOrNull(e.price),
    decOrNull(e.marketPrice),
    decOrNull(e.commissionFee),
    dec(o.requestedPrice),
  ];
}

const UPDATE_ORDER_WITH_EVENT = `
with log as (
  update order_logs set order_status = $1::smallint, transact_time = $2::bigint,
    message = $3::text, price = coalesce($4::numeric, price),
    market_price = coalesce($5::numeric, market_price),
    commission_fee = coalesce($6::numeric, commission_fee),
    position_id = coalesce($7::bigint, position_id)
  where pending_id = $8::bigint and action_type = 1
  returning id
)
insert into order_events (uuid, order_id, type, from_state, state, symbol, pending_id, position_id,
  price, market_price, commission_fee, message, at)
select $9::text, log.id, $10::text, $11::text, $12::text, $13::text, $8::bigint, $7::bigint,
  $14::numeric, $15::numeric, $16::numeric, $3::text, $2::bigint
from log
returning order_id`;

/**
 * Appends the first event of an order and inserts the order's log row built from it (`row`);
 * returns the order's id (the log row's, its sortId).
 */
export async function insertOrderWithEvent(
  tx: Db,
  e: NewOrderEvent,
  row: Omit<OrderLog, 'id'>,
): Promise<number> {
  const [out] = await rawQuery<{ order_id: number | string }>(tx, INSERT_ORDER_WITH_EVENT, [
    row.positionId,
    ...firstEventParams(e, row),
  ]);
  if (!out) throw new Error('order log insert returned no row');
  return Number(out.order_id);
}

/** What a later event of an order changes on its log row (undefined: unchanged). */
export type OrderLogChange = {
  orderStatus: number;
  transactTime: number;
  message: string;
  price?: number;
  marketPrice?: number;
  commissionFee?: number;
  positionId?: number;
};

/**
 * Appends a later event of a pending order's order and applies `change` (built from it) to
 * the order's log row; returns the order's id.
 */
export async function updateOrderWithEvent(
  tx: Db,
  e: NewOrderEvent,
  change: OrderLogChange,
): Promise<number> {
  if (e.pendingId === null) throw new Error('a later order event must name its pending order');
  const [out] = await rawQuery<{ order_id: number | string }>(tx, UPDATE_ORDER_WITH_EVENT, [
    change.orderStatus,
    change.transactTime,
    change.message,
    decOrNull(change.price),
    decOrNull(change.marketPrice),
    decOrNull(change.commissionFee),
    change.positionId ?? null,
    e.pendingId,
    e.uuid,
    e.type,
    e.fromState,
    e.state,
    e.symbol,
    decOrNull(e.price),
    decOrNull(e.marketPrice),
    decOrNull(e.commissionFee),
  ]);
  if (!out) throw new Error(`pending order ${e.pendingId} has no log row`);
  return Number(out.order_id);
}

const numOrNull = (value: string | null) => (value === null ? null : Number(value));

/** The events of an account's orders, oldest first. */
export async function listOrderEvents(db: Db, uuid: string): Promise<OrderEventRecord[]> {
  const rows = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.uuid, uuid))
    .orderBy(orderEvents.id);
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    orderId: r.orderId,
    type: r.type,
    fromState: r.fromState,
    state: r.state,
    symbol: r.symbol,
    pendingId: r.pendingId,
    positionId: r.positionId,
    price: numOrNull(r.price),
    marketPrice: numOrNull(r.marketPrice),
    commissionFee: numOrNull(r.commissionFee),
    message: r.message,
    at: r.at,
    order:
      r.cmd === null ||
      r.actionType === null ||
      r.orderType === null ||
      r.volume === null ||
      r.currency === null
        ? null
        : {
            cmd: r.cmd,
            actionType: r.actionType,
            orderType: r.orderType,
            volume: num(r.volume),
            requestedPrice: num(r.requestedPrice),
            currency: r.currency,
            tp: num(r.tp),
            sl: num(r.sl),
            clientOrderId: r.clientOrderId,
          },
  }));
}

/** A page of an account's order log, newest first, with ids below `beforeId` (-1: all). */
export async function listOrderLogs(
  db: Db,
  uuid: string,
  beforeId: number,
  limit: number,
): Promise<OrderLog[]> {
  const rows = await db
    .select()
    .from(orderLogs)
    .where(
      beforeId > 0
        ? and(eq(orderLogs.uuid, uuid), lt(orderLogs.id, beforeId))
        : eq(orderLogs.uuid, uuid),
    )
    .orderBy(desc(orderLogs.id))
    .limit(limit);
  return rows.map(toOrderLog);
}

/** Every order log row of the account (the `total` of the logs page). */
export const countOrderLogs = (db: Db, uuid: string) => countOfAccount(db, orderLogs, uuid);

/** The rows of a paged list's table that belong to the account. */
async function countOfAccount(
  db: Db,
  table: typeof settlements | typeof orderLogs,
  uuid: string,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.uuid, uuid));
  return row?.n ?? 0;
}
