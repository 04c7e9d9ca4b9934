import { and, desc, eq, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/types.ts';
import { positions, type PositionRow } from '../../../db/schema.ts';
import { dec, num } from './values.ts';

/* SQL of the positions: opened, closed in parts, TP/SL edited; exposure for margin. */

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
