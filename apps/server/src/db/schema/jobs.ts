import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

/*
 * The job queue of the `worker` role (modules/jobs). Times are epoch milliseconds.
 */
const epochMs = (name: string) => bigint(name, { mode: 'number' });

/**
 * One unit of work of a queue, its kind (`optimization-trial`, `ai-task`, `live-run`). A worker claims it
 * (`state` active, `lease_owner`, `lease_until_ms` in the future, renewed while it works);
 * a job whose worker died is claimed again once its lease has run out. `group_key` is whose
 * work it is (a user): claims are fair across groups and bounded per group; `batch_key`
 * ties jobs of one larger piece of work (an optimisation), bounded and cancelled together.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text('queue').notNull(),
    groupKey: text('group_key').notNull(),
    batchKey: text('batch_key'),
    payload: jsonb('payload').notNull(),
    /** queued | active | done | failed | cancelled */
    state: text('state').notNull(),
    /** Claims so far (a job claimed again after its worker died counts twice). */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntilMs: epochMs('lease_until_ms'),
    createdMs: epochMs('created_ms').notNull(),
    startedMs: epochMs('started_ms'),
    finishedMs: epochMs('finished_ms'),
    error: text('error'),
    /**
     * The first job of the claim that took this one (a worker may take several jobs of one
     * batch in one claim): the bounds count claims, not jobs. Null before the first claim.
     */
    claimId: bigint('claim_id', { mode: 'number' }),
  },
  (t) => [
    index('jobs_queue_state_idx').on(t.queue, t.state, t.id),
    // the claim's jobs: its size stays that of the work waiting and running, however many
    // jobs have ended (a plan made while few had would otherwise read them all, on PGlite
    // for good: it runs no ANALYZE)
    index('jobs_live_idx')
      .on(t.queue, t.state, t.id)
      .where(sql`${t.state} in ('queued', 'active')`),
    index('jobs_batch_idx').on(t.batchKey),
    // "served least recently" of the claim: the newest start of a group's jobs
    index('jobs_group_started_idx').on(t.queue, t.groupKey, t.startedMs),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
