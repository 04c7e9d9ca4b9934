import type { HeldPosition, LiveRunEvaluationView } from '@ct/domain';
import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { rawQuery } from '../../db/raw.ts';
import {
  liveRunEvaluations,
  liveRunOrders,
  liveRuns,
  positions,
  settlements,
  type LiveRunOrderRow,
  type LiveRunRow,
} from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

/* SQL of the live runs: the runs, their kept evaluations and the orders they sent. */

export type NewLiveRun = typeof liveRuns.$inferInsert;
export type NewLiveRunOrder = typeof liveRunOrders.$inferInsert;

export async function insertRun(db: Db, run: NewLiveRun): Promise<LiveRunRow> {
  const [row] = await db.insert(liveRuns).values(run).returning();
  if (!row) throw new Error('live run insert returned no row');
  return row;
}

/** Runs of the user that are running now. */
export async function countRunning(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(liveRuns)
    .where(and(eq(liveRuns.userId, userId), eq(liveRuns.status, 'running')));
  return row?.n ?? 0;
}

/** The user's runs, newest first (at most `limit`). */
export async function listRuns(db: Db, userId: number, limit: number): Promise<LiveRunRow[]> {
  return db
    .select()
    .from(liveRuns)
    .where(eq(liveRuns.userId, userId))
    .orderBy(desc(liveRuns.startedAt), desc(liveRuns.id))
    .limit(limit);
}

/** A run of the user; null for another user's run or none. */
export async function findRun(db: Db, userId: number, id: string): Promise<LiveRunRow | null> {
  const [row] = await db
    .select()
    .from(liveRuns)
    .where(and(eq(liveRuns.id, id), eq(liveRuns.userId, userId)));
  return row ?? null;
}

/** Stops a running run of the user (its lease is dropped); the run as it is after. */
export async function stopRun(
  db: Db,
  userId: number,
  id: string,
  nowMs: number,
): Promise<LiveRunRow | null> {
  const [stopped] = await db
    .update(liveRuns)
    .set({ status: 'stopped', stoppedAt: nowMs, leaseOwner: null, leaseUntilMs: null })
    .where(and(eq(liveRuns.id, id), eq(liveRuns.userId, userId), eq(liveRuns.status, 'running')))
    .returning();
  return stopped ?? findRun(db, userId, id);
}

/**
 * Claims up to `limit` running runs nobody holds (no lease, or a lease that ran out: its
 * runner died) for `owner`, in one short transaction; `FOR UPDATE SKIP LOCKED` lets other
 * nodes' runners pass over the rows being claimed. Oldest runs first.
 */
export async function claimRuns(
  db: Db,
  owner: string,
  nowMs: number,
  leaseMs: number,
  limit: number,
): Promise<LiveRunRow[]> {
  if (limit <= 0) return [];
  return db.transaction(async (tx) => {
    const candidates = await tx
      .select({ id: liveRuns.id })
      .from(liveRuns)
      .where(
        and(
          eq(liveRuns.status, 'running'),
          or(isNull(liveRuns.leaseOwner), lt(liveRuns.leaseUntilMs, nowMs)),
        ),
      )
      .orderBy(asc(liveRuns.startedAt), asc(liveRuns.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (candidates.length === 0) return [];
    return tx
      .update(liveRuns)
      .set({ leaseOwner: owner, leaseUntilMs: nowMs + leaseMs })
      .where(
        inArray(
          liveRuns.id,
          candidates.map((c) => c.id),
        ),
      )
      .returning();
  });
}

/** Extends the leases `owner` holds; the ids of the runs it still holds (and that run). */
export async function renewLeases(db: Db, owner: string, untilMs: number): Promise<Set<string>> {
  const rows = await db
    .update(liveRuns)
    .set({ leaseUntilMs: untilMs })
    .where(and(eq(liveRuns.leaseOwner, owner), eq(liveRuns.status, 'running')))
    .returning({ id: liveRuns.id });
  return new Set(rows.map((r) => r.id));
}

/** Gives back every run `owner` holds, so another runner takes them up at once. */
export async function releaseRuns(db: Db, owner: string): Promise<void> {
  await db
    .update(liveRuns)
    .set({ leaseOwner: null, leaseUntilMs: null })
    .where(eq(liveRuns.leaseOwner, owner));
}

/** The run's open positions, each with the wanted key it was opened for. */
export async function heldPositions(db: Db, runId: string): Promise<HeldPosition[]> {
  const rows = await rawQuery<{
    position_id: string;
    wanted_key: string | null;
    cmd: number;
    volume: string;
  }>(
    db,
    `select o.position_id, o.wanted_key, o.cmd, (p.volume - p.settled_vol)::text as volume
       from live_run_orders o join positions p on p.id = o.position_id::bigint
      where o.run_id = $1 and o.action = 'open' and o.status = 'filled' and p.status = 'open'
      order by o.id`,
    [runId],
  );
  return rows.map((r) => ({
    positionId: String(r.position_id),
    key: r.wanted_key ?? '',
    cmd: Number(r.cmd) === 2 ? 2 : 1,
    volume: Number(r.volume),
  }));
}

/** Keeps an order the run sent; a second write of the same key changes nothing. */
export async function insertOrder(db: Db, order: NewLiveRunOrder): Promise<void> {
  await db.insert(liveRunOrders).values(order).onConflictDoNothing();
}

/** Every order of the run, oldest first. */
export async function runOrders(db: Db, runId: string): Promise<LiveRunOrderRow[]> {
  return db
    .select()
    .from(liveRunOrders)
    .where(eq(liveRunOrders.runId, runId))
    .orderBy(asc(liveRunOrders.id));
}

export type EvaluationRecord = {
  runId: string;
  owner: string;
  view: LiveRunEvaluationView;
  barTimeMs: number;
  atMs: number;
  ordersSent: number;
  failed: boolean;
  /** Stop the run as failed with this error (too many failures in a row). */
  failWith: string | null;
  keep: number;
};

/**
 * Writes an evaluation and the run's counters in one transaction, only while `owner` holds
 * the run and the bar is newer than the last one evaluated: a bar is never counted twice.
 * Keeps the newest `keep` evaluations of the run. False when nothing was written.
 */
export async function recordEvaluation(db: Db, record: EvaluationRecord): Promise<boolean> {
  const { view } = record;
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(liveRuns)
      .set({
        evaluations: sql`${liveRuns.evaluations} + 1`,
        orders: sql`${liveRuns.orders} + ${record.ordersSent}`,
        consecutiveFailures: record.failed ? sql`${liveRuns.consecutiveFailures} + 1` : 0,
        lastBarTime: record.barTimeMs,
        lastEvaluationAt: record.atMs,
        ...(view.error !== null ? { error: view.error } : {}),
        ...(record.failWith !== null
          ? {
              status: 'failed',
              error: record.failWith,
              stoppedAt: record.atMs,
              leaseOwner: null,
              leaseUntilMs: null,
            }
          : {}),
      })
      .where(
        and(
          eq(liveRuns.id, record.runId),
          eq(liveRuns.leaseOwner, record.owner),
          eq(liveRuns.status, 'running'),
          or(isNull(liveRuns.lastBarTime), lt(liveRuns.lastBarTime, record.barTimeMs)),
        ),
      )
      .returning({ id: liveRuns.id });
    if (!updated) return false;
    await tx
      .insert(liveRunEvaluations)
      .values({
        runId: record.runId,
        barTime: record.barTimeMs,
        at: record.atMs,
        bars: view.bars,
        wanted: view.wanted,
        orders: view.orders,
        error: view.error,
        printed: view.printed,
        durationMs: view.duration_ms,
      })
      .onConflictDoNothing();
    await rawQuery(
      tx,
      `delete from live_run_evaluations
        where run_id = $1 and id not in (
          select id from live_run_evaluations where run_id = $1 order by bar_time desc limit $2)`,
      [record.runId, record.keep],
    );
    return true;
  });
}

