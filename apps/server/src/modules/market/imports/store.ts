import { and, asc, eq } from 'drizzle-orm';
import type { Bar } from '@ct/domain';
import {
  importedBars,
  importedInstruments,
  type ImportedInstrumentRow,
} from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';

const INSERT_CHUNK = 2000;

/** Replaces (or creates) an imported instrument and all its bars in one transaction. */
export async function replaceImport(
  db: Db,
  row: Omit<typeof importedInstruments.$inferInsert, 'id'>,
  bars: readonly Bar[],
): Promise<ImportedInstrumentRow> {
  return db.transaction(async (tx) => {
    await tx.delete(importedInstruments).where(eq(importedInstruments.symbol, row.symbol));
    const [instrument] = await tx.insert(importedInstruments).values(row).returning();
    if (!instrument) throw new Error('insert returned no row');
    for (let i = 0; i < bars.length; i += INSERT_CHUNK) {
      await tx
        .insert(importedBars)
        .values(
          bars.slice(i, i + INSERT_CHUNK).map((bar) => ({ instrumentId: instrument.id, ...bar })),
        );
    }
    return instrument;
  });
}

export async function listImports(db: Db, userId: number): Promise<ImportedInstrumentRow[]> {
  return db
    .select()
    .from(importedInstruments)
    .where(eq(importedInstruments.userId, userId))
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
