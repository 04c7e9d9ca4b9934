import { toEpochSec, toEpochMs, AI_TASK_CREATED, aiTaskTransition, storableJson } from '@ct/domain';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  aiTaskMessages,
  aiTasks,
  type AiTaskMessageRow,
  type AiTaskRow,
  type JobRow,
} from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import {
  claimJob,
  deleteBatch,
  enqueueJobs,
  finishJob,
  heldJob,
  latestJob,
  releaseJob,
  renewJob,
  type ClaimBounds,
  type NewJob,
} from '../jobs/store.ts';

/** The job queue of AI strategy tasks. */
export const AI_TASK_QUEUE = 'ai-task';
/** A task claimed this many times (its worker died each time) stops as FAILED. */
export const MAX_TASK_CLAIMS = 5;
/** No bound per user on running tasks (AI_TASK_MAX_PENDING_PER_USER bounds creation). */
export const AI_TASK_BOUNDS: ClaimBounds = {
  maxPerGroup: Number.MAX_SAFE_INTEGER,
  maxPerBatch: 1,
};
/** A task's job's batch key: the task's writes find their lease by it. */
export const taskBatchKey = (taskId: number) => `ai-task:${taskId}`;

// SQL of AI strategy tasks. A waiting or running task has a job in the `ai-task` queue
// (modules/jobs): the job is claimed, leased and given up like every job. Writes of a worker
// check the job's lease in their transaction: a task deleted meanwhile, or taken over after
// the lease ran out, changes nothing (the write answers false / null).
// What a model wrote (messages, code, errors, results) is stored as storable text: no NUL,
// no lone surrogate (PostgreSQL refuses them), so an odd answer never loses the task.

export type NewAiTask = typeof aiTasks.$inferInsert;
export type NewAiTaskMessage = Omit<typeof aiTaskMessages.$inferInsert, 'id'>;

