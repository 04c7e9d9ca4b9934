import type { JobRow } from '../../db/schema.ts';
import { rawQuery, type SqlRow } from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';

/*
 * SQL of the job queue. A claim is one short transaction holding the queue's advisory lock
 * (claims of one queue are serialised, so the bounds per group and per batch hold across
 * workers), then `FOR UPDATE SKIP LOCKED` on the chosen row. Writes of a worker carry its
 * lease: a job cancelled or taken over meanwhile changes nothing (the write answers false).
 */

// Any constant of ours; the second key is the queue's hash.
const CLAIM_LOCK_KEY = 7_402_120;

export type NewJob = {
  queue: string;
  /** Whose work it is (`user:<id>`): claims are fair across groups. */
  groupKey: string;
  /** The larger piece of work it belongs to (an optimisation), or null. */
  batchKey: string | null;
  payload: unknown;
  maxAttempts: number;
};

export type ClaimBounds = {
  /** Jobs of one group active at once, across all workers. */
  maxPerGroup: number;
  /** Jobs of one batch active at once, across all workers. */
  maxPerBatch: number;
};

function toJob(row: SqlRow): JobRow {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(row.id),
    queue: String(row.queue),
    groupKey: String(row.group_key),
    batchKey: row.batch_key === null ? null : String(row.batch_key),
    payload: row.payload,
    state: String(row.state),
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    leaseOwner: row.lease_owner === null ? null : String(row.lease_owner),
    leaseUntilMs: n(row.lease_until_ms),
    createdMs: Number(row.created_ms),
    startedMs: n(row.started_ms),
    finishedMs: n(row.finished_ms),
    error: row.error === null ? null : String(row.error),
    claimId: n(row.claim_id),
  };
}

/** Adds jobs (queued) in `db` (a transaction, so they appear with what asked for them). */
export async function enqueueJobs(db: Db, jobs: readonly NewJob[], nowMs: number): Promise<void> {
  const CHUNK = 500;
  for (let at = 0; at < jobs.length; at += CHUNK) {
    const part = jobs.slice(at, at + CHUNK);
    await rawQuery(
      db,
      `insert into jobs (queue, group_key, batch_key, payload, state, max_attempts, created_ms)
       select x.queue, x.group_key, x.batch_key, x.payload, 'queued', x.max_attempts, $2
       from jsonb_to_recordset($1::jsonb) as x(queue text, group_key text, batch_key text, payload jsonb, max_attempts int)`,
      [
        JSON.stringify(
          part.map((job) => ({
            queue: job.queue,
            group_key: job.groupKey,
            batch_key: job.batchKey,
            payload: job.payload,
            max_attempts: job.maxAttempts,
          })),
        ),
        nowMs,
      ],
    );
  }
}

/**
 * The lease a claim gives the jobs of the CTE `chosen` (the same for the first job of a claim
 * and the further ones of its batch): active, held by $2 until $3 + $4, one more attempt,
 * started at $3, under the claim `claimId` (an SQL expression).
 */
const LEASE = (chosen: string, claimId: string) => `
update jobs set state = 'active', lease_owner = $2, lease_until_ms = $3 + $4,
  attempts = jobs.attempts + 1, started_ms = $3, claim_id = ${claimId}
from ${chosen} where jobs.id = ${chosen}.id
returning jobs.*`;

export const CLAIM = `
with busy as (
  select group_key, count(distinct coalesce(claim_id, id))::int as n from jobs
  where queue = $1 and state = 'active' and lease_until_ms >= $3
  group by group_key
), busy_batch as (
  select batch_key, count(distinct coalesce(claim_id, id))::int as n from jobs
  where queue = $1 and state = 'active' and lease_until_ms >= $3 and batch_key is not null
  group by batch_key
), waiting as (
  select j.id, j.group_key, j.batch_key from jobs j
  where j.queue = $1 and j.state = 'queued' and j.lease_owner is distinct from $2
  union all
  select j.id, j.group_key, j.batch_key from jobs j
  where j.queue = $1 and j.state = 'active' and j.lease_until_ms < $3
    and j.lease_owner is distinct from $2
), candidates as (
  select w.id, w.group_key, coalesce(g.n, 0) as running from waiting w
  left join busy g on g.group_key = w.group_key
  left join busy_batch b on b.batch_key = w.batch_key
  where coalesce(g.n, 0) < $5
    and coalesce(b.n, 0) < $6
), served as (
  select c.group_key, last.at from (select distinct group_key from candidates) c
  cross join lateral (
    select s.started_ms as at from jobs s
    where s.queue = $1 and s.group_key = c.group_key and s.started_ms is not null
    order by s.started_ms desc
    limit 1) last
), next as (
  select j.id from jobs j
  join candidates c on c.id = j.id
  left join served s on s.group_key = c.group_key
  order by c.running, s.at asc nulls first, j.id
  limit 1
  for update of j skip locked
)
${LEASE('next', 'jobs.id')}`;

