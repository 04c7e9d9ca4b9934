import { storableJson } from '@ct/domain';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { aiTaskMessages, aiTasks, type AiTaskMessageRow, type AiTaskRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

// SQL of AI strategy tasks. Writes of a worker carry its lease: a task deleted meanwhile, or
// taken over after the lease ran out, changes nothing (the write answers false / null).
// What a model wrote (messages, code, errors, results) is stored as storable text: no NUL,
// no lone surrogate (PostgreSQL refuses them), so an odd answer never loses the task.

export type NewAiTask = typeof aiTasks.$inferInsert;
export type NewAiTaskMessage = Omit<typeof aiTaskMessages.$inferInsert, 'id'>;

export async function insertTask(db: Db, task: NewAiTask): Promise<AiTaskRow> {
  const [row] = await db.insert(aiTasks).values(task).returning();
  if (!row) throw new Error('ai task insert returned no row');
  return row;
}

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

/** Deletes the user's task (its messages go with it); the deleted row, or null. */
export async function deleteTask(db: Db, userId: number, id: number): Promise<AiTaskRow | null> {
  const [row] = await db
    .delete(aiTasks)
    .where(and(eq(aiTasks.id, id), eq(aiTasks.userId, userId)))
    .returning();
  return row ?? null;
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

/**
 * Claims a task that is PENDING, or PROCESSING with a lease that ran out (its worker died),
 * fairly across users, in one short transaction: `FOR UPDATE SKIP LOCKED` lets concurrent
 * workers (other nodes on PostgreSQL) pass over a row another one is claiming, and the row
 * leaves with status PROCESSING and this worker's lease. Null when there is nothing to do.
 *
 * The order is round robin over users, counted in the database so that every worker on every
 * node follows it: a waiting task's turn is its user's running tasks (live leases) plus its
 * user's waiting tasks older than it; the lowest turn goes first; equal turns go to the user
 * whose latest task started longest ago (or never), then by age. So the next task is the
 * oldest one of the user with the fewest running tasks (ties: the user served least
 * recently, then whose oldest waiting task is older), and a claimer that finds that row
 * locked by another claimer takes the next user's, not the same user's second.
 */
export async function claimTask(
  db: Db,
  owner: string,
  nowMs: number,
  leaseMs: number,
): Promise<AiTaskRow | null> {
  return db.transaction(async (tx) => {
    const [candidate] = await tx
      .select({ id: aiTasks.id })
      .from(aiTasks)
      .where(claimable(sql`${aiTasks.status}`, sql`${aiTasks.leaseUntilMs}`, nowMs))
      .orderBy(
        sql`(select count(*) from ${aiTasks} as running
              where running.user_id = ${aiTasks.userId}
                and running.status = 'PROCESSING' and running.lease_until_ms >= ${nowMs})
          + (select count(*) from ${aiTasks} as earlier
              where earlier.user_id = ${aiTasks.userId} and earlier.id < ${aiTasks.id}
                and ${claimable(sql`earlier.status`, sql`earlier.lease_until_ms`, nowMs)})`,
        // equal turns: the user served least recently first (round robin also when every
        // user's running count is back to 0, as with one task at a time)
        sql`(select max(served.started_at) from ${aiTasks} as served
              where served.user_id = ${aiTasks.userId}) asc nulls first`,
        asc(aiTasks.id),
      )
      .limit(1)
      .for('update', { skipLocked: true });
    if (!candidate) return null;
    const seconds = Math.floor(nowMs / 1000);
    const [row] = await tx
      .update(aiTasks)
      .set({
        status: 'PROCESSING',
        leaseOwner: owner,
        leaseUntilMs: nowMs + leaseMs,
        claims: sql`${aiTasks.claims} + 1`,
        startedAt: sql`coalesce(${aiTasks.startedAt}, ${seconds})`,
        updatedAt: seconds,
      })
      .where(eq(aiTasks.id, candidate.id))
      .returning();
    return row ?? null;
  });
}

/** A task a worker may claim: waiting, or running under a lease that ran out. */
function claimable(status: SQL, leaseUntilMs: SQL, nowMs: number): SQL {
  return sql`(${status} = 'PENDING' or (${status} = 'PROCESSING' and ${leaseUntilMs} < ${nowMs}))`;
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

const held = (id: number, owner: string) =>
  and(eq(aiTasks.id, id), eq(aiTasks.leaseOwner, owner), eq(aiTasks.status, 'PROCESSING'));

/** Extends the lease; false when the task is gone or no longer this worker's. */
export async function renewLease(
  db: Db,
  id: number,
  owner: string,
  untilMs: number,
): Promise<boolean> {
  const rows = await db
    .update(aiTasks)
    .set({ leaseUntilMs: untilMs })
    .where(held(id, owner))
    .returning({ id: aiTasks.id });
  return rows.length > 0;
}

/** Appends a message while the task is still this worker's; null otherwise. */
export async function appendMessage(
  db: Db,
  owner: string,
  message: NewAiTaskMessage,
): Promise<AiTaskMessageRow | null> {
  return db.transaction(async (tx) => {
    const [task] = await tx
      .select({ id: aiTasks.id })
      .from(aiTasks)
      .where(held(message.taskId, owner))
      .for('update');
    if (!task) return null;
    const [row] = await tx.insert(aiTaskMessages).values(storableJson(message)).returning();
    return row ?? null;
  });
}

/** Changes a held task's fields (retry count, the end); false when it is no longer held. */
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
  const ends = values.status === 'COMPLETED' || values.status === 'FAILED';
  const rows = await db
    .update(aiTasks)
    .set(storableJson(ends ? { ...values, leaseOwner: null, leaseUntilMs: null } : values))
    .where(held(id, owner))
    .returning({ id: aiTasks.id });
  return rows.length > 0;
}

/** Gives a held task back (PENDING, no lease) so that any worker takes it up at once. */
export async function releaseTask(db: Db, id: number, owner: string, at: number): Promise<void> {
  await db
    .update(aiTasks)
    .set({
      status: 'PENDING',
      leaseOwner: null,
      leaseUntilMs: null,
      // an orderly stop is not a crash: it does not count toward MAX_TASK_CLAIMS
      claims: sql`greatest(${aiTasks.claims} - 1, 0)`,
      updatedAt: at,
    })
    .where(held(id, owner));
}
