import { asLots, asPrice, type Lots, type Of, type Price } from '@ct/domain';
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/types.ts';
import { pendingOrders, type PendingOrderRow } from '../../../db/schema.ts';
import { dec, idArray, num } from './values.ts';

/* SQL of the pending orders: placed, locked, finished (filled, canceled, expired, rejected). */

export type PendingStatus = 'working' | 'filled' | 'canceled' | 'expired' | 'rejected';

export type Pending = {
  id: number;
  uuid: string;
  symbol: string;
  cmd: number;
  volume: Lots;
  pendPrice: Price;
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
    volume: asLots(num(row.volume)),
    pendPrice: asPrice(num(row.pendPrice)),
    tp: num(row.tp),
    sl: num(row.sl),
    expireType: row.expireType === 'GFD' ? 'GFD' : 'GTC',
    triggerType: row.triggerType === 'stop' ? 'stop' : 'limit',
    status: row.status as PendingStatus,
  };
}

export type NewPending = Omit<
  Pending,
  'id' | 'status' | 'positionId' | 'version' | 'updatedAt' | 'volume' | 'pendPrice'
> & { volume: Of<Lots>; pendPrice: Of<Price> };

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

/**
 * Sets a new price, TP, SL and trigger type on a working pending order at `version`; null
 * when it changed or stopped working meanwhile.
 */
export async function modifyPending(
  tx: Db,
  p: { id: number; version: number },
  change: {
    pendPrice: Of<Price>;
    tp: number;
    sl: number;
    triggerType: Pending['triggerType'];
    nowMs: number;
  },
): Promise<Pending | null> {
  const [row] = await tx
    .update(pendingOrders)
    .set({
      pendPrice: dec(change.pendPrice),
      tp: dec(change.tp),
      sl: dec(change.sl),
      triggerType: change.triggerType,
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

/** Those of the pending orders `ids` that are still working. */
export async function listWorkingPendingsById(db: Db, ids: readonly number[]): Promise<Pending[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(pendingOrders)
    .where(
      and(
        sql`${pendingOrders.id} = any(${idArray(ids)}::bigint[])`,
        eq(pendingOrders.status, 'working'),
      ),
    );
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