/**
 * More jobs of the claimed job's batch (and group) for the same claim: queued ones, or active
 * ones whose lease ran out, oldest first; they share its claim id, so the bounds count the
 * claim once.
 */
const CLAIM_MORE = `
with more as (
  select j.id from jobs j
  where j.queue = $1 and j.batch_key = $5 and j.group_key = $6 and j.id <> $7
    and (j.state = 'queued' or (j.state = 'active' and j.lease_until_ms < $3))
    and j.lease_owner is distinct from $2
  order by j.id
  limit $8
  for update of j skip locked
)
${LEASE('more', '$7')}`;

/**
 * Claims the next job of `queue`: queued, or active with a lease that ran out (its worker
 * died). Fair, round robin over groups: the group with the fewest active jobs goes first;
 * on a tie the group served least recently (its newest start is the oldest, or it never
 * started one), then the oldest job; no group or batch goes over its bound. Claims of one
 * queue are serialised by its advisory lock, so every worker on every node follows this
 * order. Null when there is nothing this worker may take.
 */
export async function claimJob(
  db: Db,
  queue: string,
  owner: string,
  nowMs: number,
  leaseMs: number,
  bounds: ClaimBounds,
): Promise<JobRow | null> {
  const [job] = await claimJobs(db, queue, owner, nowMs, leaseMs, bounds, () => 0);
  return job ?? null;
}

/**
 * `claimJob`, then in the same transaction up to `more(first)` further jobs of the first
 * one's batch and group (a worker runs them together: several trials per claim and per
 * sandbox message). The bounds count a claim once, however many jobs it took; each job keeps
 * its own lease, attempts and `finishJob`. Oldest first; empty when there is nothing to take.
 */
export async function claimJobs(
  db: Db,
  queue: string,
  owner: string,
  nowMs: number,
  leaseMs: number,
  bounds: ClaimBounds,
  more: (first: JobRow) => number,
): Promise<JobRow[]> {
  return db.transaction(async (tx) => {
    await rawQuery(tx, 'select pg_advisory_xact_lock($1, hashtext($2))', [CLAIM_LOCK_KEY, queue]);
    const [head] = await rawQuery(tx, CLAIM, [
      queue,
      owner,
      nowMs,
      leaseMs,
      Math.min(bounds.maxPerGroup, MAX_BOUND),
      Math.min(bounds.maxPerBatch, MAX_BOUND),
    ]);
    if (!head) return [];
    const first = toJob(head);
    const extra = Math.max(0, Math.floor(more(first)));
    if (extra === 0 || first.batchKey === null) return [first];
    const rows = await rawQuery(tx, CLAIM_MORE, [
      queue,
      owner,
      nowMs,
      leaseMs,
      first.batchKey,
      first.groupKey,
      first.id,
      extra,
    ]);
    return [first, ...rows.map(toJob).sort((a, b) => a.id - b.id)];
  });
}

/** "No bound" as an int4 the claim's SQL can compare with. */
const MAX_BOUND = 2_000_000_000;

/**
 * Extends the leases of the jobs of `queue` that `owner` holds, in one statement (a worker
 * may hold many: a live run is a job held for as long as it runs); the ids it still holds.
 */
