import { storableJson } from '@ct/domain';
import { and, desc, eq, lt } from 'drizzle-orm';
import { backtestRuns, type BacktestRunRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

/** Runs kept per user (with their logs); older ones are deleted when a new one is stored. */
export const KEPT_RUNS_PER_USER = 50;

export type NewRun = Omit<BacktestRunRow, 'id'>;

/**
 * Stores a run. What the strategy printed or raised is stored as storable text (no NUL, no
 * lone surrogate; PostgreSQL's text and jsonb refuse them): a run's log is always kept.
 */
export async function insertRun(db: Db, run: NewRun): Promise<void> {
  await db.insert(backtestRuns).values(storableJson(run));
  const [oldest] = await db
    .select({ id: backtestRuns.id })
    .from(backtestRuns)
    .where(eq(backtestRuns.userId, run.userId))
    .orderBy(desc(backtestRuns.id))
    .offset(KEPT_RUNS_PER_USER - 1)
    .limit(1);
  if (oldest) {
    await db
      .delete(backtestRuns)
      .where(and(eq(backtestRuns.userId, run.userId), lt(backtestRuns.id, oldest.id)));
  }
}

export async function findRun(
  db: Db,
  userId: number,
  runId: string,
): Promise<BacktestRunRow | null> {
  const [row] = await db
    .select()
    .from(backtestRuns)
    .where(and(eq(backtestRuns.userId, userId), eq(backtestRuns.runId, runId)))
    .limit(1);
  return row ?? null;
}
