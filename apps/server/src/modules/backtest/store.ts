import { setImmediate as nextTurn } from 'node:timers/promises';
import { storableJson } from '@ct/domain';
import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import { backtestRunDeals, backtestRuns, type BacktestRunRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

/** Runs kept per user (with their logs); older ones are deleted when a new one is stored. */
export const KEPT_RUNS_PER_USER = 50;

/**
 * Deals per stored piece of a run (backtest_run_deals; the migration that moved older runs'
 * deals there uses the same number): a piece is about 120 KB of JSON, written, read and sent
 * in a few milliseconds, then the event loop takes its other work.
 */
export const DEALS_PER_CHUNK = 500;

/**
 * A run to store: its row and its deals (stored in pieces; the row keeps their count); a run
 * on several feeds with its feeds and each instrument's figures.
 */
export type NewRun = Omit<BacktestRunRow, 'id' | 'dealCount' | 'perSymbol' | 'feeds'> & {
  deals: readonly unknown[];
  perSymbol?: BacktestRunRow['perSymbol'];
  feeds?: BacktestRunRow['feeds'];
};

/**
 * Stores a run: its deals first, piece by piece (the event loop runs other work between
 * pieces), then its row, which makes the run visible. What the strategy printed or raised is
 * stored as storable text (no NUL, no lone surrogate; PostgreSQL's text and jsonb refuse
 * them): a run's log is always kept.
 */
export async function insertRun(db: Db, run: NewRun): Promise<void> {
  const { deals, ...row } = run;
  try {
    for (let seq = 0; seq * DEALS_PER_CHUNK < deals.length; seq++) {
      const piece = deals.slice(seq * DEALS_PER_CHUNK, (seq + 1) * DEALS_PER_CHUNK);
      await db
        .insert(backtestRunDeals)
        .values({ runId: run.runId, userId: run.userId, seq, deals: storableJson(piece) });
      await nextTurn();
    }
    await db.insert(backtestRuns).values({ ...storableJson(row), dealCount: deals.length });
  } catch (error) {
    await db
      .delete(backtestRunDeals)
      .where(eq(backtestRunDeals.runId, run.runId))
      .catch(() => undefined);
    throw error;
  }
  const [oldest] = await db
    .select({ id: backtestRuns.id })
    .from(backtestRuns)
    .where(eq(backtestRuns.userId, run.userId))
    .orderBy(desc(backtestRuns.id))
    .offset(KEPT_RUNS_PER_USER - 1)
    .limit(1);
  if (oldest) {
    const older = and(eq(backtestRuns.userId, run.userId), lt(backtestRuns.id, oldest.id));
    await db
      .delete(backtestRunDeals)
      .where(
        inArray(
          backtestRunDeals.runId,
          db.select({ runId: backtestRuns.runId }).from(backtestRuns).where(older),
        ),
      );
    await db.delete(backtestRuns).where(older);
  }
}

/** A kept run's row (its deals are read with `runDeals`). */
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

/** A kept run's deals, one stored piece at a time, in order (one short query per piece). */
export async function* runDeals(db: Db, runId: string): AsyncGenerator<unknown[]> {
  for (let seq = 0; ; seq++) {
    const [piece] = await db
      .select({ deals: backtestRunDeals.deals })
      .from(backtestRunDeals)
      .where(and(eq(backtestRunDeals.runId, runId), eq(backtestRunDeals.seq, seq)))
      .orderBy(asc(backtestRunDeals.seq))
      .limit(1);
    if (!piece) return;
    yield piece.deals;
  }
}

/** All of a kept run's deals, read piece by piece. */
export async function allRunDeals(db: Db, runId: string): Promise<unknown[]> {
  const deals: unknown[] = [];
  for await (const piece of runDeals(db, runId)) {
    for (const deal of piece) deals.push(deal);
    await nextTurn();
  }
  return deals;
}