export async function findTask(db: Db, userId: number, id: number): Promise<AiTaskRow | null> {
  const [row] = await db
    .select()
    .from(aiTasks)
    .where(and(eq(aiTasks.id, id), eq(aiTasks.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** The user's tasks, newest first, and how many there are. */
export async function listTasks(
  db: Db,
  userId: number,
  skip: number,
  limit: number,
): Promise<{ rows: AiTaskRow[]; total: number }> {
  const rows = await db
    .select()
    .from(aiTasks)
    .where(eq(aiTasks.userId, userId))
    .orderBy(desc(aiTasks.id))
    .offset(skip)
    .limit(limit);
  const [counted] = await db
    .select({ total: count() })
    .from(aiTasks)
    .where(eq(aiTasks.userId, userId));
  return { rows, total: counted?.total ?? 0 };
}

export async function listMessages(
  db: Db,
  taskId: number,
  retryNumber: number | null,
): Promise<AiTaskMessageRow[]> {
  return db
    .select()
    .from(aiTaskMessages)
    .where(
      retryNumber === null
        ? eq(aiTaskMessages.taskId, taskId)
        : and(eq(aiTaskMessages.taskId, taskId), eq(aiTaskMessages.retryNumber, retryNumber)),
    )
    .orderBy(asc(aiTaskMessages.id));
}

/** The attempts a task's conversation has, ascending. */
export async function retryNumbers(db: Db, taskId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ n: aiTaskMessages.retryNumber })
    .from(aiTaskMessages)
    .where(eq(aiTaskMessages.taskId, taskId))
    .orderBy(asc(aiTaskMessages.retryNumber));
  return rows.map((r) => r.n);
}

export async function countMessages(db: Db, taskId: number): Promise<number> {
  const [counted] = await db
    .select({ n: count() })
    .from(aiTaskMessages)
    .where(eq(aiTaskMessages.taskId, taskId));
  return counted?.n ?? 0;
}

/** The user's tasks not yet finished (waiting or running). */
export async function countOpenTasks(db: Db, userId: number): Promise<number> {
  const [counted] = await db
    .select({ n: count() })
    .from(aiTasks)
    .where(and(eq(aiTasks.userId, userId), inArray(aiTasks.status, ['PENDING', 'PROCESSING'])));
  return counted?.n ?? 0;
}

/** Serializes the bound check and insert of one user's new tasks (until the transaction ends). */
export async function lockUserTasks(tx: Db, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${TASKS_LOCK_CLASS}, ${userId})`);
}
const TASKS_LOCK_CLASS = 0x4154; // 'AT'

/** The claim of a task: its job's lease and how often it was claimed. */
export type TaskLease = { leaseOwner: string | null; leaseUntilMs: number | null; claims: number };
/** A task with its claim (the worker's view of a claimed task). */
export type HeldTask = AiTaskRow & TaskLease & { jobId: number };

/** The job of a task in the `ai-task` queue. */
export function taskJob(task: Pick<AiTaskRow, 'id' | 'userId'>): NewJob {
  return {
    queue: AI_TASK_QUEUE,
    groupKey: `user:${task.userId}`,
    batchKey: taskBatchKey(task.id),
    payload: { taskId: task.id },
    maxAttempts: MAX_TASK_CLAIMS,
  };
}

/** Stores a task PENDING with its job (in `db`: the creating transaction). */
export async function insertTask(db: Db, task: NewAiTask, nowMs: number): Promise<AiTaskRow> {
  const [row] = await db.insert(aiTasks).values(task).returning();
  if (!row) throw new Error('ai task insert returned no row');
  await enqueueJobs(db, [taskJob(row)], nowMs);
  return row;
}

/** Deletes the user's task (its messages and its job go with it); the deleted row, or null. */
export async function deleteTask(db: Db, userId: number, id: number): Promise<AiTaskRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(aiTasks)
      .where(and(eq(aiTasks.id, id), eq(aiTasks.userId, userId)))
      .returning();
    if (row) await deleteBatch(tx, taskBatchKey(id));
    return row ?? null;
  });
}

/**
 * A claimed job's task, now PROCESSING (first start kept); null when the task is gone or
 * the job is no longer `owner`'s (its job is then ended by whoever removed the task).
 */
export async function startTask(
  db: Db,
  job: Pick<JobRow, 'id' | 'attempts' | 'leaseUntilMs' | 'payload'>,
  owner: string,
  nowMs: number,
): Promise<HeldTask | null> {
  const taskId = Number((job.payload as { taskId?: unknown }).taskId);
  const seconds = toEpochSec(nowMs);
  return db.transaction(async (tx) => {
    if (!(await heldJob(tx, taskBatchKey(taskId), owner))) return null;
    const [row] = await tx
      .update(aiTasks)
      .set({
        // a task whose worker stopped is started again: PROCESSING either way
        status: aiTaskTransition(AI_TASK_CREATED, 'Started'),
        startedAt: sql`coalesce(${aiTasks.startedAt}, ${seconds})`,
        updatedAt: seconds,
      })
      .where(eq(aiTasks.id, taskId))
      .returning();
    if (!row) return null;
    return {
      ...row,
      jobId: job.id,
      leaseOwner: owner,
      leaseUntilMs: job.leaseUntilMs,
      claims: job.attempts,
    };
  });
}

/**
 * Claims the next task in the `ai-task` queue (modules/jobs `claimJob`: round robin over
 * users, a lease that ran out is claimed again) and starts it. Null when there is nothing to do.
 */
export async function claimTask(
  db: Db,
  owner: string,
  nowMs: number,
  leaseMs: number,
): Promise<HeldTask | null> {
  for (;;) {
    const job = await claimJob(db, AI_TASK_QUEUE, owner, nowMs, leaseMs, AI_TASK_BOUNDS);
    if (!job) return null;
    const task = await startTask(db, job, owner, nowMs);
    if (task) return task;
  }
}

/** A task with its job's claim (tests, operators); null when there is no such task. */
export async function taskWithLease(db: Db, id: number): Promise<(AiTaskRow & TaskLease) | null> {
  const [row] = await db.select().from(aiTasks).where(eq(aiTasks.id, id));
  if (!row) return null;
  const job = await latestJob(db, taskBatchKey(id));
  const live = job?.state === 'active';
  return {
    ...row,
    leaseOwner: live ? job.leaseOwner : null,
    leaseUntilMs: live ? job.leaseUntilMs : null,
    claims: job?.attempts ?? 0,
  };
}

/** Extends the lease; false when the task is gone or no longer this worker's. */
export async function renewLease(
  db: Db,
  id: number,
  owner: string,
  untilMs: number,
): Promise<boolean> {
  const job = await latestJob(db, taskBatchKey(id));
  return job !== null && renewJob(db, job.id, owner, untilMs);
}

/** Appends a message while the task is still this worker's; null otherwise. */
export async function appendMessage(
  db: Db,
  owner: string,
  message: NewAiTaskMessage,
): Promise<AiTaskMessageRow | null> {
  return db.transaction(async (tx) => {
    if (!(await heldJob(tx, taskBatchKey(message.taskId), owner))) return null;
    const [row] = await tx.insert(aiTaskMessages).values(storableJson(message)).returning();
    return row ?? null;
  });
}

/**
 * Changes a held task's fields (retry count, the end); false when it is no longer held. The
 * end (COMPLETED, FAILED) finishes its job in the same transaction.
 */
export async function updateHeldTask(
  db: Db,
  id: number,
  owner: string,
  values: Partial<
    Pick<
      AiTaskRow,
      'status' | 'retryCount' | 'code' | 'backtestResult' | 'errorMessage' | 'finishedAt'
    >
  > & { updatedAt: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const job = await heldJob(tx, taskBatchKey(id), owner);
    if (!job) return false;
    if (values.status === 'COMPLETED' || values.status === 'FAILED') {
      const state = values.status === 'COMPLETED' ? 'done' : 'failed';
      // the task row keeps the error (as storable text); the job only ends
      await finishJob(tx, job.id, owner, state, toEpochMs(values.updatedAt));
    }
    const rows = await tx
      .update(aiTasks)
      .set(storableJson(values))
      .where(eq(aiTasks.id, id))
      .returning({ id: aiTasks.id });
    return rows.length > 0;
  });
}

/** Gives a held task back (PENDING, its job queued) so that any worker takes it up at once. */
export async function releaseTask(db: Db, id: number, owner: string, at: number): Promise<void> {
  await db.transaction(async (tx) => {
    const job = await heldJob(tx, taskBatchKey(id), owner);
    if (!job) return;
    // an orderly stop is not a crash: it does not count toward MAX_TASK_CLAIMS
    await releaseJob(tx, job.id, owner);
    await tx
      .update(aiTasks)
      .set({ status: aiTaskTransition('PROCESSING', 'Released'), updatedAt: at })
      .where(eq(aiTasks.id, id));
  });
}
