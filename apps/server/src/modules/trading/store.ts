import { and, desc, eq, gt, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/types.ts';
import {
  accountLedger,
  idempotencyKeys,
  orderLogs,
  pendingOrders,
  positions,
  settlements,
  tradingAccounts,
  type OrderLogRow,
  type PendingOrderRow,
  type PositionRow,
  type SettlementRow,
  type TradingAccountRow,
} from '../../db/schema.ts';

/*
 * SQL of the trading venue. Every function takes a database or a transaction; the use cases
 * run their changes in one transaction that starts by locking the account row
 * (lockAccount), so changes of one account never interleave, on PGlite and PostgreSQL
 * alike. Status changes are conditional updates (`… WHERE status = 'open' AND version = v`)
 * as a second guard. Numeric columns arrive as strings and leave here as numbers.
 */

const num = (value: string | null): number => (value === null ? 0 : Number(value));
/** Numbers go into numeric columns as text, so nothing is lost on the way. */
const dec = (value: number): string => String(value);

export type Account = {
  uuid: string;
  currency: string;
  startingBalance: number;
  balance: number;
  realizedPnl: number;
  commissionPaid: number;
};

function toAccount(row: TradingAccountRow): Account {
  return {
    uuid: row.uuid,
    currency: row.currency,
    startingBalance: num(row.startingBalance),
    balance: num(row.balance),
    realizedPnl: num(row.realizedPnl),
    commissionPaid: num(row.commissionPaid),
  };
}

/** Creates the account with its starting balance (and the deposit in the ledger) if new. */
async function createAccountIfMissing(
  db: Db,
  uuid: string,
  startingBalance: number,
  nowMs: number,
): Promise<void> {
  const created = await db
    .insert(tradingAccounts)
    .values({
      uuid,
      currency: 'USD',
      startingBalance: dec(startingBalance),
      balance: dec(startingBalance),
      createdAt: nowMs,
      updatedAt: nowMs,
    })
    .onConflictDoNothing()
    .returning({ uuid: tradingAccounts.uuid });
  if (created.length > 0) {
    await db.insert(accountLedger).values({
      uuid,
      kind: 'deposit',
      amount: dec(startingBalance),
      balanceAfter: dec(startingBalance),
      createdAt: nowMs,
    });
  }
}

/**
 * Locks the account row for the rest of the transaction (creating the account on its first
 * use). Every change of an account's orders, positions or money starts here.
 */
export async function lockAccount(
  tx: Db,
  uuid: string,
  init: { startingBalance: number; nowMs: number } | null,
): Promise<Account | null> {
  const select = () =>
    tx.select().from(tradingAccounts).where(eq(tradingAccounts.uuid, uuid)).for('update');
  let [row] = await select();
  if (!row && init) {
    await createAccountIfMissing(tx, uuid, init.startingBalance, init.nowMs);
    [row] = await select();
  }
  return row ? toAccount(row) : null;
}

/** The account without locking (reads), created on first use. */
export async function readAccount(
  db: Db,
  uuid: string,
  init: { startingBalance: number; nowMs: number },
): Promise<Account> {
  let [row] = await db.select().from(tradingAccounts).where(eq(tradingAccounts.uuid, uuid));
  if (!row) {
    await createAccountIfMissing(db, uuid, init.startingBalance, init.nowMs);
    [row] = await db.select().from(tradingAccounts).where(eq(tradingAccounts.uuid, uuid));
  }
  if (!row) throw new Error(`trading account ${uuid} could not be created`);
  return toAccount(row);
}

export type BalanceEntry = {
  kind: 'realized_pnl' | 'commission';
  /** Account currency; negative for a loss or a commission. */
  amount: number;
  positionId?: number;
  settlementId?: number;
};

/** Books entries on the balance (and realized P&L / commissions) with a ledger row each. */
export async function applyBalance(
  tx: Db,
  uuid: string,
  entries: readonly BalanceEntry[],
  nowMs: number,
): Promise<void> {
  for (const entry of entries) {
    if (entry.amount === 0) continue;
    const amount = dec(entry.amount);
    const [row] = await tx
      .update(tradingAccounts)
      .set({
        balance: sql`${tradingAccounts.balance} + ${amount}::numeric`,
        ...(entry.kind === 'realized_pnl'
          ? { realizedPnl: sql`${tradingAccounts.realizedPnl} + ${amount}::numeric` }
          : { commissionPaid: sql`${tradingAccounts.commissionPaid} - ${amount}::numeric` }),
        updatedAt: nowMs,
      })
      .where(eq(tradingAccounts.uuid, uuid))
      .returning({ balance: tradingAccounts.balance });
    if (!row) throw new Error(`trading account ${uuid} is missing`);
    await tx.insert(accountLedger).values({
      uuid,
      kind: entry.kind,
      amount,
      balanceAfter: row.balance,
      positionId: entry.positionId ?? null,
      settlementId: entry.settlementId ?? null,
      createdAt: nowMs,
    });
  }
}

/** Sum of the ledger of an account (equals its balance; checked by tests). */
export async function ledgerTotal(db: Db, uuid: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${accountLedger.amount}), 0)` })
    .from(accountLedger)
    .where(eq(accountLedger.uuid, uuid));
  return num(row?.total ?? '0');
}

// ---------------------------------------------------------------------------------------
// Positions

export type Position = {
  id: number;
  uuid: string;
  symbol: string;
  cmd: number;
  volume: number;
  settledVol: number;
  price: number;
  tp: number;
  sl: number;
  commissionFee: number;
  storage: number;
  currency: string;
  comment: string;
  clientOrderId: string | null;
  pendingId: number | null;
  status: 'open' | 'closed';
  closeType: number;
  version: number;
  createdAt: number;
  closedAt: number | null;
};

function toPosition(row: PositionRow): Position {
  return {
    ...row,
    volume: num(row.volume),
    settledVol: num(row.settledVol),
    price: num(row.price),
    tp: num(row.tp),
    sl: num(row.sl),
    commissionFee: num(row.commissionFee),
    storage: num(row.storage),
    status: row.status === 'closed' ? 'closed' : 'open',
  };
}

export type NewPosition = {
  uuid: string;
  symbol: string;
  cmd: number;
  volume: number;
  price: number;
  tp: number;
  sl: number;
  commissionFee: number;
  currency: string;
  comment: string;
  clientOrderId: string | null;
  pendingId: number | null;
  createdAt: number;
};

export async function insertPosition(tx: Db, p: NewPosition): Promise<Position> {
  const [row] = await tx
    .insert(positions)
    .values({
      uuid: p.uuid,
      symbol: p.symbol,
      cmd: p.cmd,
      volume: dec(p.volume),
      price: dec(p.price),
      tp: dec(p.tp),
      sl: dec(p.sl),
      commissionFee: dec(p.commissionFee),
      currency: p.currency,
      comment: p.comment,
      clientOrderId: p.clientOrderId,
      pendingId: p.pendingId,
      status: 'open',
      createdAt: p.createdAt,
    })
    .returning();
  if (!row) throw new Error('position insert returned no row');
  return toPosition(row);
}

/** A position of this account, locked for the transaction. */
export async function lockPosition(tx: Db, uuid: string, id: number): Promise<Position | null> {
  const [row] = await tx
    .select()
    .from(positions)
    .where(and(eq(positions.id, id), eq(positions.uuid, uuid)))
    .for('update');
  return row ? toPosition(row) : null;
}

export async function findPosition(db: Db, id: number): Promise<Position | null> {
  const [row] = await db.select().from(positions).where(eq(positions.id, id));
  return row ? toPosition(row) : null;
}

/** Records a close on an open position at `version`; null when it changed meanwhile. */
export async function updatePositionClose(
  tx: Db,
  p: { id: number; version: number },
  change: {
    settledVol: number;
    status: 'open' | 'closed';
    closeType: number;
    closedAt: number | null;
  },
): Promise<Position | null> {
  const [row] = await tx
    .update(positions)
    .set({
      settledVol: dec(change.settledVol),
      status: change.status,
      closeType: change.closeType,
      closedAt: change.closedAt,
      version: sql`${positions.version} + 1`,
    })
    .where(
      and(eq(positions.id, p.id), eq(positions.status, 'open'), eq(positions.version, p.version)),
    )
    .returning();
  return row ? toPosition(row) : null;
}

/** Sets TP and SL of an open position at `version`; null when it changed meanwhile. */
export async function updatePositionExits(
  tx: Db,
  p: { id: number; version: number },
  exits: { tp: number; sl: number },
): Promise<Position | null> {
  const [row] = await tx
    .update(positions)
    .set({ tp: dec(exits.tp), sl: dec(exits.sl), version: sql`${positions.version} + 1` })
    .where(
      and(eq(positions.id, p.id), eq(positions.status, 'open'), eq(positions.version, p.version)),
    )
    .returning();
  return row ? toPosition(row) : null;
}

export async function listOpenPositions(db: Db, uuid: string): Promise<Position[]> {
  const rows = await db
    .select()
    .from(positions)
    .where(and(eq(positions.uuid, uuid), eq(positions.status, 'open')))
    .orderBy(desc(positions.id));
  return rows.map(toPosition);
}

/** Open positions with a TP or SL, of every account (the trigger engine's start). */
export async function listProtectedPositions(db: Db): Promise<Position[]> {
  const rows = await db
    .select()
    .from(positions)
    .where(and(eq(positions.status, 'open'), or(gt(positions.tp, '0'), gt(positions.sl, '0'))));
  return rows.map(toPosition);
}

export type Exposure = {
  symbol: string;
  cmd: number;
  /** Open lots. */
  volume: number;
  /** Σ open lots × open price. */
  notional: number;
};

/** Open lots and lots × price of an account per symbol and side (margin and P&L in bulk). */
export async function accountExposure(db: Db, uuid: string): Promise<Exposure[]> {
  const open = sql`${positions.volume} - ${positions.settledVol}`;
  const rows = await db
    .select({
      symbol: positions.symbol,
      cmd: positions.cmd,
      volume: sql<string>`sum(${open})`,
      notional: sql<string>`sum((${open}) * ${positions.price})`,
    })
    .from(positions)
    .where(and(eq(positions.uuid, uuid), eq(positions.status, 'open')))
    .groupBy(positions.symbol, positions.cmd);
  return rows.map((r) => ({
    symbol: r.symbol,
    cmd: r.cmd,
    volume: num(r.volume),
    notional: num(r.notional),
  }));
}

// ---------------------------------------------------------------------------------------
// Pending orders

export type PendingStatus = 'working' | 'filled' | 'canceled' | 'expired' | 'rejected';

export type Pending = {
  id: number;
  uuid: string;
  symbol: string;
  cmd: number;
  volume: number;
  pendPrice: number;
  tp: number;
  sl: number;
  expireType: 'GFD' | 'GTC';
  expiresAt: number | null;
  triggerType: 'limit' | 'stop';
  status: PendingStatus;
  positionId: number | null;
  comment: string;
  clientOrderId: string | null;
  version: number;
  createdAt: number;
  updatedAt: number;
};

function toPending(row: PendingOrderRow): Pending {
  return {
    ...row,
    volume: num(row.volume),
    pendPrice: num(row.pendPrice),
    tp: num(row.tp),
    sl: num(row.sl),
    expireType: row.expireType === 'GFD' ? 'GFD' : 'GTC',
    triggerType: row.triggerType === 'stop' ? 'stop' : 'limit',
    status: row.status as PendingStatus,
  };
}

export type NewPending = Omit<Pending, 'id' | 'status' | 'positionId' | 'version' | 'updatedAt'>;

export async function insertPending(tx: Db, p: NewPending): Promise<Pending> {
  const [row] = await tx
    .insert(pendingOrders)
    .values({
      ...p,
      volume: dec(p.volume),
      pendPrice: dec(p.pendPrice),
      tp: dec(p.tp),
      sl: dec(p.sl),
      status: 'working',
      updatedAt: p.createdAt,
    })
    .returning();
  if (!row) throw new Error('pending insert returned no row');
  return toPending(row);
}

/** A pending order, locked; restricted to an account when `uuid` is given. */
export async function lockPending(tx: Db, id: number, uuid?: string): Promise<Pending | null> {
  const where = uuid
    ? and(eq(pendingOrders.id, id), eq(pendingOrders.uuid, uuid))
    : eq(pendingOrders.id, id);
  const [row] = await tx.select().from(pendingOrders).where(where).for('update');
  return row ? toPending(row) : null;
}

export async function findPending(db: Db, id: number): Promise<Pending | null> {
  const [row] = await db.select().from(pendingOrders).where(eq(pendingOrders.id, id));
  return row ? toPending(row) : null;
}

/** Moves a working pending order at `version` to `status`; null when it changed meanwhile. */
export async function finishPending(
  tx: Db,
  p: { id: number; version: number },
  change: { status: PendingStatus; positionId?: number; nowMs: number },
): Promise<Pending | null> {
  const [row] = await tx
    .update(pendingOrders)
    .set({
      status: change.status,
      positionId: change.positionId ?? null,
      updatedAt: change.nowMs,
      version: sql`${pendingOrders.version} + 1`,
    })
    .where(
      and(
        eq(pendingOrders.id, p.id),
        eq(pendingOrders.status, 'working'),
        eq(pendingOrders.version, p.version),
      ),
    )
    .returning();
  return row ? toPending(row) : null;
}

export async function listWorkingPendings(db: Db, uuid?: string): Promise<Pending[]> {
  const rows = await db
    .select()
    .from(pendingOrders)
    .where(
      uuid
        ? and(eq(pendingOrders.uuid, uuid), eq(pendingOrders.status, 'working'))
        : eq(pendingOrders.status, 'working'),
    )
    .orderBy(desc(pendingOrders.id));
  return rows.map(toPending);
}

/** Working GFD orders whose day ended at or before `nowMs`, of every account. */
export async function listExpiredPendings(db: Db, nowMs: number): Promise<Pending[]> {
  const rows = await db
    .select()
    .from(pendingOrders)
    .where(and(eq(pendingOrders.status, 'working'), lte(pendingOrders.expiresAt, nowMs)));
  return rows.map(toPending);
}

export async function countWorkingPendings(db: Db, uuid: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pendingOrders)
    .where(and(eq(pendingOrders.uuid, uuid), eq(pendingOrders.status, 'working')));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------
// Settlements

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

// ---------------------------------------------------------------------------------------
// Order log

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

/** Moves the log row of a pending order to its final status. */
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
): Promise<void> {
  await tx
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
    .where(and(eq(orderLogs.pendingId, pendingId), eq(orderLogs.actionType, 1)));
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

// ---------------------------------------------------------------------------------------
// Idempotency keys

export type StoredAnswer = {
  endpoint: string;
  fingerprint: string;
  httpStatus: number;
  body: { code: number; msg: string; data: unknown };
};

export async function findAnswer(
  tx: Db,
  uuid: string,
  clientOrderId: string,
): Promise<StoredAnswer | null> {
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.uuid, uuid), eq(idempotencyKeys.clientOrderId, clientOrderId)));
  if (!row) return null;
  return {
    endpoint: row.endpoint,
    fingerprint: row.fingerprint,
    httpStatus: row.httpStatus,
    body: row.body as StoredAnswer['body'],
  };
}

export async function saveAnswer(
  tx: Db,
  key: { uuid: string; clientOrderId: string; nowMs: number },
  answer: StoredAnswer,
): Promise<void> {
  await tx.insert(idempotencyKeys).values({
    uuid: key.uuid,
    clientOrderId: key.clientOrderId,
    endpoint: answer.endpoint,
    fingerprint: answer.fingerprint,
    httpStatus: answer.httpStatus,
    body: answer.body,
    createdAt: key.nowMs,
  });
}
