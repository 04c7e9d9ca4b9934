import {
  aggregateBars,
  canAggregate,
  detectResolution,
  parseOhlcvCsv,
  type Bar,
  type Period,
} from '@ct/domain';
import type { ImportedInstrumentRow } from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';
import { BadRequestError, NotFoundError } from '../../../http/errors.ts';
import { deleteImport, findImport, listImports, loadBars, replaceImport } from './store.ts';

/** The symbol of a user's imported instrument: unique across users. */
export function importedSymbol(name: string, userId: number): string {
  return `${name.toUpperCase()}.U${userId}`;
}

export type ImportSummary = {
  symbol: string;
  name: string;
  resolution: string;
  bars: number;
  from: number;
  to: number;
};

function summary(row: ImportedInstrumentRow): ImportSummary {
  return {
    symbol: row.symbol,
    name: row.name,
    resolution: row.resolution,
    bars: row.barCount,
    from: row.firstTime,
    to: row.lastTime,
  };
}

/**
 * Users' own instruments from imported CSV files: import (all or nothing), list, delete,
 * and bars for the kline call. Bars are cached in memory per instrument after first use.
 */
export function createImportService(db: Db, now: () => number) {
  const cache = new Map<string, Bar[]>();

  return {
    async importCsv(userId: number, name: string, csv: string): Promise<ImportSummary> {
      const parsed = parseOhlcvCsv(csv);
      if (!parsed.ok) {
        const { row, column, message } = parsed.error;
        throw new BadRequestError(
          `CSV row ${row}, column ${column}: ${message}. Nothing was imported.`,
        );
      }
      const bars = parsed.bars;
      const symbol = importedSymbol(name, userId);
      const row = await replaceImport(
        db,
        {
          userId,
          symbol,
          name,
          resolution: detectResolution(bars),
          barCount: bars.length,
          firstTime: bars[0]?.time ?? 0,
          lastTime: bars.at(-1)?.time ?? 0,
          createdAt: Math.floor(now() / 1000),
        },
        bars,
      );
      cache.set(symbol, bars);
      return summary(row);
    },

    async list(userId: number): Promise<ImportSummary[]> {
      return (await listImports(db, userId)).map(summary);
    },

    async remove(userId: number, symbol: string): Promise<void> {
      if (!(await deleteImport(db, userId, symbol)))
        throw new NotFoundError(`Unknown imported instrument: ${symbol}`);
      cache.delete(symbol);
    },

    /** Bars of `period` before `endBefore`, newest `limit`; null when the user has no such import. */
    async bars(
      userId: number,
      symbol: string,
      period: Period,
      endBefore: number,
      limit: number,
    ): Promise<Bar[] | null> {
      const row = await findImport(db, userId, symbol);
      if (!row) return null;
      const resolution = row.resolution as Period;
      if (!canAggregate(resolution, period)) {
        throw new BadRequestError(
          `${row.name} has ${resolution} bars: choose ${resolution} or a longer period`,
        );
      }
      let bars = cache.get(symbol);
      if (!bars) {
        bars = await loadBars(db, row.id);
        cache.set(symbol, bars);
      }
      const aggregated = aggregateBars(
        bars.filter((bar) => bar.time < endBefore),
        period,
      );
      return aggregated.slice(Math.max(0, aggregated.length - limit));
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
