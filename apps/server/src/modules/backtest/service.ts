import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  toEpochSec,
  DEFAULT_BACKTEST_CONVENTIONS,
  feedInstruments,
  feedRow,
  type FeedInstrument,
  mergeFeeds,
  parsePeriod,
  type Feed,
  type Bar,
  type BacktestConventions,
  type Deal,
  type OptimizationObjective,
  type Performance,
  type Period,
  type ValidTrade,
} from '@ct/domain';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { MarketData } from '../market/market-data.ts';
import {
  evaluateFeedsPayload,
  evaluatePayload,
  evaluateTrialsBytes,
  lineStrategyMs,
  fromPieces,
  type TrialEvaluation,
  type TrialsOn,
  payloadStrategyMs,
  type EvaluationInput,
  type Failure,
  type PiecedEvaluation,
  type RunErrorKind,
} from './evaluate.ts';
import type { LogHub } from './log-hub.ts';
import {
  SandboxBusyError,
  SandboxUnavailableError,
  type SandboxPool,
  type SandboxSession,
} from './sandbox/pool.ts';
import type { Release } from './sandbox/bars-budget.ts';
import type { ProcessOutcome } from './sandbox/process.ts';
import { rowOfBar } from './sandbox/rows-wire.ts';
import { formatSeconds } from './sandbox/settings.ts';
import {
  DEALS_PER_CHUNK,
  allRunDeals,
  findRun,
  insertRun,
  runDeals,
  type NewRun,
} from './store.ts';

export { payloadSchema, type RunErrorKind } from './evaluate.ts';

/** Rows for the sandbox made per turn of the event loop. */
const ROWS_PER_TURN = 5000;

/**
 * Results of this many bytes or more are read, checked and computed off the event loop
 * (`BacktestDeps.evaluateInWorker`).
 */
export const RESULT_WORKER_MIN_BYTES = 256 * 1024;

/** The answer of a run (POST /api/backtest/code; `data` of the run helper). */
export type RunResult = {
  /** Id of the kept run (GET /api/backtest/runs/{run_id}); null when nothing ran. */
  run_id: string | null;
  deals: Deal[];
  performance: Performance | null;
  error: string | null;
  error_kind: RunErrorKind | null;
  /** Every line the strategy printed, in order. */
  logs: string[];
  symbol: string;
  period: string;
  bar_count: number;
  /** Wall time of the strategy process, from job start to exit. */
  elapsed_ms: number;
  /** Time spent inside main(), as the interpreter measured it; null when it did not return. */
  strategy_ms: number | null;
  /** A run on `feeds`: each instrument's figures (the performance is the portfolio's). */
  per_symbol?: Record<string, Performance>;
  /** A run on `feeds`: the feeds it ran on and their bars. */
  feeds?: { symbol_id: string; period: string; bar_count: number }[];
};

export type RunRequest = {
  userId: number;
  clientId: string | null;
  code: string;
  filename: string;
  bars: readonly Bar[];
  symbol: string;
  period: string;
  strategyName: string | null;
  initialCapital?: number;
  /** Several feeds (see `CheckRequest.feeds`). */
  feeds?: readonly Feed[];
  /**
   * Settles once the answer has been written (or its request has gone): the run is stored
   * after it, so that its statements do not hold the event loop while the answer is sent.
   */
  answered?: PromiseLike<unknown>;
  /**
   * Room for the bars, taken before they were loaded (`reserveBars`), or why there was none;
   * without it the run takes room for its bars itself.
   */
  reservation?: Reservation;
};

/** Room for a run's bars (given back once), or why it was not given. */
export type Reservation = Release | Failure;

export type BarsLoader = (
  userId: number,
  symbol: string,
  period: Period,
  limit: number,
  /** Only bars starting before this time (UTC ms). */
  endBefore: number,
) => Promise<Bar[] | null>;

