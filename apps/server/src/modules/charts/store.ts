import type { DrawingPoint, DrawingStyle } from '@ct/domain';
import { and, asc, count, eq } from 'drizzle-orm';
import { chartDrawings, chartIndicators, users, type ChartDrawingRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

/**
 * Locks the user's row for the rest of the transaction (`FOR NO KEY UPDATE`: foreign-key
 * checks of other inserts are not blocked), so two concurrent creations of one user count
 * each other's rows before checking the limits. Returns false when the user is gone.
 */
export async function lockUser(tx: Db, userId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return rows.length > 0;
}

/** The user's drawings on one instrument and over all instruments. */
export async function countDrawings(
  tx: Db,
  userId: number,
  symbol: string,
): Promise<{ onSymbol: number; total: number }> {
  const [total] = await tx
    .select({ n: count() })
    .from(chartDrawings)
    .where(eq(chartDrawings.userId, userId));
  const [onSymbol] = await tx
    .select({ n: count() })
    .from(chartDrawings)
    .where(and(eq(chartDrawings.userId, userId), eq(chartDrawings.symbol, symbol)));
  return { onSymbol: onSymbol?.n ?? 0, total: total?.n ?? 0 };
}

export async function listDrawings(
  db: Db,
  userId: number,
  symbol: string,
): Promise<ChartDrawingRow[]> {
  return db
    .select()
    .from(chartDrawings)
    .where(and(eq(chartDrawings.userId, userId), eq(chartDrawings.symbol, symbol)))
    .orderBy(asc(chartDrawings.id));
}

export type DrawingValues = {
  kind: string;
  points: DrawingPoint[];
  style: DrawingStyle;
};

/** A change of a drawing: without a style, the stored one stays. */
export type DrawingChange = Omit<DrawingValues, 'style'> & { style?: DrawingStyle };

export async function insertDrawing(
  tx: Db,
  row: DrawingValues & { userId: number; symbol: string; at: number },
): Promise<ChartDrawingRow> {
  const [saved] = await tx
    .insert(chartDrawings)
    .values({
      userId: row.userId,
      symbol: row.symbol,
      kind: row.kind,
      points: row.points,
      style: row.style,
      createdAt: row.at,
      updatedAt: row.at,
    })
    .returning();
  if (!saved) throw new Error('drawing insert returned no row');
  return saved;
}

/** Replaces a drawing's shape; undefined when the user has no drawing with that id. */
export async function updateDrawing(
  db: Db,
  userId: number,
  id: number,
  values: DrawingChange & { at: number },
): Promise<ChartDrawingRow | undefined> {
  const [saved] = await db
    .update(chartDrawings)
    .set({
      kind: values.kind,
      points: values.points,
      ...(values.style ? { style: values.style } : {}),
      updatedAt: values.at,
    })
    .where(and(eq(chartDrawings.id, id), eq(chartDrawings.userId, userId)))
    .returning();
  return saved;
}

/** Deletes a drawing; answers its symbol, or null when the user has no drawing with that id. */
export async function deleteDrawing(db: Db, userId: number, id: number): Promise<string | null> {
  const rows = await db
    .delete(chartDrawings)
    .where(and(eq(chartDrawings.id, id), eq(chartDrawings.userId, userId)))
    .returning({ symbol: chartDrawings.symbol });
  return rows[0]?.symbol ?? null;
}

export async function findIndicators(
  db: Db,
  userId: number,
  chartKey: string,
): Promise<unknown[] | null> {
  const [row] = await db
    .select({ indicators: chartIndicators.indicators })
    .from(chartIndicators)
    .where(and(eq(chartIndicators.userId, userId), eq(chartIndicators.chartKey, chartKey)))
    .limit(1);
  return row?.indicators ?? null;
}

/** How many charts of the user have saved indicators, and whether `chartKey` is one. */
export async function countIndicatorCharts(
  tx: Db,
  userId: number,
  chartKey: string,
): Promise<{ total: number; exists: boolean }> {
  const rows = await tx
    .select({ chartKey: chartIndicators.chartKey })
    .from(chartIndicators)
    .where(eq(chartIndicators.userId, userId));
  return { total: rows.length, exists: rows.some((r) => r.chartKey === chartKey) };
}

export async function upsertIndicators(
  tx: Db,
  userId: number,
  chartKey: string,
  indicators: unknown[],
  at: number,
): Promise<void> {
  await tx
    .insert(chartIndicators)
    .values({ userId, chartKey, indicators, updatedAt: at })
    .onConflictDoUpdate({
      target: [chartIndicators.userId, chartIndicators.chartKey],
      set: { indicators, updatedAt: at },
    });
}

export async function deleteIndicators(tx: Db, userId: number, chartKey: string): Promise<void> {
  await tx
    .delete(chartIndicators)
    .where(and(eq(chartIndicators.userId, userId), eq(chartIndicators.chartKey, chartKey)));
}
