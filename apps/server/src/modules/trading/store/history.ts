import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/types.ts';
import {
  orderEvents,
  orderLogs,
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
};

function toSettlement(row: SettlementRow): Settlement {
  return {
    ...row,
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
  const [row] = await tx
    .insert(settlements)
    .values({
      ...s,
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
  return toSettlement(row);
}

/** A page of an account's settlements, newest first, with ids below `beforeId` (-1: all). */
export async function listSettlements(
  db: Db,
  uuid: string,
  beforeId: number,
  limit: number,
): Promise<Settlement[]> {
  const rows = await db
    .select()
    .from(settlements)
    .where(
      beforeId > 0
        ? and(eq(settlements.uuid, uuid), lt(settlements.id, beforeId))
        : eq(settlements.uuid, uuid),
    )
    .orderBy(desc(settlements.id))
    .limit(limit);
  return rows.map(toSettlement);
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

/** Appends an order to the log; returns its id (sortId). */
export async function insertOrderLog(tx: Db, log: Omit<OrderLog, 'id'>): Promise<number> {
  const [row] = await tx
    .insert(orderLogs)
    .values({
      ...log,
      volume: dec(log.volume),
      price: dec(log.price),
      marketPrice: dec(log.marketPrice),
      commissionFee: dec(log.commissionFee),
      tp: dec(log.tp),
      sl: dec(log.sl),
    })
    .returning({ id: orderLogs.id });
  if (!row) throw new Error('order log insert returned no row');
  return row.id;
}

/** Moves the log row of a pending order to its final status; returns the row's id. */
export async function updatePendingLog(
  tx: Db,
  pendingId: number,
  change: {
    orderStatus: number;
    transactTime: number;
    message: string;
    price?: number;
    marketPrice?: number;
    commissionFee?: number;
    positionId?: number;
  },
): Promise<number> {
  const [row] = await tx
    .update(orderLogs)
    .set({
      orderStatus: change.orderStatus,
      transactTime: change.transactTime,
      message: change.message,
      ...(change.price !== undefined ? { price: dec(change.price) } : {}),
      ...(change.marketPrice !== undefined ? { marketPrice: dec(change.marketPrice) } : {}),
      ...(change.commissionFee !== undefined ? { commissionFee: dec(change.commissionFee) } : {}),
      ...(change.positionId !== undefined ? { positionId: change.positionId } : {}),
    })
    .where(and(eq(orderLogs.pendingId, pendingId), eq(orderLogs.actionType, 1)))
    .returning({ id: orderLogs.id });
  if (!row) throw new Error(`pending order ${pendingId} has no log row`);
  return row.id;
}

export type OrderEventRecord = {
  id: number;
  uuid: string;
  orderId: number;
  type: string;
  state: string;
  price: number | null;
  positionId: number | null;
  message: string;
  at: number;
};

/** Appends an event to the order event log (never updated). */
export async function insertOrderEvent(tx: Db, e: Omit<OrderEventRecord, 'id'>): Promise<void> {
  await tx.insert(orderEvents).values({ ...e, price: e.price === null ? null : dec(e.price) });
}

/** The events of an account's orders, oldest first. */
export async function listOrderEvents(db: Db, uuid: string): Promise<OrderEventRecord[]> {
  const rows = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.uuid, uuid))
    .orderBy(orderEvents.id);
  return rows.map((r) => ({ ...r, price: r.price === null ? null : Number(r.price) }));
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