export type BacktestDeps = {
  db: Db;
  pool: SandboxPool;
  logs: LogHub;
  market: MarketData;
  now: () => number;
  /** Bars of a user's own (imported) instrument; null when the user has none by that name. */
  loadImported?: BarsLoader;
  /** A run could not be stored (logged; the answer was already sent). */
  onStoreError?: (error: unknown) => void;
  /** After a run is stored, in the same write (its strategy's run history keeps it). */
  afterStore?: (run: NewRun) => Promise<void>;
  /**
   * Reads, checks and computes a large result off the event loop (a body worker); without
   * it every result is evaluated on the event loop.
   */
  evaluateInWorker?: (
    bytes: Uint8Array,
    input: EvaluationInput,
    piece: number,
    /** The validated trades too (an AI task's check reads them). */
    withTrades?: boolean,
  ) => Promise<PiecedEvaluation>;
  /**
   * A large result of a run on several feeds read, checked and computed off the event loop
   * (a body worker); without it such a result is evaluated on the event loop.
   */
  evaluateFeedsInWorker?: (
    bytes: Uint8Array,
    instruments: readonly FeedInstrument[],
    memoryBytes: number,
    piece: number,
    /** The validated trades and the portfolio's equity too (an AI task's check reads them). */
    withTrades?: boolean,
  ) => Promise<PiecedEvaluation>;
  /** A batch of optimisation trials' results computed off the event loop (a body worker). */
  evaluateTrialsInWorker?: (
    lines: readonly Uint8Array[],
    on: TrialsOn,
    objective: OptimizationObjective,
    withDetail: boolean,
  ) => Promise<TrialEvaluation[]>;
};

/** A kept run's row; its deals are read piece by piece. */
export type StoredRun = NonNullable<Awaited<ReturnType<typeof findRun>>> & {
  /** The deals, one stored piece at a time. */
  dealPieces(): AsyncGenerator<unknown[]>;
  /** All the deals (read piece by piece). */
  readDeals(): Promise<unknown[]>;
};

/** Deals and figures of a run; `perSymbol` on several feeds. */
type Figures = {
  deals: Deal[];
  performance: Performance;
  perSymbol?: Record<string, Performance>;
  equity?: number[];
};

/** Prefix of the lines the server itself sends on the log socket. */
export const LOG_PREFIX = '[backtest]';

/**
 * The log line of how far a running strategy is through its bars (the editor shows it on its
 * Run button, apps/web/src/features/strategy/runQueue.ts); never kept in the run's log.
 */
export function progressLine(percent: number): string {
  return `${LOG_PREFIX} Running: ${percent}% of the bars`;
}

/**
 * The log line of a run's place in the queue for room for its bars (the same "Queued at
 * position N:" the editor reads): 1 = next; 0 = admitted.
 */
export function barsQueueLine(position: number, bars: number): string {
  return position === 0
    ? `${LOG_PREFIX} Room for ${bars} bars: running now`
    : `${LOG_PREFIX} Queued at position ${position}: waiting for room for ${bars} bars (other runs hold the memory for bars)`;
}

/**
 * The log line of a run's place in the backtest queue (the editor shows it on its Run
 * button, apps/web/src/features/strategy/runQueue.ts): 1 = next to start; 0 = started.
 */
export function queueLine(position: number): string {
  return position === 0
    ? `${LOG_PREFIX} A slot is free: running now`
    : `${LOG_PREFIX} Queued at position ${position}: waiting for a free slot`;
}

/**
 * A run of `check` (AI tasks): the validated trades beside deals and performance, or why it
 * failed; never kept, never streamed to a log socket.
 */
export type CheckRequest = {
  code: string;
  filename: string;
  bars: readonly Bar[];
  symbol: string;
  period: string;
  /**
   * Several feeds (2 or more): `data_array` holds all their rows (`mergeFeeds`), the records
   * trade their `code`; `bars`, `symbol` and `period` are then the first feed's.
   */
  feeds?: readonly Feed[];
};

export type CheckResult =
  | {
      ok: true;
      trades: ValidTrade[];
      deals: Deal[];
      performance: Performance;
      /** A run on feeds: each instrument's figures. */
      perSymbol?: Record<string, Performance>;
      /** A run on feeds: the portfolio's equity at every bar start (unrounded). */
      equity?: number[];
      conventions: BacktestConventions;
      logs: string[];
      elapsedMs: number;
    }
  | { ok: false; error: string; kind: RunErrorKind; logs: string[]; elapsedMs: number };

