import {
  toEpochSec,
  keepsReplacedCode,
  codeLineCount,
  codePreview,
  isReservedStrategyName,
  wouldBlankSavedCode,
  type ResultDealsQuery,
  type ResultsQuery,
  type SaveResultRequest,
  type SaveStrategyRequest,
  type StrategyVersion,
  type StrategyVersionList,
  type StrategyView,
} from '@ct/domain';
import type { StrategyRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { AppError, BadRequestError, NotFoundError } from '../../http/errors.ts';
import type { BacktestRunRow, RunFeed } from '../../db/schema.ts';
import { jsonByteLength } from '../../http/json-stream.ts';
import { allRunDeals, findRun as findStoredRun, type NewRun } from '../backtest/store.ts';
import { MIB } from '../backtest/sandbox/settings.ts';
import { DEFAULT_STRATEGY_LIMITS, type StrategyLimits } from './limits.ts';
import {
  countStrategies,
  deleteResult,
  deleteStrategy,
  findResult,
  findStrategy,
  findStrategyForUpdate,
  findVersion,
  insertResult,
  insertStrategy,
  keepAutomaticResult,
  keepVersion,
  listResults,
  listStrategies,
  listVersions,
  lockUserResults,
  lockUserStrategies,
  pruneOldestVersionsFor,
  storedStrategyBytes,
  pruneAutomaticResults,
  pruneAutomaticResultsFor,
  resultDeals,
  storedResultBytes,
  updateStrategyCode,
  type ResultSummaryRow,
} from './store.ts';

/** A name already taken (POST /api/strategies/ with create: true). */
export class ConflictError extends AppError {
  constructor(message: string) {
    super(40900, message, 409);
  }
}

/** The spec's message for any change to the built-in strategy. */
export const MSG_DEFAULT_READ_ONLY = 'Default strategy cannot be modified';

/** Blank code over saved code is refused unless the request confirms it. */
export function msgBlankRefused(name: string): string {
  return `Refused to replace the saved code of ${name} with empty code; send allow_empty: true to confirm`;
}

export function strategyView(row: StrategyRow): StrategyView {
  return { name: row.name, code: row.code, created_at: row.createdAt, updated_at: row.updatedAt };
}

/** A saved result as listed and as a save answers: no deals, figures without the curve. */
export type ResultView = {
  id: number;
  strategy_name: string;
  symbol_id: string;
  deal_count: number;
  performance: Record<string, unknown> | null;
  error: string | null;
  run_id: string | null;
  has_logs: boolean;
  size_bytes: number;
  /** Kept by itself after the run (true) or saved by the user (false). */
  automatic: boolean;
  created_at: number;
  /** A run on several feeds: the feeds it ran on (absent for one). */
  feeds?: RunFeed[];
};

function resultView(row: ResultSummaryRow, strategyName: string): ResultView {
  return {
    ...(row.feeds ? { feeds: row.feeds } : {}),
    id: row.id,
    strategy_name: strategyName,
    symbol_id: row.symbolId,
    deal_count: row.dealCount,
    performance: row.performance,
    error: row.error,
    run_id: row.runId,
    has_logs: row.hasLogs,
    size_bytes: row.sizeBytes,
    automatic: row.automatic,
    created_at: row.createdAt,
  };
}

/** The bounds of saved results (docs/api.md, "Saved results"). */
export type ResultLimits = {
  /** The largest result (deals, figures, error and log as JSON). */
  maxBytes: number;
  /** All saved results of one user together. */
  quotaBytes: number;
};

export const DEFAULT_RESULT_LIMITS: ResultLimits = { maxBytes: 8 * MIB, quotaBytes: 64 * MIB };

/** The refusal of a new strategy past the count. */
export function msgTooManyStrategies(max: number): string {
  return `Too many strategies (at most ${max}); delete one first`;
}

/** Runs kept automatically per strategy (older automatic ones are pruned; saved ones stay). */
export const AUTOMATIC_RESULTS_PER_STRATEGY = 50;

/** A kept run's row and a way to read its deals (stored apart, piece by piece). */
export type KeptRun = BacktestRunRow & { readDeals(): Promise<unknown[]> };

type ResultValues = {
  deals: readonly unknown[];
  performance: Record<string, unknown> | null;
  error: string | null;
  logs: string[] | null;
  runId: string | null;
  /** A run on several feeds: each instrument's figures and the feeds. */
  perSymbol?: Record<string, unknown> | null;
  feeds?: RunFeed[] | null;
};

/**
 * What a stored run puts into a result: its trades, figures, error, logs and id; on several
 * feeds each instrument's figures and the feeds too.
 */
function runValues(run: ResultValues): ResultValues {
  const { deals, performance, error, logs, runId } = run;
  return {
    deals,
    performance,
    error,
    logs,
    runId,
    perSymbol: run.perSymbol ?? null,
    feeds: run.feeds ?? null,
  };
}

/** The columns of a result row that its values and their stored size give. */
function resultColumns(values: ResultValues, sizeBytes: number) {
  return {
    ...values,
    perSymbol: values.perSymbol ?? null,
    feeds: values.feeds ?? null,
    deals: values.deals as unknown[],
    sizeBytes,
    dealCount: values.deals.length,
  };
}

/** A result larger than a saved result may be (413). */
export class ResultTooLargeError extends AppError {
  constructor(message: string) {
    super(41300, message, 413);
  }
}

/** A save that would pass the user's quota (422). */
export class QuotaExceededError extends AppError {
  constructor(message: string) {
    super(42200, message, 422);
  }
}

/** Bytes of `value` as JSON (0 for none), counted a piece at a time: a run's deals are large. */
const jsonBytes = async (value: unknown): Promise<number> =>
  value === null || value === undefined ? 0 : jsonByteLength(value);

export function createStrategyService(
  db: Db,
  now: () => number,
  /** A kept run of the user's (the backtest service's, which waits for runs being stored). */
  findRun: (userId: number, runId: string) => Promise<KeptRun | null> = async (userId, runId) => {
    const row = await findStoredRun(db, userId, runId);
    return row && { ...row, readDeals: () => allRunDeals(db, row.runId) };
  },
  limits: ResultLimits = DEFAULT_RESULT_LIMITS,
  /** Waits for the user's runs being stored, which join their run history. */
  runsStoredFor: (userId: number) => Promise<void> = () => Promise.resolve(),
  strategyLimits: StrategyLimits = DEFAULT_STRATEGY_LIMITS,
) {
  const seconds = () => toEpochSec(now());

  const sizeOf = async (values: ResultValues): Promise<number> =>
    (await jsonBytes(values.deals)) +
    (await jsonBytes(values.performance)) +
    (await jsonBytes(values.perSymbol)) +
    (await jsonBytes(values.feeds)) +
    (values.error === null ? 0 : Buffer.byteLength(values.error)) +
    (await jsonBytes(values.logs));

  /**
   * Room for `sizeBytes` more in the user's quota, inside the caller's transaction (which
   * holds the user's results lock): the oldest automatic results are deleted as far as
   * needed. Returns the bytes the results would then take, or null when even without any
   * automatic result they would pass the quota (then nothing was deleted).
   */
  async function makeRoom(tx: Db, userId: number, sizeBytes: number): Promise<number | null> {
    const { total, automatic } = await storedResultBytes(tx, userId);
    const over = total + sizeBytes - limits.quotaBytes;
    if (over <= 0) return total + sizeBytes;
    if (total - automatic + sizeBytes > limits.quotaBytes) return null;
    const freed = await pruneAutomaticResultsFor(tx, userId, over);
    return total - freed + sizeBytes;
  }

  /**
   * Room for a save in the user's strategy storage, inside the caller's transaction (which
   * holds the user's strategies lock): the code after the save must fit the quota (else 422,
   * nothing changed); versions give way, oldest first, of any strategy. Returns whether the
   * replaced code (`keptBytes`, 0 for none) may still be kept as a version.
   */
  async function makeStrategyRoom(
    tx: Db,
    userId: number,
    change: { removedBytes: number; addedBytes: number; keptBytes: number },
  ): Promise<boolean> {
    const quota = strategyLimits.quotaBytes;
    const stored = await storedStrategyBytes(tx, userId);
    const code = stored.code - change.removedBytes + change.addedBytes;
    if (code > quota) {
      throw new QuotaExceededError(
        `Strategies would take ${formatMiB(code)} of your ${formatMiB(quota)}; delete strategies you no longer need first`,
      );
    }
    const over = code + stored.versions + change.keptBytes - quota;
    if (over <= 0) return true;
    const freed = await pruneOldestVersionsFor(tx, userId, over);
    return code + stored.versions - freed + change.keptBytes <= quota;
  }

  async function ownStrategy(userId: number, name: string): Promise<StrategyRow> {
    const row = await findStrategy(db, userId, name);
    if (!row) throw new NotFoundError(`Strategy not found: ${name}`);
    return row;
  }

  return {
    async list(userId: number): Promise<StrategyView[]> {
      return (await listStrategies(db, userId)).map(strategyView);
    },

    /**
     * create: true → a new strategy or 409; otherwise insert or replace the code. Replacing
     * changed code keeps the old code as a version when it had settled or the save asks for it
     * (keepsReplacedCode; the newest `versionsPerStrategy` stay), in the same transaction;
     * blank code over non-blank code needs allow_empty. The user's strategies are bounded in
     * count and in bytes (`strategyLimits`): versions give way to code, oldest first.
     */
    async save(
      userId: number,
      request: Omit<SaveStrategyRequest, 'allow_empty' | 'keep_version'> & {
        allow_empty?: boolean;
        keep_version?: boolean;
      },
    ): Promise<StrategyView & { created: boolean }> {
      if (isReservedStrategyName(request.name)) throw new BadRequestError(MSG_DEFAULT_READ_ONLY);
      const at = seconds();
      const addedBytes = Buffer.byteLength(request.code);
      return db.transaction(async (tx) => {
        await lockUserStrategies(tx, userId);
        const replace = async (existing: StrategyRow) => {
          if (request.create) throw new ConflictError(`Strategy already exists: ${request.name}`);
          if (wouldBlankSavedCode(existing.code, request.code) && !request.allow_empty) {
            throw new BadRequestError(msgBlankRefused(existing.name));
          }
          const existingBytes = Buffer.byteLength(existing.code);
          const keeps =
            existing.code !== request.code &&
            keepsReplacedCode(
              existing.updatedAt,
              at,
              Boolean(request.keep_version || request.allow_empty),
            );
          const room = await makeStrategyRoom(tx, userId, {
            removedBytes: existingBytes,
            addedBytes,
            keptBytes: keeps ? existingBytes : 0,
          });
          if (keeps && room) {
            await keepVersion(
              tx,
              {
                userId,
                strategyId: existing.id,
                code: existing.code,
                createdAt: existing.updatedAt,
              },
              strategyLimits.versionsPerStrategy,
            );
          }
          const updated = await updateStrategyCode(tx, existing.id, request.code, at);
          if (!updated) throw new NotFoundError(`Strategy not found: ${request.name}`);
          return { ...strategyView(updated), created: false };
        };

        const existing = await findStrategyForUpdate(tx, userId, request.name);
        if (existing) return replace(existing);
        if ((await countStrategies(tx, userId)) >= strategyLimits.maxStrategies) {
          throw new BadRequestError(msgTooManyStrategies(strategyLimits.maxStrategies));
        }
        await makeStrategyRoom(tx, userId, { removedBytes: 0, addedBytes, keptBytes: 0 });
        const inserted = await insertStrategy(tx, {
          userId,
          name: request.name,
          code: request.code,
          at,
        });
        if (inserted) return { ...strategyView(inserted), created: true };
        // another request created it meanwhile
        const again = await findStrategyForUpdate(tx, userId, request.name);
        if (!again) throw new NotFoundError(`Strategy not found: ${request.name}`);
        return replace(again);
      });
    },

    /** The strategy's kept versions, newest first (none for Default). */
    async listVersions(userId: number, name: string): Promise<StrategyVersionList> {
      if (isReservedStrategyName(name)) return { strategy_name: name, versions: [] };
      const strategy = await ownStrategy(userId, name);
      const rows = await listVersions(db, strategy.id);
      return {
        strategy_name: strategy.name,
        versions: rows.map((row) => ({
          id: row.id,
          created_at: row.createdAt,
          length: row.length,
          lines: row.lines,
          preview: codePreview(row.head),
        })),
      };
    },

    async getVersion(userId: number, name: string, id: number): Promise<StrategyVersion> {
      const strategy = await ownStrategy(userId, name);
      const row = await findVersion(db, strategy.id, id);
      if (!row) throw new NotFoundError(`Version not found: ${id}`);
      return {
        id: row.id,
        strategy_name: strategy.name,
        created_at: row.createdAt,
        length: row.code.length,
        lines: codeLineCount(row.code),
        code: row.code,
      };
    },

    async remove(userId: number, name: string): Promise<{ deleted: string }> {
      if (isReservedStrategyName(name)) throw new BadRequestError(MSG_DEFAULT_READ_ONLY);
      if (!(await deleteStrategy(db, userId, name))) {
        throw new NotFoundError(`Strategy not found: ${name}`);
      }
      return { deleted: name };
    },

    /**
     * Saves a result; with run_id the kept run's own deals, performance, error and log. A
     * result over `maxBytes` is refused (413), and so is a save that would take the user's
     * saved results past `quotaBytes` (422); nothing is stored then.
     */
    async saveResult(userId: number, request: SaveResultRequest): Promise<ResultView> {
      const strategy = await ownStrategy(userId, request.strategy_name);
      let values: ResultValues = {
        deals: request.deals ?? [],
        performance: request.performance ?? null,
        error: request.error ?? null,
        logs: null,
        runId: null,
        perSymbol: request.per_symbol ?? null,
        feeds: request.feeds ?? null,
      };
      if (request.run_id) {
        const run = await findRun(userId, request.run_id);
        if (!run) throw new NotFoundError(`Run not found: ${request.run_id}`);
        // the run is in the history already, kept by itself: saving it keeps it for good
        const kept = await db.transaction(async (tx) => {
          await lockUserResults(tx, userId);
          return keepAutomaticResult(tx, strategy.id, run.runId);
        });
        if (kept) return resultView(kept, strategy.name);
        values = runValues({ ...run, deals: await run.readDeals() });
      }
      const sizeBytes = await sizeOf(values);
      if (sizeBytes > limits.maxBytes) {
        throw new ResultTooLargeError(
          `The result is ${formatMiB(sizeBytes)}; a saved result may be at most ${formatMiB(limits.maxBytes)}`,
        );
      }
      const row = await db.transaction(async (tx) => {
        await lockUserResults(tx, userId);
        // automatic results give way to a save; saved ones alone count against it
        const after = await makeRoom(tx, userId, sizeBytes);
        if (after === null) {
          const { total, automatic } = await storedResultBytes(tx, userId);
          throw new QuotaExceededError(
            `Saved results would take ${formatMiB(total - automatic + sizeBytes)} of your ${formatMiB(limits.quotaBytes)}; delete older results first`,
          );
        }
        return insertResult(tx, {
          userId,
          strategyId: strategy.id,
          symbolId: request.symbol_id,
          ...resultColumns(values, sizeBytes),
          automatic: false,
          createdAt: seconds(),
        });
      });
      return resultView(
        { ...row, performance: withoutCurve(row.performance), hasLogs: row.logs !== null },
        strategy.name,
      );
    },

    /**
     * Keeps a stored run of a saved strategy in its run history by itself (the Default
     * strategy's runs and runs of no strategy are not kept there): the newest
     * AUTOMATIC_RESULTS_PER_STRATEGY per strategy. A run larger than a saved result may
     * be, or one that does not fit the quota even without the user's older automatic
     * results, is left out (its run is still kept with the user's last runs).
     */
    async keepRunResult(run: NewRun): Promise<void> {
      const name = run.strategyName;
      if (name === null || isReservedStrategyName(name)) return;
      const strategy = await findStrategy(db, run.userId, name);
      if (!strategy) return;
      const values = runValues(run);
      const sizeBytes = await sizeOf(values);
      if (sizeBytes > limits.maxBytes) return;
      await db.transaction(async (tx) => {
        await lockUserResults(tx, run.userId);
        if ((await makeRoom(tx, run.userId, sizeBytes)) === null) return;
        await insertResult(tx, {
          userId: run.userId,
          strategyId: strategy.id,
          symbolId: run.symbol,
          ...resultColumns(values, sizeBytes),
          automatic: true,
          createdAt: run.createdAt,
        });
        await pruneAutomaticResults(tx, strategy.id, AUTOMATIC_RESULTS_PER_STRATEGY);
      });
    },

    async listResults(
      userId: number,
      strategyName: string,
      query: ResultsQuery,
    ): Promise<{ results: ResultView[]; total: number }> {
      if (isReservedStrategyName(strategyName)) return { results: [], total: 0 };
      const strategy = await ownStrategy(userId, strategyName);
      // a run that just finished is listed, though it is stored after its answer
      await runsStoredFor(userId);
      const { rows, total } = await listResults(
        db,
        strategy.id,
        query.symbol_id,
        query.skip,
        query.limit,
      );
      return { results: rows.map((row) => resultView(row, strategy.name)), total };
    },

    /** One saved result with its full figures and log, without its deals. */
    async getResult(
      userId: number,
      strategyName: string,
      id: number,
    ): Promise<ResultView & { logs: string[] | null; per_symbol?: Record<string, unknown> }> {
      const strategy = await ownStrategy(userId, strategyName);
      const row = await findResult(db, strategy.id, id);
      if (!row) throw new NotFoundError(`Result not found: ${id}`);
      return {
        ...resultView(row, strategy.name),
        ...(row.feeds ? { per_symbol: row.perSymbol ?? {} } : {}),
        logs: row.logs,
      };
    },

    /** One page of a saved result's deals and their count. */
    async getResultDeals(
      userId: number,
      strategyName: string,
      id: number,
      query: ResultDealsQuery,
    ): Promise<{ deals: unknown[]; total: number }> {
      const strategy = await ownStrategy(userId, strategyName);
      const page = await resultDeals(db, strategy.id, id, query.skip, query.limit);
      if (!page) throw new NotFoundError(`Result not found: ${id}`);
      return page;
    },

    /** Deletes a saved result (its bytes leave the quota). */
    async deleteResult(
      userId: number,
      strategyName: string,
      id: number,
    ): Promise<{ deleted: number }> {
      const strategy = await ownStrategy(userId, strategyName);
      if (!(await deleteResult(db, strategy.id, id))) {
        throw new NotFoundError(`Result not found: ${id}`);
      }
      return { deleted: id };
    },
  };
}

function withoutCurve(performance: Record<string, unknown> | null): Record<string, unknown> | null {
  if (performance === null) return null;
  const { equity_curve: _curve, ...figures } = performance;
  return figures;
}

/** Sizes in messages: whole MiB as such, else MiB with two decimals (1.04 MiB). */
function formatMiB(bytes: number): string {
  const mib = bytes / MIB;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(2)} MiB`;
}

export type StrategyService = ReturnType<typeof createStrategyService>;
