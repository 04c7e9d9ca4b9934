import { and, asc, count, eq, ne, notLike, sql, sum } from 'drizzle-orm';
import type { Bar } from '@ct/domain';
import {
  importedBars,
  importedInstruments,
  type ImportedInstrumentRow,
} from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';

/** Bars per insert statement: one statement holds the database (and PGlite the thread) briefly. */
export const INSERT_BATCH = 500;

/** Symbols of instruments being written: never a user's symbol (which has no `~`). */
export const STAGING_PREFIX = '~';

/** Adds an instrument row (under a staging symbol while its bars are written). */
export async function insertInstrument(
  db: Db,
  row: Omit<typeof importedInstruments.$inferInsert, 'id'>,
): Promise<ImportedInstrumentRow> {
  const [instrument] = await db.insert(importedInstruments).values(row).returning();
  if (!instrument) throw new Error('insert returned no row');
  return instrument;
}

/** One batch of an instrument's bars, in a statement of its own. */
export async function insertBars(
  db: Db,
  instrumentId: number,
  bars: readonly Bar[],
): Promise<void> {
  await db.insert(importedBars).values(bars.map((bar) => ({ instrumentId, ...bar })));
}

/**
 * Makes a staged instrument the user's `symbol`, replacing the one of that symbol (its bars
 * go with it), in one short transaction.
 */
export async function publishImport(
  db: Db,
  stagedId: number,
  symbol: string,
): Promise<{ row: ImportedInstrumentRow; replaced: boolean }> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(importedInstruments)
      .where(eq(importedInstruments.symbol, symbol))
      .returning({ id: importedInstruments.id });
    const [row] = await tx
      .update(importedInstruments)
      .set({ symbol })
      .where(eq(importedInstruments.id, stagedId))
      .returning();
    if (!row) throw new Error('the staged import is gone');
    return { row, replaced: gone.length > 0 };
  });
}

/** Deletes an instrument by id (a staged one that failed), its bars with it. */
export async function deleteInstrument(db: Db, id: number): Promise<void> {
  await db.delete(importedInstruments).where(eq(importedInstruments.id, id));
}

/** Deletes staged instruments a stopped server left behind. */
export async function deleteStaged(db: Db): Promise<number> {
  const rows = await db
    .delete(importedInstruments)
    .where(sql`starts_with(${importedInstruments.symbol}, ${STAGING_PREFIX})`)
    .returning({ id: importedInstruments.id });
  return rows.length;
}

/**
 * What a user's imports hold, apart from `except` (the symbol an import replaces): their
 * number and bars, staged ones included.
 */
export async function importUsage(
  db: Db,
  userId: number,
  except: string,
): Promise<{ count: number; rows: number }> {
  const [usage] = await db
    .select({ count: count(), rows: sum(importedInstruments.barCount) })
    .from(importedInstruments)
    .where(and(eq(importedInstruments.userId, userId), ne(importedInstruments.symbol, except)));
  return { count: Number(usage?.count ?? 0), rows: Number(usage?.rows ?? 0) };
}

/**
 * Makes the space of deleted bars reusable (PGlite runs no autovacuum) and gives empty
 * pages at the table's end back to the file system.
 */
export async function vacuumBars(db: Db): Promise<void> {
  await db.execute(sql`VACUUM imported_bars`);
}

export async function listImports(db: Db, userId: number): Promise<ImportedInstrumentRow[]> {
  return db
    .select()
    .from(importedInstruments)
    .where(
      and(
        eq(importedInstruments.userId, userId),
        notLike(importedInstruments.symbol, `${STAGING_PREFIX}%`),
      ),
    )
    .orderBy(asc(importedInstruments.name));
}

export async function findImport(
  db: Db,
  userId: number,
  symbol: string,
): Promise<ImportedInstrumentRow | undefined> {
  const rows = await db
    .select()
    .from(importedInstruments)
    .where(and(eq(importedInstruments.userId, userId), eq(importedInstruments.symbol, symbol)))
    .limit(1);
  return rows[0];
}

export async function deleteImport(db: Db, userId: number, symbol: string): Promise<boolean> {
  const rows = await db
    .delete(importedInstruments)
    .where(and(eq(importedInstruments.userId, userId), eq(importedInstruments.symbol, symbol)))
    .returning({ id: importedInstruments.id });
  return rows.length > 0;
}

export async function loadBars(db: Db, instrumentId: number): Promise<Bar[]> {
  return db
    .select({
      time: importedBars.time,
      open: importedBars.open,
      high: importedBars.high,
      low: importedBars.low,
      close: importedBars.close,
      volume: importedBars.volume,
    })
    .from(importedBars)
    .where(eq(importedBars.instrumentId, instrumentId))
    .orderBy(asc(importedBars.time));
}
