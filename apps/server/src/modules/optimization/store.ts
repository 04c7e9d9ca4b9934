import {
  OPTIMIZATION_CREATED,
  OPTIMIZATION_OPEN,
  TRIAL_CREATED,
  optimizationTransition,
  trialTransition,
  type OptimizationStatus,
  type ParamValues,
  type TrialsSummary,
} from '@ct/domain';
import { and, eq } from 'drizzle-orm';
import { rawQuery, type SqlRow } from '../../db/raw.ts';
import { optimizations, strategies, type OptimizationRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { cancelBatch, deleteBatch, enqueueJobs, type NewJob } from '../jobs/store.ts';
import type { Stage, TrialPayload } from './run-steps/deps.ts';
import { TRIAL_QUEUE } from './settings.ts';

/*
 * SQL of the optimisations: their rows, their trials' rows and the trials' jobs. Every status
 * written is what the domain's transition tables give (modules/status-literals.test.ts).
 */

export type NewOptimization = typeof optimizations.$inferInsert;
/** A trial's row as created: its stage, its index in the stage and its values. */
export type NewTrial = { stage: Stage; index: number; params: ParamValues };
/** A trial's result as kept: done with its figures (returns at `at`, `length` bytes) or failed. */
export type TrialRecord = {
  stage: Stage;
  index: number;
  status: string;
  error?: string;
  performance?: unknown;
  score?: number | null;
  detail?: unknown;
  at?: number;
  length?: number;
};

/** The job of a trial: the user's group (fair claims across users), the optimisation's batch. */
export function trialJob(
  maxAttempts: number,
  userId: number,
  optimization: string,
  stage: Stage,
  index: number,
  params: ParamValues,
): NewJob {
  return {
    queue: TRIAL_QUEUE,
    groupKey: `user:${userId}`,
    batchKey: optimization,
    payload: { optimization, stage, index, params } satisfies TrialPayload,
    maxAttempts,
  };
}

/** The code of a user's saved strategy; null when there is none of that name. */
export async function strategyCode(db: Db, userId: number, name: string): Promise<string | null> {
  const [row] = await db
    .select({ code: strategies.code })
    .from(strategies)
    .where(and(eq(strategies.userId, userId), eq(strategies.name, name)));
  return row?.code ?? null;
}

export async function optimizationById(db: Db, id: string): Promise<OptimizationRow | null> {
  const [row] = await db.select().from(optimizations).where(eq(optimizations.id, id));
  return row ?? null;
}

/** The user's optimisation `id`; null when it is not theirs or does not exist. */
export async function ownedOptimization(
  db: Db,
  userId: number,
  id: string,
): Promise<OptimizationRow | null> {
  const [row] = await db
    .select()
    .from(optimizations)
    .where(and(eq(optimizations.id, id), eq(optimizations.userId, userId)));
  return row ?? null;
}

export async function listOptimizations(db: Db, userId: number, strategyName?: string) {
  return db
    .select({
      id: optimizations.id,
      strategyName: optimizations.strategyName,
      symbol: optimizations.symbol,
      period: optimizations.period,
      objective: optimizations.objective,
      method: optimizations.method,
      status: optimizations.status,
      trialsDone: optimizations.trialsDone,
      trialsTotal: optimizations.trialsTotal,
      createdMs: optimizations.createdMs,
      finishedMs: optimizations.finishedMs,
    })
    .from(optimizations)
    .where(
      strategyName === undefined
        ? eq(optimizations.userId, userId)
        : and(eq(optimizations.userId, userId), eq(optimizations.strategyName, strategyName)),
    );
}

/** A page of the main trials, by index, objective or a performance figure (`-` descending). */
export async function trialPage(
  db: Db,
  id: string,
  query: { skip: number; limit: number; sort: string },
): Promise<SqlRow[]> {
  const descending = query.sort.startsWith('-');
  const key = descending ? query.sort.slice(1) : query.sort;
  const order =
    key === 'index' ? 'index' : key === 'objective' ? 'score' : `(performance->>'${key}')::float8`;
  return rawQuery(
    db,
    `select index, params, status, performance, score, error from optimization_trials
     where optimization_id = $1 and stage = 'main'
     order by ${order} ${descending ? 'desc' : 'asc'} nulls last, index
     offset $2 limit $3`,
    [id, query.skip, query.limit],
  );
}

export async function mainTrialCount(db: Db, id: string): Promise<number> {
  const [row] = await rawQuery(
    db,
    `select count(*)::int as n from optimization_trials where optimization_id = $1 and stage = 'main'`,
    [id],
  );
  return Number(row?.n ?? 0);
}

/** Optimisations of the user that still wait or run. */
export async function openCount(tx: Db, userId: number): Promise<number> {
  const [open] = await rawQuery(
    tx,
    `select count(*)::int as n from optimizations where user_id = $1 and status in ($2, $3)`,
    [userId, ...OPTIMIZATION_OPEN],
  );
  return Number(open?.n ?? 0);
}

/** A new optimisation with its trials, queued, and their jobs. */
export async function insertOptimization(
  tx: Db,
  row: NewOptimization,
  trials: readonly NewTrial[],
  jobs: readonly NewJob[],
): Promise<void> {
  await tx.insert(optimizations).values(row);
  for (let at = 0; at < trials.length; at += 500) {
    await rawQuery(
      tx,
      `insert into optimization_trials (optimization_id, stage, index, params, status)
       select $1, x.stage, x.index, x.params, $3
       from jsonb_to_recordset($2::jsonb) as x(stage text, index int, params jsonb)`,
      [row.id, JSON.stringify(trials.slice(at, at + 500)), TRIAL_CREATED],
    );
  }
  await enqueueJobs(tx, jobs, row.createdMs);
}

/** Cancels an optimisation that waits or runs (`from`), its queued trials and their jobs. */
export async function cancelOptimization(
  tx: Db,
  id: string,
  from: OptimizationStatus,
  nowMs: number,
): Promise<void> {
  await rawQuery(
    tx,
    `update optimizations set status = $3, finished_ms = $2 where id = $1 and status in ($4, $5)`,
    [id, nowMs, optimizationTransition(from, 'Cancelled'), ...OPTIMIZATION_OPEN],
  );
  await rawQuery(
    tx,
    `update optimization_trials set status = $2 where optimization_id = $1 and status = $3`,
    [id, trialTransition(TRIAL_CREATED, 'Cancelled'), TRIAL_CREATED],
  );
  await cancelBatch(tx, id, nowMs);
}

/** Deletes the user's optimisation, its trials and its jobs. */
export async function deleteOptimization(
  tx: Db,
  userId: number,
  id: string,
  nowMs: number,
): Promise<void> {
  await cancelBatch(tx, id, nowMs);
  await deleteBatch(tx, id);
  await tx
    .delete(optimizations)
    .where(and(eq(optimizations.id, id), eq(optimizations.userId, userId)));
}

/** The rows of the trials `keys` (their values and status; for jobs that lack the values). */
export async function trialsByKey(
  db: Db,
  id: string,
  keys: readonly { stage: Stage; index: number }[],
): Promise<SqlRow[]> {
  return rawQuery(
    db,
    `select t.stage, t.index, t.params, t.status from optimization_trials t
     join jsonb_to_recordset($2::jsonb) as x(stage text, index int)
       on t.stage = x.stage and t.index = x.index
     where t.optimization_id = $1`,
    [id, JSON.stringify(keys)],
  );
}

/** Marks a waiting optimisation started (its first trials run). */
export async function markStarted(db: Db, id: string, nowMs: number): Promise<void> {
  await rawQuery(
    db,
    `update optimizations set status = $3, started_ms = coalesce(started_ms, $2) where id = $1 and status = $4`,
    [id, nowMs, optimizationTransition(OPTIMIZATION_CREATED, 'Started'), OPTIMIZATION_CREATED],
  );
}

/**
 * Writes the results of queued trials in one statement (returns as float64 bytes, each cut
 * from `blob`) and counts them on the optimisation; how many were written.
 */
export async function storeTrials(
  tx: Db,
  id: string,
  records: readonly TrialRecord[],
  blob: Buffer,
  nowMs: number,
): Promise<number> {
  const stored = await rawQuery(
    tx,
    `update optimization_trials t set status = x.status, performance = x.performance,
       score = x.score, returns = null,
       returns_f64 = case when x.length is null then null
         else substring($3::bytea from x.at + 1 for x.length) end,
       detail = x.detail, error = x.error, runs = t.runs + 1, finished_ms = $4
     from jsonb_to_recordset($2::jsonb) as x(stage text, index int, status text,
       performance jsonb, score float8, detail jsonb, error text, at int, length int)
     where t.optimization_id = $1 and t.stage = x.stage and t.index = x.index
       and t.status = $5
     returning t.id`,
    [id, JSON.stringify(records), blob, nowMs, TRIAL_CREATED],
  );
  if (stored.length === 0) return 0;
  await rawQuery(
    tx,
    `update optimizations set trials_done = trials_done + $5,
       status = case when status = $3 then $4 else status end,
       started_ms = coalesce(started_ms, $2)
     where id = $1`,
    [
      id,
      nowMs,
      OPTIMIZATION_CREATED,
      optimizationTransition(OPTIMIZATION_CREATED, 'Started'),
      stored.length,
    ],
  );
  return stored.length;
}

/** The optimisation's status, user and walk-forward settings, its row locked. */
export async function lockOptimization(tx: Db, id: string): Promise<SqlRow | null> {
  const [row] = await rawQuery(
    tx,
    `select status, user_id, request->'walk_forward' as walk_forward from optimizations
     where id = $1 for update`,
    [id],
  );
  return row ?? null;
}

/** Per stage: its trials and those still queued. */
export async function stageCounts(
  tx: Db,
  id: string,
): Promise<Map<string, { pending: number; total: number }>> {
  const rows = await rawQuery(
    tx,
    `select stage, count(*) filter (where status = $2)::int as pending,
       count(*)::int as total from optimization_trials where optimization_id = $1 group by stage`,
    [id, TRIAL_CREATED],
  );
  return new Map(
    rows.map((s) => [String(s.stage), { pending: Number(s.pending), total: Number(s.total) }]),
  );
}

/** The values of a stage's best trial that ran without error (highest score, then index). */
export async function bestOfStage(tx: Db, id: string, stage: Stage): Promise<ParamValues | null> {
  const [best] = await rawQuery(
    tx,
    `select params from optimization_trials where optimization_id = $1 and stage = $2
       and status = $3 order by score desc nulls last, index limit 1`,
    [id, stage, trialTransition(TRIAL_CREATED, 'Done')],
  );
  return best ? (best.params as ParamValues) : null;
}

/** A trial that cannot run, kept failed with `error` and counted. */
export async function insertFailedTrial(
  tx: Db,
  id: string,
  stage: Stage,
  error: string,
  nowMs: number,
): Promise<void> {
  await rawQuery(
    tx,
    `insert into optimization_trials (optimization_id, stage, index, params, status, error, finished_ms)
     values ($1, $2, 0, '{}'::jsonb, $5, $3, $4)`,
    [id, stage, error, nowMs, trialTransition(TRIAL_CREATED, 'Failed')],
  );
  await rawQuery(tx, 'update optimizations set trials_done = trials_done + 1 where id = $1', [id]);
}

/** A queued trial added to a running optimisation, with its job. */
export async function insertQueuedTrial(
  tx: Db,
  id: string,
  trial: NewTrial,
  job: NewJob,
  nowMs: number,
): Promise<void> {
  await rawQuery(
    tx,
    `insert into optimization_trials (optimization_id, stage, index, params, status)
     values ($1, $2, $3, $4::jsonb, $5)`,
    [id, trial.stage, trial.index, JSON.stringify(trial.params), TRIAL_CREATED],
  );
  await enqueueJobs(tx, [job], nowMs);
}

export async function trialCounts(
  tx: Db,
  id: string,
): Promise<{ done: number; total: number } | null> {
  const [counts] = await rawQuery(
    tx,
    'select trials_done, trials_total from optimizations where id = $1',
    [id],
  );
  return counts ? { done: Number(counts.trials_done), total: Number(counts.trials_total) } : null;
}

/** Every trial of the optimisation with its figures and returns (for the summary). */
export async function trialsForSummary(tx: Db, id: string): Promise<SqlRow[]> {
  return rawQuery(
    tx,
    `select stage, index, params, status, performance, score, returns, returns_f64, detail, error
     from optimization_trials where optimization_id = $1 order by stage, index`,
    [id],
  );
}

/** Completes a running optimisation (`from`) with its summary. */
export async function completeOptimization(
  tx: Db,
  id: string,
  from: OptimizationStatus,
  summary: TrialsSummary,
  nowMs: number,
): Promise<void> {
  await rawQuery(
    tx,
    `update optimizations set status = $4, summary = $2::jsonb, finished_ms = $3 where id = $1`,
    [id, JSON.stringify(summary), nowMs, optimizationTransition(from, 'Completed')],
  );
}
