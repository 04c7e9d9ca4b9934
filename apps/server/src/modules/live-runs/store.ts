import {
  liveRunTransition,
  type HeldPosition,
  type LiveRunEvaluationView,
  type LiveRunStatus,
} from '@ct/domain';

/** The status the store's writes move from: only a running run is stopped or evaluated. */
const RUNNING: LiveRunStatus = 'running';
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
import { cancelBatch, enqueueJobs, finishJob, heldJob, type NewJob } from '../jobs/store.ts';

/* SQL of the live runs: the runs, their kept evaluations and the orders they sent. */

export type NewLiveRun = typeof liveRuns.$inferInsert;
export type NewLiveRunOrder = typeof liveRunOrders.$inferInsert;

/** The job queue of live runs: a running run is one job, held by one runner while it runs. */
export const LIVE_RUN_QUEUE = 'live-run';
/** A run's job's batch key: the runner's writes find their lease by it. */
export const runBatchKey = (runId: string) => `live-run:${runId}`;
/**
 * Claims of a run's job before it is given up: a takeover after a restart is ordinary for
 * a run that lasts for weeks, so there is no practical bound.
 */
const LIVE_RUN_MAX_CLAIMS = 2_000_000_000;

/** The job of a running run. */
export function runJob(run: Pick<LiveRunRow, 'id' | 'userId'>): NewJob {
  return {
    queue: LIVE_RUN_QUEUE,
    groupKey: `user:${run.userId}`,
    batchKey: runBatchKey(run.id),
    payload: { runId: run.id },
    maxAttempts: LIVE_RUN_MAX_CLAIMS,
  };
}

/** Stores a running run with its job (in `db`: the starting transaction). */
export async function insertRun(db: Db, run: NewLiveRun, nowMs: number): Promise<LiveRunRow> {
  const [row] = await db.insert(liveRuns).values(run).returning();
  if (!row) throw new Error('live run insert returned no row');
  await enqueueJobs(db, [runJob(row)], nowMs);
  return row;
}

/** A run by id (the runner's view of a claimed job's run); null when there is none. */
export async function runById(db: Db, id: string): Promise<LiveRunRow | null> {
  const [row] = await db.select().from(liveRuns).where(eq(liveRuns.id, id));
  return row ?? null;
}

/** Runs of the user that are running now. */
export async function countRunning(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(liveRuns)
    .where(and(eq(liveRuns.userId, userId), eq(liveRuns.status, RUNNING)));
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

/** Stops a running run of the user (its job is cancelled with it); the run as it is after. */
export async function stopRun(
  db: Db,
  userId: number,
  id: string,
  nowMs: number,
): Promise<LiveRunRow | null> {
  const stopped = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(liveRuns)
      .set({ status: liveRunTransition(RUNNING, 'Stopped'), stoppedAt: nowMs })
      .where(and(eq(liveRuns.id, id), eq(liveRuns.userId, userId), eq(liveRuns.status, RUNNING)))
      .returning();
    if (row) await cancelBatch(tx, runBatchKey(id), nowMs);
    return row;
  });
  return stopped ?? findRun(db, userId, id);
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
 * the run's job and the bar is newer than the last one evaluated: a bar is never counted
 * twice. A run stopped as failed ends its job in the same transaction. Keeps the newest
 * `keep` evaluations of the run. False when nothing was written.
 */
export async function recordEvaluation(db: Db, record: EvaluationRecord): Promise<boolean> {
  const { view } = record;
  return db.transaction(async (tx) => {
    const job = await heldJob(tx, runBatchKey(record.runId), record.owner);
    if (!job) return false;
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
              status: liveRunTransition(RUNNING, 'Failed'),
              error: record.failWith,
              stoppedAt: record.atMs,
            }
          : {}),
      })
      .where(
        and(
          eq(liveRuns.id, record.runId),
          eq(liveRuns.status, RUNNING),
          or(isNull(liveRuns.lastBarTime), lt(liveRuns.lastBarTime, record.barTimeMs)),
        ),
      )
      .returning({ id: liveRuns.id });
    if (!updated) return false;
    if (record.failWith !== null) {
      await finishJob(tx, job.id, record.owner, 'failed', record.atMs);
    }
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