export async function renewJobs(
  db: Db,
  queue: string,
  owner: string,
  untilMs: number,
): Promise<Set<number>> {
  const rows = await rawQuery(
    db,
    `update jobs set lease_until_ms = $3 where queue = $1 and lease_owner = $2 and state = 'active' returning id`,
    [queue, owner, untilMs],
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/**
 * The active job of `batchKey` while `owner` holds it, locked until the transaction `db`
 * ends (a cancel or a takeover waits for it): a write that must happen only under the lease
 * checks it first in its transaction. Null when the job is no longer `owner`'s.
 */
export async function heldJob(db: Db, batchKey: string, owner: string): Promise<JobRow | null> {
  const rows = await rawQuery(
    db,
    `select * from jobs where batch_key = $1 and lease_owner = $2 and state = 'active' for update`,
    [batchKey, owner],
  );
  return rows[0] ? toJob(rows[0]) : null;
}

/** The newest job of `batchKey` (its state and lease), or null. */
export async function latestJob(db: Db, batchKey: string): Promise<JobRow | null> {
  const rows = await rawQuery(
    db,
    'select * from jobs where batch_key = $1 order by id desc limit 1',
    [batchKey],
  );
  return rows[0] ? toJob(rows[0]) : null;
}

/** Extends the lease; false when the job is no longer this worker's (cancelled, taken over). */
export async function renewJob(
  db: Db,
  id: number,
  owner: string,
  untilMs: number,
): Promise<boolean> {
  const rows = await rawQuery(
    db,
    `update jobs set lease_until_ms = $3 where id = $1 and lease_owner = $2 and state = 'active' returning id`,
    [id, owner, untilMs],
  );
  return rows.length > 0;
}

/**
 * Ends a held job (`done` or `failed`); false when it was not held by `owner` any more, in
 * which case the caller's transaction must keep nothing of its result.
 */
export async function finishJob(
  db: Db,
  id: number,
  owner: string,
  state: 'done' | 'failed' | 'cancelled',
  nowMs: number,
  error: string | null = null,
): Promise<boolean> {
  const rows = await rawQuery(
    db,
    `update jobs set state = $3, finished_ms = $4, error = $5, lease_owner = null, lease_until_ms = null
     where id = $1 and lease_owner = $2 and state = 'active' returning id`,
    [id, owner, state, nowMs, error],
  );
  return rows.length > 0;
}

/**
 * `finishJob` for several held jobs in one statement (a batch kept in one transaction): the
 * ids that were still held by `owner` and are now ended; the caller keeps only their results.
 */
export async function finishJobs(
  db: Db,
  ids: readonly number[],
  owner: string,
  state: 'done' | 'failed' | 'cancelled',
  nowMs: number,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await rawQuery(
    db,
    `update jobs set state = $3, finished_ms = $4, lease_owner = null, lease_until_ms = null
     where id = any($1::bigint[]) and lease_owner = $2 and state = 'active' returning id`,
    [`{${ids.join(',')}}`, owner, state, nowMs],
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/** Gives a held job back (queued) so that any worker takes it at once (the worker stops). */
export async function releaseJob(db: Db, id: number, owner: string): Promise<void> {
  await rawQuery(
    db,
    `update jobs set state = 'queued', lease_owner = null, lease_until_ms = null,
       attempts = greatest(attempts - 1, 0)
     where id = $1 and lease_owner = $2 and state = 'active'`,
    [id, owner],
  );
}

/** Cancels a batch's jobs that have not finished (running ones lose their lease); their count. */
export async function cancelBatch(db: Db, batchKey: string, nowMs: number): Promise<number> {
  const rows = await rawQuery(
    db,
    `update jobs set state = 'cancelled', finished_ms = $2, lease_owner = null, lease_until_ms = null
     where batch_key = $1 and state in ('queued', 'active') returning id`,
    [batchKey, nowMs],
  );
  return rows.length;
}

/** Deletes a batch's jobs. */
export async function deleteBatch(db: Db, batchKey: string): Promise<void> {
  await rawQuery(db, 'delete from jobs where batch_key = $1', [batchKey]);
}

/** Jobs of a queue by state (tests, metrics). */
export async function countJobs(db: Db, queue: string): Promise<Record<string, number>> {
  const rows = await rawQuery(
    db,
    'select state, count(*)::int as n from jobs where queue = $1 group by state',
    [queue],
  );
  return Object.fromEntries(rows.map((row) => [String(row.state), Number(row.n)]));
}