/** A page of the run's kept evaluations, newest first, and how many are kept. */
export async function evaluationsPage(
  db: Db,
  runId: string,
  skip: number,
  limit: number,
): Promise<{ rows: (typeof liveRunEvaluations.$inferSelect)[]; total: number }> {
  const rows = await db
    .select()
    .from(liveRunEvaluations)
    .where(eq(liveRunEvaluations.runId, runId))
    .orderBy(desc(liveRunEvaluations.barTime))
    .offset(skip)
    .limit(limit);
  const [counted] = await db
    .select({ n: count() })
    .from(liveRunEvaluations)
    .where(eq(liveRunEvaluations.runId, runId));
  return { rows, total: counted?.n ?? 0 };
}

/** A position of a run (tagged by its comment) and what of it was settled. */
export type RunPosition = {
  comment: string;
  symbol: string;
  cmd: number;
  volume: number;
  settledVol: number;
  price: number;
  commissionFee: number;
  status: string;
};

/** The positions whose comment is one of `comments`, on the given accounts. */
export async function positionsTagged(
  db: Db,
  uuids: readonly string[],
  comments: readonly string[],
): Promise<RunPosition[]> {
  if (uuids.length === 0 || comments.length === 0) return [];
  const rows = await db
    .select({
      comment: positions.comment,
      symbol: positions.symbol,
      cmd: positions.cmd,
      volume: positions.volume,
      settledVol: positions.settledVol,
      price: positions.price,
      commissionFee: positions.commissionFee,
      status: positions.status,
    })
    .from(positions)
    .where(and(inArray(positions.uuid, [...uuids]), inArray(positions.comment, [...comments])));
  return rows.map((r) => ({
    ...r,
    volume: Number(r.volume),
    settledVol: Number(r.settledVol),
    price: Number(r.price),
    commissionFee: Number(r.commissionFee),
  }));
}

/** Realized P&L per comment: settle profit − open commission share − close commission. */
export async function realizedByComment(
  db: Db,
  uuids: readonly string[],
  comments: readonly string[],
): Promise<Map<string, number>> {
  if (uuids.length === 0 || comments.length === 0) return new Map();
  const rows = await db
    .select({
      comment: positions.comment,
      total: sql<string>`sum(${settlements.settleProfit} - ${settlements.openCommission} - ${settlements.closeCommission})`,
    })
    .from(settlements)
    .innerJoin(positions, eq(positions.id, settlements.positionId))
    .where(and(inArray(positions.uuid, [...uuids]), inArray(positions.comment, [...comments])))
    .groupBy(positions.comment);
  return new Map(rows.map((r) => [r.comment, Number(r.total)]));
}
