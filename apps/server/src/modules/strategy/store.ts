import { and, asc, count, desc, eq } from 'drizzle-orm';
import {
  strategies,
  strategyResults,
  type StrategyResultRow,
  type StrategyRow,
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

export async function listResults(
  db: Db,
  strategyId: number,
  symbolId: string | undefined,
  skip: number,
  limit: number,
): Promise<{ rows: StrategyResultRow[]; total: number }> {
  const where = symbolId
    ? and(eq(strategyResults.strategyId, strategyId), eq(strategyResults.symbolId, symbolId))
    : eq(strategyResults.strategyId, strategyId);
  const rows = await db
    .select()
    .from(strategyResults)
    .where(where)
    .orderBy(desc(strategyResults.id))
    .offset(skip)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(strategyResults).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findResult(
  db: Db,
  strategyId: number,
  id: number,
): Promise<StrategyResultRow | null> {
  const [row] = await db
    .select()
    .from(strategyResults)
    .where(and(eq(strategyResults.strategyId, strategyId), eq(strategyResults.id, id)))
    .limit(1);
  return row ?? null;
}
