import { setImmediate as nextTurn } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import {
  toEpochSec,
  aggregateBars,
  canAggregate,
  detectResolution,
  parseOhlcvCsv,
  type Bar,
  type CsvParseResult,
  type Period,
} from '@ct/domain';
import type { ImportedInstrumentRow } from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';
import { AppError, BadRequestError, NotFoundError } from '../../../http/errors.ts';
import {
  INSERT_BATCH,
  STAGING_PREFIX,
  deleteImport,
  deleteInstrument,
  deleteStaged,
  findImport,
  importUsage,
  insertBars,
  insertInstrument,
  listImports,
  loadBars,
  publishImport,
  vacuumBars,
} from './store.ts';

/** A user's imports: how many, and how many bars they hold together. */
export type ImportLimits = { maxCount: number; maxRows: number };

/** IMPORTS_MAX_PER_USER / IMPORT_ROWS_MAX_PER_USER when unset. */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = { maxCount: 20, maxRows: 2_000_000 };

/** An import over the user's limits (nothing imported). */
export class ImportLimitError extends AppError {
  constructor(message: string) {
    super(42200, message, 422);
  }
}

export type ImportOptions = {
  /** Parses the CSV text (a worker thread in the app); on the event loop when absent. */
  parseCsv?: (csv: string) => Promise<CsvParseResult>;
  limits?: ImportLimits;
};

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
export function createImportService(db: Db, now: () => number, options: ImportOptions = {}) {
  const cache = new Map<string, Bar[]>();
  const limits = options.limits ?? DEFAULT_IMPORT_LIMITS;
  const parseCsv = options.parseCsv ?? ((csv: string) => Promise.resolve(parseOhlcvCsv(csv)));
  /** Each user's imports run one at a time (limits are checked against finished ones). */
  const running = new Map<number, Promise<unknown>>();
  /** Staged imports a stopped server left behind are dropped once, before the first import. */
  let cleaned: Promise<unknown> | null = null;

  function oneAtATime<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const previous = running.get(userId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    running.set(userId, next);
    void next
      .catch(() => undefined)
      .finally(() => {
        if (running.get(userId) === next) running.delete(userId);
      });
    return next;
  }

  /**
   * VACUUM after bars are deleted (PGlite has no autovacuum). It is housekeeping: the
   * delete is done whatever it answers (PostgreSQL's autovacuum does it there anyway).
   */
  async function reclaim(): Promise<void> {
    await vacuumBars(db).catch(() => undefined);
  }

  async function checkLimits(userId: number, symbol: string, rows: number): Promise<void> {
    const usage = await importUsage(db, userId, symbol);
    if (usage.count + 1 > limits.maxCount) {
      throw new ImportLimitError(
        `You have ${usage.count} imported instruments; at most ${limits.maxCount} are allowed. Delete one first. Nothing was imported.`,
      );
    }
    if (usage.rows + rows > limits.maxRows) {
      throw new ImportLimitError(
        `Your imports would hold ${usage.rows + rows} bars; at most ${limits.maxRows} are allowed together. Delete an import first. Nothing was imported.`,
      );
    }
  }

  /**
   * Writes the bars under a staging symbol in batches (each its own statement, the event
   * loop let through between them), then makes it the user's instrument in one short
   * transaction: readers see the old import or the new one, never a part.
   */
  async function write(
    row: Omit<ImportedInstrumentRow, 'id' | 'symbol'>,
    symbol: string,
    bars: readonly Bar[],
  ): Promise<ImportedInstrumentRow> {
    const staged = await insertInstrument(db, {
      ...row,
      symbol: `${STAGING_PREFIX}${randomUUID()}`,
    });
    try {
      for (let i = 0; i < bars.length; i += INSERT_BATCH) {
        await nextTurn();
        await insertBars(db, staged.id, bars.slice(i, i + INSERT_BATCH));
      }
      const { row: published, replaced } = await publishImport(db, staged.id, symbol);
      if (replaced) await reclaim();
      return published;
    } catch (error) {
      await deleteInstrument(db, staged.id).catch(() => undefined);
      throw error;
    }
  }

  return {
    async importCsv(userId: number, name: string, csv: string): Promise<ImportSummary> {
      cleaned ??= deleteStaged(db).catch(() => 0);
      await cleaned;
      return oneAtATime(userId, () => importOne(userId, name, csv));
    },

    async list(userId: number): Promise<ImportSummary[]> {
      return (await listImports(db, userId)).map(summary);
    },

    async remove(userId: number, symbol: string): Promise<void> {
      if (!(await deleteImport(db, userId, symbol)))
        throw new NotFoundError(`Unknown imported instrument: ${symbol}`);
      cache.delete(symbol);
      await reclaim();
    },

    bars,
  };

  async function importOne(userId: number, name: string, csv: string): Promise<ImportSummary> {
    const parsed = await parseCsv(csv);
    if (!parsed.ok) {
      const { row, column, message } = parsed.error;
      throw new BadRequestError(
        `CSV row ${row}, column ${column}: ${message}. Nothing was imported.`,
      );
    }
    const bars = parsed.bars;
    const symbol = importedSymbol(name, userId);
    await checkLimits(userId, symbol, bars.length);
    const row = await write(
      {
        userId,
        name,
        resolution: detectResolution(bars),
        barCount: bars.length,
        firstTime: bars[0]?.time ?? 0,
        lastTime: bars.at(-1)?.time ?? 0,
        createdAt: toEpochSec(now()),
      },
      symbol,
      bars,
    );
    cache.set(symbol, bars);
    return summary(row);
  }

  /** Bars of `period` before `endBefore`, newest `limit`; null when the user has no such import. */
  async function bars(
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
    let stored = cache.get(symbol);
    if (!stored) {
      stored = await loadBars(db, row.id);
      cache.set(symbol, stored);
    }
    const aggregated = aggregateBars(
      stored.filter((bar) => bar.time < endBefore),
      period,
    );
    return aggregated.slice(Math.max(0, aggregated.length - limit));
  }
}

export type ImportService = ReturnType<typeof createImportService>;
