import { and, asc, count, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import {
  strategies,
  strategyResults,
  strategyVersions,
  type StrategyResultRow,
  type StrategyRow,
  type StrategyVersionRow,
} from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

export async function listStrategies(db: Db, userId: number): Promise<StrategyRow[]> {
  return db
    .select()
    .from(strategies)
    .where(eq(strategies.userId, userId))
    .orderBy(asc(strategies.name));
}

export async function findStrategy(
  db: Db,
  userId: number,
  name: string,
): Promise<StrategyRow | null> {
  const [row] = await db
    .select()
    .from(strategies)
    .where(and(eq(strategies.userId, userId), eq(strategies.name, name)))
    .limit(1);
  return row ?? null;
}

/** Like findStrategy, and locks the row until the transaction ends (saves of one strategy queue). */
export async function findStrategyForUpdate(
  tx: Db,
  userId: number,
  name: string,
): Promise<StrategyRow | null> {
  const [row] = await tx
    .select()
    .from(strategies)
    .where(and(eq(strategies.userId, userId), eq(strategies.name, name)))
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function countStrategies(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(strategies)
    .where(eq(strategies.userId, userId));
  return row?.n ?? 0;
}

/** Inserts a new strategy; null when the user already has one by that name. */
export async function insertStrategy(
  db: Db,
  values: { userId: number; name: string; code: string; at: number },
): Promise<StrategyRow | null> {
  const [row] = await db
    .insert(strategies)
    .values({
      userId: values.userId,
      name: values.name,
      code: values.code,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .onConflictDoNothing({ target: [strategies.userId, strategies.name] })
    .returning();
  return row ?? null;
}

export async function updateStrategyCode(
  db: Db,
  id: number,
  code: string,
  at: number,
): Promise<StrategyRow | null> {
  const [row] = await db
    .update(strategies)
    .set({ code, updatedAt: at })
    .where(eq(strategies.id, id))
    .returning();
  return row ?? null;
}

export async function deleteStrategy(db: Db, userId: number, name: string): Promise<boolean> {
  const rows = await db
    .delete(strategies)
    .where(and(eq(strategies.userId, userId), eq(strategies.name, name)))
    .returning({ id: strategies.id });
  return rows.length > 0;
}

export type NewResult = Omit<StrategyResultRow, 'id'>;

export async function insertResult(db: Db, values: NewResult): Promise<StrategyResultRow> {
  const [row] = await db.insert(strategyResults).values(values).returning();
  if (!row) throw new Error('strategy result insert returned no row');
  return row;
}

/** A saved result without its deals, log or equity curve: what a listing reads. */
export type ResultSummaryRow = Omit<
  StrategyResultRow,
  'deals' | 'logs' | 'userId' | 'perSymbol'
> & {
  hasLogs: boolean;
};

const summaryColumns = {
  id: strategyResults.id,
  strategyId: strategyResults.strategyId,
  symbolId: strategyResults.symbolId,
  // the figures without the curve (one point per bar): a listing stays small
  performance: sql<Record<string, unknown> | null>`${strategyResults.performance} - 'equity_curve'`,
  error: strategyResults.error,
  runId: strategyResults.runId,
  createdAt: strategyResults.createdAt,
  sizeBytes: strategyResults.sizeBytes,
  dealCount: strategyResults.dealCount,
  automatic: strategyResults.automatic,
  feeds: strategyResults.feeds,
  hasLogs: sql<boolean>`${strategyResults.logs} is not null`,
};

/** Bytes of all results of the user's run histories, and of the automatic ones among them. */
export async function storedResultBytes(
  db: Db,
  userId: number,
): Promise<{ total: number; automatic: number }> {
  const [row] = await db
    .select({
      total: sql<number>`coalesce(sum(${strategyResults.sizeBytes}), 0)`.mapWith(Number),
      automatic:
        sql<number>`coalesce(sum(${strategyResults.sizeBytes}) filter (where ${strategyResults.automatic}), 0)`.mapWith(
          Number,
        ),
    })
    .from(strategyResults)
    .where(eq(strategyResults.userId, userId));
  return { total: row?.total ?? 0, automatic: row?.automatic ?? 0 };
}

/**
 * Deletes the user's oldest automatic results (of any strategy) until `bytes` are freed or
 * none is left; returns the bytes freed. Saved results are never touched.
 */
export async function pruneAutomaticResultsFor(
  tx: Db,
  userId: number,
  bytes: number,
): Promise<number> {
  const rows = await tx
    .select({ id: strategyResults.id, sizeBytes: strategyResults.sizeBytes })
    .from(strategyResults)
    .where(and(eq(strategyResults.userId, userId), eq(strategyResults.automatic, true)))
    .orderBy(asc(strategyResults.id));
  const ids: number[] = [];
  let freed = 0;
  for (const row of rows) {
    if (freed >= bytes) break;
    ids.push(row.id);
    freed += row.sizeBytes;
  }
  if (ids.length > 0) await tx.delete(strategyResults).where(inArray(strategyResults.id, ids));
  return freed;
}

/** Deletes all but the newest `keep` automatic results of a strategy. */
export async function pruneAutomaticResults(
  tx: Db,
  strategyId: number,
  keep: number,
): Promise<void> {
  const automaticOf = and(
    eq(strategyResults.strategyId, strategyId),
    eq(strategyResults.automatic, true),
  );
  const newest = tx
    .select({ id: strategyResults.id })
    .from(strategyResults)
    .where(automaticOf)
    .orderBy(desc(strategyResults.id))
    .limit(keep);
  await tx.delete(strategyResults).where(and(automaticOf, notInArray(strategyResults.id, newest)));
}

/**
 * Turns the automatic result of run `runId` of a strategy into a saved one; null when the
 * strategy has no automatic result of that run.
 */
export async function keepAutomaticResult(
  tx: Db,
  strategyId: number,
  runId: string,
): Promise<ResultSummaryRow | null> {
  const [row] = await tx
    .update(strategyResults)
    .set({ automatic: false })
    .where(
      and(
        eq(strategyResults.strategyId, strategyId),
        eq(strategyResults.runId, runId),
        eq(strategyResults.automatic, true),
      ),
    )
    .returning(summaryColumns);
  return row ?? null;
}

/** Serializes the quota check and insert of one user's saves (until the transaction ends). */
export async function lockUserResults(tx: Db, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RESULTS_LOCK_CLASS}, ${userId})`);
}
const RESULTS_LOCK_CLASS = 0x5253; // 'RS'

/** One page of a result's deals (the page only leaves the database), or null when no result. */
export async function resultDeals(
  db: Db,
  strategyId: number,
  id: number,
  skip: number,
  limit: number,
): Promise<{ deals: unknown[]; total: number } | null> {
  const [row] = await db
    .select({
      deals: sql<
        unknown[]
      >`jsonb_path_query_array(${strategyResults.deals}, '$[$first to $last]', jsonb_build_object('first', ${skip}::int, 'last', ${skip + limit - 1}::int))`,
      total: strategyResults.dealCount,
    })
    .from(strategyResults)
    .where(and(eq(strategyResults.strategyId, strategyId), eq(strategyResults.id, id)))
    .limit(1);
  return row ?? null;
}

export async function deleteResult(db: Db, strategyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(strategyResults)
    .where(and(eq(strategyResults.strategyId, strategyId), eq(strategyResults.id, id)))
    .returning({ id: strategyResults.id });
  return rows.length > 0;
}

export async function listResults(
  db: Db,
  strategyId: number,
  symbolId: string | undefined,
  skip: number,
  limit: number,
): Promise<{ rows: ResultSummaryRow[]; total: number }> {
  const where = symbolId
    ? and(eq(strategyResults.strategyId, strategyId), eq(strategyResults.symbolId, symbolId))
    : eq(strategyResults.strategyId, strategyId);
  const rows = await db
    .select(summaryColumns)
    .from(strategyResults)
    .where(where)
    .orderBy(desc(strategyResults.id))
    .offset(skip)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(strategyResults).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** A saved result with its figures (curve included) and log, without its deals. */
export async function findResult(
  db: Db,
  strategyId: number,
  id: number,
): Promise<
  | (ResultSummaryRow & {
      logs: string[] | null;
      perSymbol: StrategyResultRow['perSymbol'];
    })
  | null
> {
  const [row] = await db
    .select({
      ...summaryColumns,
      performance: strategyResults.performance,
      perSymbol: strategyResults.perSymbol,
      logs: strategyResults.logs,
    })
    .from(strategyResults)
    .where(and(eq(strategyResults.strategyId, strategyId), eq(strategyResults.id, id)))
    .limit(1);
  return row ?? null;
}

/** Bytes (UTF-8) of the user's strategies' code, and of their kept versions. */
export async function storedStrategyBytes(
  db: Db,
  userId: number,
): Promise<{ code: number; versions: number }> {
  const [code] = await db
    .select({ n: sql<number>`coalesce(sum(octet_length(${strategies.code})), 0)`.mapWith(Number) })
    .from(strategies)
    .where(eq(strategies.userId, userId));
  const [versions] = await db
    .select({
      n: sql<number>`coalesce(sum(octet_length(${strategyVersions.code})), 0)`.mapWith(Number),
    })
    .from(strategyVersions)
    .where(eq(strategyVersions.userId, userId));
  return { code: code?.n ?? 0, versions: versions?.n ?? 0 };
}

/**
 * Deletes the user's oldest versions (of any strategy) until `bytes` are freed or none is
 * left; returns the bytes freed.
 */
export async function pruneOldestVersionsFor(
  tx: Db,
  userId: number,
  bytes: number,
): Promise<number> {
  const rows = await tx
    .select({
      id: strategyVersions.id,
      bytes: sql<number>`octet_length(${strategyVersions.code})`.mapWith(Number),
    })
    .from(strategyVersions)
    .where(eq(strategyVersions.userId, userId))
    .orderBy(asc(strategyVersions.id));
  const ids: number[] = [];
  let freed = 0;
  for (const row of rows) {
    if (freed >= bytes) break;
    ids.push(row.id);
    freed += row.bytes;
  }
  if (ids.length > 0) await tx.delete(strategyVersions).where(inArray(strategyVersions.id, ids));
  return freed;
}

/** Serializes one user's strategy saves (count and storage checks) until the transaction ends. */
export async function lockUserStrategies(tx: Db, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${STRATEGIES_LOCK_CLASS}, ${userId})`);
}
const STRATEGIES_LOCK_CLASS = 0x5354; // 'ST'

/** Keeps `code` as a version of the strategy and prunes all but the newest `keep` versions. */
export async function keepVersion(
  tx: Db,
  values: { userId: number; strategyId: number; code: string; createdAt: number },
  keep: number,
): Promise<void> {
  await tx.insert(strategyVersions).values(values);
  const newest = tx
    .select({ id: strategyVersions.id })
    .from(strategyVersions)
    .where(eq(strategyVersions.strategyId, values.strategyId))
    .orderBy(desc(strategyVersions.id))
    .limit(keep);
  await tx
    .delete(strategyVersions)
    .where(
      and(
        eq(strategyVersions.strategyId, values.strategyId),
        notInArray(strategyVersions.id, newest),
      ),
    );
}

/** A version as listed: no code, its size and the start of its text. */
export type VersionSummaryRow = {
  id: number;
  createdAt: number;
  length: number;
  lines: number;
  head: string;
};

/** The strategy's versions, newest first, without their full code. */
export async function listVersions(db: Db, strategyId: number): Promise<VersionSummaryRow[]> {
  return db
    .select({
      id: strategyVersions.id,
      createdAt: strategyVersions.createdAt,
      length: sql<number>`char_length(${strategyVersions.code})`.mapWith(Number),
      lines:
        sql<number>`coalesce(array_length(string_to_array(${strategyVersions.code}, chr(10)), 1), 0)`.mapWith(
          Number,
        ),
      head: sql<string>`left(${strategyVersions.code}, 4000)`,
    })
    .from(strategyVersions)
    .where(eq(strategyVersions.strategyId, strategyId))
    .orderBy(desc(strategyVersions.id));
}

export async function findVersion(
  db: Db,
  strategyId: number,
  id: number,
): Promise<StrategyVersionRow | null> {
  const [row] = await db
    .select()
    .from(strategyVersions)
    .where(and(eq(strategyVersions.strategyId, strategyId), eq(strategyVersions.id, id)))
    .limit(1);
  return row ?? null;
}