export function createBacktestService(deps: BacktestDeps) {
  const { db, pool, logs, market, now } = deps;
  const activeByUser = new Map<number, number>();
  /** Runs being stored; reading a run (or a user's run history) waits for its write. */
  const storing = new Map<string, { userId: number; write: Promise<void> }>();

  function keep(runId: string, run: NewRun, answered?: PromiseLike<unknown>): void {
    const write = Promise.resolve(answered)
      .then(() => insertRun(db, run))
      .then(() => deps.afterStore?.(run))
      .catch((error: unknown) => {
        deps.onStoreError?.(error);
      })
      .finally(() => storing.delete(runId));
    storing.set(runId, { userId: run.userId, write });
  }

  function conventionsOf(symbol: string, initialCapital?: number): BacktestConventions {
    const instrument = market.instrument(symbol);
    return {
      ...DEFAULT_BACKTEST_CONVENTIONS,
      ...(instrument
        ? {
            contractMultiplier: instrument.volume_multiple,
            commissionPerLot: instrument.commission_per_lot,
            currency: instrument.currency,
          }
        : {}),
      ...(initialCapital ? { initialCapital } : {}),
    };
  }

  function failureOf(outcome: ProcessOutcome): Failure | null {
    if (outcome.kind === 'failed') {
      const limit = ['timeout', 'output', 'result_size', 'cpu'].includes(outcome.failure);
      return { error: outcome.message, kind: limit ? 'limit' : 'strategy' };
    }
    return null;
  }

  /** Validates the records, computes deals and performance, or says what is wrong. */
  function evaluate(
    outcome: Extract<ProcessOutcome, { kind: 'result' }>,
    request: CheckRequest & { initialCapital?: number },
  ): (Figures & { trades: ValidTrade[] }) | Failure {
    if (request.feeds) return evaluateFeeds(outcome.payload, request);
    return evaluatePayload(outcome.payload, evaluationInput(request));
  }

  /** A multi-feed run's records: per instrument, by each one's terms, one account. */
  function evaluateFeeds(
    payload: unknown,
    request: CheckRequest & { initialCapital?: number },
  ): (Figures & { trades: ValidTrade[] }) | Failure {
    const instruments = feedInstruments(request.feeds ?? [], (code) =>
      conventionsOf(code, request.initialCapital),
    );
    return evaluateFeedsPayload(payload, instruments, pool.settings.memoryBytes);
  }

  function evaluationInput(request: CheckRequest & { initialCapital?: number }): EvaluationInput {
    return {
      bars: request.bars,
      symbol: request.symbol,
      period: request.period,
      conventions: conventionsOf(request.symbol, request.initialCapital),
      memoryBytes: pool.settings.memoryBytes,
    };
  }

  /**
   * A run's figures: a large result (its bytes kept unread by the sandbox) in a body
   * worker, its deals taken back a piece per turn of the event loop; a small one here.
   */
  async function evaluateRun(
    outcome: Extract<ProcessOutcome, { kind: 'result' }>,
    request: RunRequest,
  ): Promise<{
    figures: Figures | Failure;
    ms: number | null;
  }> {
    const bytes = outcome.bytes;
    if (request.feeds) {
      if (bytes === undefined) {
        return { figures: evaluate(outcome, request), ms: payloadStrategyMs(outcome.payload) };
      }
      const feedsWorker = deps.evaluateFeedsInWorker;
      if (!feedsWorker) {
        let payload: unknown;
        try {
          payload = JSON.parse(bytes.toString('utf8'));
        } catch {
          payload = undefined;
        }
        return { figures: evaluateFeeds(payload, request), ms: payloadStrategyMs(payload) };
      }
      const instruments = feedInstruments(request.feeds, (code) =>
        conventionsOf(code, request.initialCapital),
      );
      const answer = await feedsWorker(
        bytes,
        instruments,
        pool.settings.memoryBytes,
        DEALS_PER_CHUNK,
      );
      return { figures: await figuresOf(answer), ms: answer.strategyMs };
    }
    if (bytes === undefined) {
      return { figures: evaluate(outcome, request), ms: payloadStrategyMs(outcome.payload) };
    }
    const input = evaluationInput(request);
    const worker = deps.evaluateInWorker;
    if (!worker) {
      let payload: unknown;
      try {
        payload = JSON.parse(bytes.toString('utf8'));
      } catch {
        payload = undefined;
      }
      return { figures: evaluatePayload(payload, input), ms: payloadStrategyMs(payload) };
    }
    const answer = await worker(bytes, input, DEALS_PER_CHUNK);
    return { figures: await figuresOf(answer), ms: answer.strategyMs };
  }

  /** A body worker's figures taken back, a piece of deals per turn of the event loop. */
  async function figuresOf(answer: PiecedEvaluation): Promise<Figures | Failure> {
    if (!answer.ok) return answer.failure;
    const deals = await fromPieces<Deal>(answer.deals);
    const curve = await fromPieces<[string, number]>(answer.curve);
    return {
      deals,
      performance: { ...answer.performance, equity_curve: curve },
      ...(answer.perSymbol ? { perSymbol: answer.perSymbol } : {}),
    };
  }

  function rowsOf(bars: readonly Bar[], symbol: string, period: string) {
    return bars.map((bar) => rowOfBar(bar, symbol, period));
  }

  /** The merged rows of several feeds (`mergeFeeds`), ROWS_PER_TURN rows per turn. */
  async function feedRowsInTurns(feeds: readonly Feed[]) {
    const merged = mergeFeeds(feeds);
    const rows: ReturnType<typeof feedRow>[] = [];
    for (let i = 0; i < merged.length; i += ROWS_PER_TURN) {
      for (const row of merged.slice(i, i + ROWS_PER_TURN)) rows.push(feedRow(feeds, row));
      if (i + ROWS_PER_TURN < merged.length) await nextTurn();
    }
    return rows;
  }

  /** Room for `bars` of the user's run (`SandboxPool.admitBars`), or the busy failure. */
  async function reserve(
    userId: number,
    clientId: string | null,
    bars: number,
  ): Promise<Reservation> {
    try {
      return await pool.admitBars(`user:${userId}`, bars, (position) =>
        logs.publish(userId, clientId, barsQueueLine(position, bars)),
      );
    } catch (error) {
      if (error instanceof SandboxUnavailableError)
        return { error: error.message, kind: 'unavailable' };
      if (error instanceof SandboxBusyError) return { error: error.message, kind: 'busy' };
      throw error;
    }
  }

  async function execute(
    request: CheckRequest & {
      userId: number | null;
      clientId: string | null;
      /** Runs in the user's share of the sandbox without streaming to their log socket. */
      quiet?: boolean;
      /** A result of this many bytes or more comes back unread (`bytes`). */
      unreadFrom?: number;
    },
    printed: string[],
  ): Promise<{ outcome: ProcessOutcome | null; failure: Failure | null }> {
    // one feed's bars go to the sandbox as columns made from the bars (rows-wire.ts)
    const data = request.feeds
      ? { rows: await feedRowsInTurns(request.feeds) }
      : { bars: { bars: request.bars, symbol: request.symbol, period: request.period } };
    try {
      const { userId, clientId } = request;
      const publish = request.quiet ? null : userId;
      const outcome = await pool.run(
        { code: request.code, filename: request.filename, ...data },
        (line) => {
          printed.push(line);
          if (publish !== null) logs.publish(publish, clientId, line);
        },
        {
          owner: userId === null ? 'ai-tasks' : `user:${userId}`,
          onQueued: (position) => {
            if (publish !== null) logs.publish(publish, clientId, queueLine(position));
          },
          ...(request.unreadFrom === undefined ? {} : { unreadFrom: request.unreadFrom }),
          onProgress: (percent) => {
            if (publish !== null) logs.publish(publish, clientId, progressLine(percent));
          },
        },
      );
      return { outcome, failure: failureOf(outcome) };
    } catch (error) {
      if (error instanceof SandboxUnavailableError) {
        return { outcome: null, failure: { error: error.message, kind: 'unavailable' } };
      }
      if (error instanceof SandboxBusyError) {
        return { outcome: null, failure: { error: error.message, kind: 'busy' } };
      }
      throw error;
    }
  }

  async function checkAs(request: CheckRequest, userId: number | null): Promise<CheckResult> {
    const printed: string[] = [];
    // a large result (on one feed or several) comes back unread and is evaluated in a body worker
    const inWorker = checkWorker(request);
    const executed = await execute(
      {
        ...request,
        userId,
        clientId: null,
        quiet: true,
        ...(inWorker ? { unreadFrom: RESULT_WORKER_MIN_BYTES } : {}),
      },
      printed,
    );
    const bytes = executed.outcome?.kind === 'result' ? executed.outcome.bytes : undefined;
    if (!inWorker || executed.failure || bytes === undefined) {
      return checked(request, executed, printed);
    }
    const elapsedMs = Math.round((executed.outcome?.wallMs ?? 0) * 10) / 10;
    const answer = await inWorker(bytes);
    if (!answer.ok) return { ok: false, ...answer.failure, logs: printed, elapsedMs };
    const deals = await fromPieces<Deal>(answer.deals);
    const curve = await fromPieces<[string, number]>(answer.curve);
    const trades = await fromPieces<ValidTrade>(answer.trades ?? []);
    const equity = answer.equity ? await fromPieces<number>(answer.equity) : undefined;
    return {
      ok: true,
      trades,
      deals,
      performance: { ...answer.performance, equity_curve: curve },
      ...(answer.perSymbol ? { perSymbol: answer.perSymbol } : {}),
      ...(equity ? { equity } : {}),
      conventions: conventionsOf(request.symbol),
      logs: printed,
      elapsedMs,
    };
  }

  /** How a check's large result is evaluated in a body worker, trades included; null without one. */
  function checkWorker(
    request: CheckRequest,
  ): ((bytes: Uint8Array) => Promise<PiecedEvaluation>) | null {
    const { feeds } = request;
    if (feeds) {
      const onFeeds = deps.evaluateFeedsInWorker;
      if (!onFeeds) return null;
      const instruments = feedInstruments(feeds, (code) => conventionsOf(code));
      const memory = pool.settings.memoryBytes;
      return (bytes) => onFeeds(bytes, instruments, memory, DEALS_PER_CHUNK, true);
    }
    const onOne = deps.evaluateInWorker;
    if (!onOne) return null;
    return (bytes) => onOne(bytes, evaluationInput(request), DEALS_PER_CHUNK, true);
  }

  /** The result of a run in the sandbox: its failure, or its validated trades and figures. */
  function checked(
    request: CheckRequest,
    { outcome, failure: runFailure }: { outcome: ProcessOutcome | null; failure: Failure | null },
    printed: string[],
  ): CheckResult {
    const elapsedMs = Math.round((outcome?.wallMs ?? 0) * 10) / 10;
    if (runFailure) return { ok: false, ...runFailure, logs: printed, elapsedMs };
    if (outcome?.kind !== 'result') {
      return {
        ok: false,
        error: 'The strategy process ended without a result',
        kind: 'strategy',
        logs: printed,
        elapsedMs,
      };
    }
    const evaluated = evaluate(outcome, request);
    if ('error' in evaluated) return { ok: false, ...evaluated, logs: printed, elapsedMs };
    return {
      ok: true,
      ...evaluated,
      conventions: conventionsOf(request.symbol),
      logs: printed,
      elapsedMs,
    };
  }

  return {
    /** Runs a strategy on bars in the sandbox, keeps the run with its log, and answers. */
    async run(request: RunRequest): Promise<RunResult> {
      const barCount = request.feeds
        ? request.feeds.reduce((total, feed) => total + feed.bars.length, 0)
        : request.bars.length;
      const base = { symbol: request.symbol, period: request.period, bar_count: barCount };
      const active = activeByUser.get(request.userId) ?? 0;
      if (active >= pool.settings.maxPerUser + pool.settings.maxQueuedPerUser) {
        if (typeof request.reservation === 'function') request.reservation();
        const error = `You already have ${active} backtests running or waiting; wait for one to finish`;
        logs.publish(request.userId, request.clientId, `${LOG_PREFIX} ${error}`);
        return {
          ...base,
          run_id: null,
          deals: [],
          performance: null,
          error,
          error_kind: 'busy',
          logs: [],
          elapsed_ms: 0,
          strategy_ms: null,
        };
      }
      activeByUser.set(request.userId, active + 1);
      const printed: string[] = [];
      let release: Release | null = null;
      try {
        const where = request.feeds
          ? request.feeds.map((feed) => `${feed.code} ${feed.period}`).join(', ')
          : [request.symbol, request.period].filter(Boolean).join(' ');
        logs.publish(
          request.userId,
          request.clientId,
          `${LOG_PREFIX} Started ${request.filename}${where ? ` on ${where}` : ''} (${barCount} bars)`,
        );
        const room =
          request.reservation ?? (await reserve(request.userId, request.clientId, barCount));
        if (typeof room === 'function') release = room;
        const { outcome, failure: runFailure } =
          typeof room === 'function'
            ? await execute(
                {
                  ...request,
                  ...((request.feeds ? deps.evaluateFeedsInWorker : deps.evaluateInWorker)
                    ? { unreadFrom: RESULT_WORKER_MIN_BYTES }
                    : {}),
                },
                printed,
              )
            : { outcome: null, failure: room };
        let failure = runFailure;
        let figures: Figures | null = null;
        let ms: number | null = null;
        if (outcome?.kind === 'result') {
          const evaluated = await evaluateRun(outcome, request);
          ms = evaluated.ms;
          if ('error' in evaluated.figures) failure = evaluated.figures;
          else figures = evaluated.figures;
        }
        const elapsedMs = Math.round((outcome?.wallMs ?? 0) * 10) / 10;
        const result: RunResult = {
          ...base,
          run_id: failure && outcome === null ? null : randomUUID(),
          deals: figures?.deals ?? [],
          performance: figures?.performance ?? null,
          error: failure?.error ?? null,
          error_kind: failure?.kind ?? null,
          logs: printed,
          elapsed_ms: elapsedMs,
          strategy_ms: ms,
          ...(request.feeds
            ? {
                per_symbol: figures?.perSymbol ?? {},
                feeds: request.feeds.map((feed) => ({
                  symbol_id: feed.code,
                  period: feed.period,
                  bar_count: feed.bars.length,
                })),
              }
            : {}),
        };
        if (result.run_id !== null) {
          // kept after answering: a large run's deals and log take a while to store
          keep(
            result.run_id,
            {
              runId: result.run_id,
              userId: request.userId,
              clientId: request.clientId,
              strategyName: request.strategyName,
              filename: request.filename,
              symbol: request.symbol,
              period: request.period,
              code: request.code,
              status: failure ? 'error' : 'ok',
              error: result.error,
              errorKind: result.error_kind,
              logs: printed,
              deals: result.deals,
              performance: result.performance,
              perSymbol: result.per_symbol ?? null,
              feeds: result.feeds ?? null,
              barCount,
              elapsedMs,
              createdAt: toEpochSec(now()),
            },
            request.answered,
          );
        }
        announceEnd(request, result);
        return result;
      } finally {
        release?.();
        const left = (activeByUser.get(request.userId) ?? 1) - 1;
        if (left > 0) activeByUser.set(request.userId, left);
        else activeByUser.delete(request.userId);
      }
    },

    /**
     * Room for a run's `bars` before they are loaded (the run helper on 1,000,000 bars): hand
     * it to `run` as `reservation`, or call it when the run does not happen.
     */
    reserveBars(userId: number, clientId: string | null, bars: number): Promise<Reservation> {
      return reserve(userId, clientId, bars);
    },

    /**
     * Runs code on bars in the sandbox for an AI task: no per-user run limit (the task worker
     * bounds its own concurrency), nothing kept, no log socket. Same checks and metrics as
     * `run`, plus the validated trades and the conventions the figures used.
     */
    async check(request: CheckRequest): Promise<CheckResult> {
      return checkAs(request, null);
    },

    /**
     * One optimisation trial: run exactly as `run` runs it (same sandbox, checks, deals and
     * metrics), in the user's fair share of the sandbox, but not kept and not streamed.
     */
    async trial(request: CheckRequest & { userId: number }): Promise<CheckResult> {
      return checkAs(request, request.userId);
    },

    /**
     * A batch of trials in a warm interpreter (one message, one slot of the user's fair
     * share), computed into what an optimisation keeps: the result lines come back unread and
     * are checked and computed (the same checks, deals and metrics as `run`, on one feed or
     * several) in one body worker task when there is one, so neither the parsing nor the
     * metrics hold the event loop. One evaluation per trial that ran, in order: fewer than
     * `updates` when a limit or a crash ended the session (the last one says so).
     */
    async trialsFigures(
      session: SandboxSession,
      request: CheckRequest & { userId: number },
      updates: readonly string[],
      objective: OptimizationObjective,
      withDetail: boolean,
      /**
       * The interpreter is free again (its runs ended; how many, and the time inside main()
       * each result line says, `lineStrategyMs`): the next batch may go.
       */
      onRan?: (count: number, strategyMs: readonly number[]) => void,
    ): Promise<TrialEvaluation[]> {
      let outcomes: ProcessOutcome[];
      try {
        outcomes = await session.nextMany(updates, {
          owner: `user:${request.userId}`,
          unread: true,
        });
        onRan?.(
          outcomes.length,
          outcomes.flatMap((outcome) => {
            const ms =
              outcome.kind === 'result' && outcome.bytes ? lineStrategyMs(outcome.bytes) : null;
            return ms === null ? [] : [ms];
          }),
        );
      } catch (error) {
        if (error instanceof SandboxUnavailableError) {
          return [{ ok: false, failure: { error: error.message, kind: 'unavailable' } }];
        }
        if (error instanceof SandboxBusyError) {
          return [{ ok: false, failure: { error: error.message, kind: 'busy' } }];
        }
        throw error;
      }
      const on: TrialsOn = request.feeds
        ? {
            instruments: feedInstruments(request.feeds, (code) => conventionsOf(code)),
            memoryBytes: pool.settings.memoryBytes,
            bars: request.bars,
          }
        : { input: evaluationInput(request) };
      const lines: Uint8Array[] = [];
      for (const outcome of outcomes) {
        if (outcome.kind === 'result' && outcome.bytes !== undefined) lines.push(outcome.bytes);
      }
      const worker = deps.evaluateTrialsInWorker;
      const evaluated =
        lines.length === 0
          ? []
          : worker
            ? await worker(lines, on, objective, withDetail)
            : evaluateTrialsBytes(lines, on, objective, withDetail);
      let at = 0;
      return outcomes.map((outcome): TrialEvaluation => {
        const failure = failureOf(outcome);
        if (failure) return { ok: false, failure };
        if (outcome.kind !== 'result' || outcome.bytes === undefined) {
          return {
            ok: false,
            failure: { error: 'The strategy process ended without a result', kind: 'strategy' },
          };
        }
        return evaluated[at++] as TrialEvaluation;
      });
    },

    /** The rows the sandbox gives main(data_array) for `bars` (a session's job). */
    rowsOf,

    /** The rows the sandbox gives main(data_array) for several feeds (`mergeFeeds`). */
    feedRowsOf(feeds: readonly Feed[]) {
      return mergeFeeds(feeds).map((row) => feedRow(feeds, row));
    },

    /**
     * The chart's bars for the run helper: `limit` newest bars of a catalogue instrument or
     * of the user's own imported one, starting before `endBefore` (UTC ms; default: all).
     */
    async loadBars(
      userId: number,
      symbol: string,
      periodText: string,
      limit: number,
      endBefore: number = Number.POSITIVE_INFINITY,
    ): Promise<{ ok: true; bars: Bar[]; period: Period } | { ok: false; reason: string }> {
      const period = parsePeriod(periodText);
      if (!period) return { ok: false, reason: `Unknown period: ${periodText}` };
      let bars: Bar[] | null;
      if (market.has(symbol)) {
        bars = market.bars(symbol, period, endBefore, limit, now());
      } else {
        try {
          bars = (await deps.loadImported?.(userId, symbol, period, limit, endBefore)) ?? null;
        } catch (error) {
          if (error instanceof AppError) return { ok: false, reason: error.message };
          throw error;
        }
        if (bars === null) return { ok: false, reason: `Unknown symbol: ${symbol}` };
      }
      if (bars.length === 0)
        return { ok: false, reason: `No bars of ${symbol} ${period} to backtest` };
      return { ok: true, bars, period };
    },

    /** A kept run of the user's (waits for the run's write when it is still being stored). */
    async findRun(userId: number, runId: string): Promise<StoredRun | null> {
      await storing.get(runId)?.write;
      const row = await findRun(db, userId, runId);
      if (!row) return null;
      return {
        ...row,
        dealPieces: () => runDeals(db, row.runId),
        readDeals: () => allRunDeals(db, row.runId),
      };
    },

    /** Waits until the user's finished runs are stored (a run history lists them). */
    async storedFor(userId: number): Promise<void> {
      await Promise.all(
        [...storing.values()].filter((s) => s.userId === userId).map((s) => s.write),
      );
    },

    /** Waits until every finished run is stored (shutdown, tests). */
    async flush(): Promise<void> {
      await Promise.all([...storing.values()].map((s) => s.write));
    },
  };

  function announceEnd(request: RunRequest, result: RunResult): void {
    const seconds = formatSeconds(result.elapsed_ms);
    if (result.error === null) {
      const net = result.performance?.净利润 ?? 0;
      logs.publish(
        request.userId,
        request.clientId,
        `${LOG_PREFIX} Finished in ${seconds}: ${result.deals.length} trades, net profit ${net.toFixed(2)}`,
      );
      return;
    }
    for (const line of result.error.split('\n'))
      logs.publish(request.userId, request.clientId, line);
    logs.publish(request.userId, request.clientId, `${LOG_PREFIX} Failed after ${seconds}`);
  }
}

export type BacktestService = ReturnType<typeof createBacktestService>;
