import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  MAX_TRADE_RECORDS,
  backtestFigures,
  computeBacktest,
  objectiveScore,
  periodReturns,
  trialPerformance,
  computePortfolio,
  type FeedInstrument,
  validateTradeRecords,
  type OptimizationObjective,
  type TrialPerformance,
  type Bar,
  type BacktestConventions,
  type Deal,
  type Performance,
  type ValidTrade,
} from '@ct/domain';
import { z } from 'zod';
import { formatBytes } from './sandbox/settings.ts';

/*
 * A run's result as the sandbox wrote it, checked and turned into deals and performance:
 * pure, so that a large result is read, checked and computed in a body worker
 * (http/body-worker.ts) instead of on the event loop, and a small one right here.
 */

/**
 * Why a run has no result: the strategy failed (exception, syntax error, crash, exit),
 * broke the return contract, hit a limit, or could not run (sandbox unavailable or busy).
 */
export type RunErrorKind = 'strategy' | 'contract' | 'limit' | 'unavailable' | 'busy';

export type Failure = { error: string; kind: RunErrorKind };

/** What the harness writes to fd 3; checked, since a strategy can write there too (also read by modules/live-runs). */
export const payloadSchema = z.union([
  z.object({
    ok: z.literal(true),
    count: z.number().int().nonnegative().nullable(),
    records: z.unknown(),
    elapsed_ms: z.number().optional(),
  }),
  z.object({ ok: z.literal(false), kind: z.string(), error: z.string() }),
]);

export const MALFORMED_RESULT = 'The strategy process returned a malformed result';

export type EvaluationInput = {
  bars: readonly Bar[];
  symbol: string;
  period: string;
  conventions: BacktestConventions;
  /** The sandbox's memory limit, named when the strategy ran out of memory. */
  memoryBytes: number;
};

export type Evaluated = { deals: Deal[]; performance: Performance; trades: ValidTrade[] };

/** Validates the records, computes deals and performance, or says what is wrong. */
export function evaluatePayload(payload: unknown, input: EvaluationInput): Evaluated | Failure {
  const trades = checkedTrades(payload, input);
  if ('error' in trades) return trades;
  return {
    ...computeBacktest({
      bars: input.bars,
      trades,
      symbol: input.symbol,
      period: input.period,
      conventions: input.conventions,
    }),
    trades,
  };
}

/** The payload's trade records checked against the bars, or what is wrong with them. */
function checkedTrades(payload: unknown, input: EvaluationInput): ValidTrade[] | Failure {
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) return { error: MALFORMED_RESULT, kind: 'strategy' };
  const result = parsed.data;
  if (!result.ok) {
    if (result.kind === 'memory') {
      return { error: `Memory limit exceeded (${formatBytes(input.memoryBytes)})`, kind: 'limit' };
    }
    return { error: result.error, kind: 'strategy' };
  }
  if (result.count !== null && result.count > MAX_TRADE_RECORDS) {
    return {
      error: `Invalid strategy result: main() returned ${result.count} trade records; at most ${MAX_TRADE_RECORDS} are allowed`,
      kind: 'contract',
    };
  }
  const times = input.bars.map((bar) => bar.time);
  const checked = validateTradeRecords(result.records, times);
  if (!checked.ok) return { error: `Invalid strategy result: ${checked.error}`, kind: 'contract' };
  return checked.trades;
}

/** A multi-feed run's figures: the portfolio's, each instrument's, and the deals of all. */
export type EvaluatedFeeds = Evaluated & {
  perSymbol: Record<string, Performance>;
  /** The portfolio's equity at every bar start of any instrument. */
  equity: number[];
};

/**
 * `evaluatePayload` for a run on several feeds (`computePortfolio`): each record trades its
 * `code`, settled by that instrument's terms; the figures are the portfolio's.
 */
export function evaluateFeedsPayload(
  payload: unknown,
  instruments: readonly FeedInstrument[],
  memoryBytes: number,
): EvaluatedFeeds | Failure {
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) return { error: MALFORMED_RESULT, kind: 'strategy' };
  const result = parsed.data;
  if (!result.ok) {
    if (result.kind === 'memory') {
      return { error: `Memory limit exceeded (${formatBytes(memoryBytes)})`, kind: 'limit' };
    }
    return { error: result.error, kind: 'strategy' };
  }
  if (result.count !== null && result.count > MAX_TRADE_RECORDS) {
    return {
      error: `Invalid strategy result: main() returned ${result.count} trade records; at most ${MAX_TRADE_RECORDS} are allowed`,
      kind: 'contract',
    };
  }
  const computed = computePortfolio(result.records, instruments);
  if (!computed.ok)
    return { error: `Invalid strategy result: ${computed.error}`, kind: 'contract' };
  return {
    deals: computed.deals,
    performance: computed.performance,
    trades: computed.instruments.flatMap((instrument) => instrument.trades),
    perSymbol: computed.perSymbol,
    equity: computed.equity,
  };
}

/** Time inside main() as the harness measured it, when the payload says. */
export function payloadStrategyMs(payload: unknown): number | null {
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success || !parsed.data.ok) return null;
  return parsed.data.elapsed_ms ?? null;
}

const ELAPSED_KEY = Buffer.from('"elapsed_ms":');
/** How far from a line's end its `elapsed_ms` may start (the harness writes it last). */
const ELAPSED_TAIL = 48;

/**
 * Time inside main() as a session's result line says at its end (the harness writes
 * `"elapsed_ms":N}` last), read without parsing the line: what paces the next batch while the
 * line itself is still to be checked. Null when the tail holds no such number (a failure, or
 * a line the strategy forged: the pace is only a hint).
 */
export function lineStrategyMs(bytes: Uint8Array): number | null {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(
    Math.max(0, bytes.byteLength - ELAPSED_TAIL),
  );
  const at = tail.lastIndexOf(ELAPSED_KEY);
  if (at < 0) return null;
  const match = /^(\d+(?:\.\d+)?)\}\s*$/.exec(
    tail.subarray(at + ELAPSED_KEY.length).toString('latin1'),
  );
  return match ? Number(match[1]) : null;
}

/**
 * A large result's evaluation as a body worker does it: the fd 3 bytes parsed, checked and
 * computed; deals and the equity curve as JSON pieces of `piece` entries (taken back into
 * objects a piece per turn of the event loop by `fromPieces`), the rest of the figures as
 * they are.
 */
export type PiecedEvaluation =
  | { ok: false; failure: Failure; strategyMs: number | null }
  | {
      ok: true;
      deals: string[];
      /** The figures with an empty equity curve, which `curve` holds. */
      performance: Performance;
      curve: string[];
      /** With `withTrades`: the validated trades (an AI task's check reads them). */
      trades?: string[];
      strategyMs: number | null;
      /** A run on several feeds: each instrument's figures (`performance` is the portfolio's). */
      perSymbol?: Record<string, Performance>;
      /** A run on several feeds, with `withTrades`: the portfolio's equity at every bar start. */
      equity?: string[];
    };

/** Bars as one Float64Array of time, open, high, low, close, volume (a worker's transfer). */
export function flatBars(bars: readonly Bar[]): Float64Array {
  const flat = new Float64Array(bars.length * 6);
  for (let i = 0, j = 0; i < bars.length; i++, j += 6) {
    const bar = bars[i] as Bar;
    flat[j] = bar.time;
    flat[j + 1] = bar.open;
    flat[j + 2] = bar.high;
    flat[j + 3] = bar.low;
    flat[j + 4] = bar.close;
    flat[j + 5] = bar.volume;
  }
  return flat;
}

/** `items` as JSON arrays of at most `size` entries each. */
export function toPieces(items: readonly unknown[], size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < items.length; i += size) {
    pieces.push(JSON.stringify(items.slice(i, i + size)));
  }
  return pieces;
}

/** The entries of JSON array pieces, one piece parsed per turn of the event loop. */
export async function fromPieces<T>(pieces: readonly string[]): Promise<T[]> {
  const items: T[] = [];
  for (const piece of pieces) {
    for (const item of JSON.parse(piece) as T[]) items.push(item);
    await nextTurn();
  }
  return items;
}

/** The fd 3 bytes as JSON, or undefined when they are not JSON. */
function parsed(bytes: Uint8Array): { ok: true; payload: unknown } | { ok: false } {
  try {
    return { ok: true, payload: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

const unreadable: PiecedEvaluation = {
  ok: false,
  failure: { error: MALFORMED_RESULT, kind: 'strategy' },
  strategyMs: null,
};

/** Evaluated figures as pieces (`PiecedEvaluation`). */
function inPieces(
  evaluated: Evaluated | Failure,
  strategyMs: number | null,
  piece: number,
  withTrades = false,
): PiecedEvaluation {
  if ('error' in evaluated) return { ok: false, failure: evaluated, strategyMs };
  const { performance } = evaluated;
  return {
    ok: true,
    deals: toPieces(evaluated.deals, piece),
    performance: { ...performance, equity_curve: [] },
    curve: toPieces(performance.equity_curve, piece * 4),
    ...(withTrades ? { trades: toPieces(evaluated.trades, piece) } : {}),
    strategyMs,
  };
}

export function evaluateBytes(
  bytes: Uint8Array,
  input: EvaluationInput,
  piece: number,
  withTrades = false,
): PiecedEvaluation {
  const read = parsed(bytes);
  if (!read.ok) return unreadable;
  const strategyMs = payloadStrategyMs(read.payload);
  return inPieces(evaluatePayload(read.payload, input), strategyMs, piece, withTrades);
}

/**
 * `evaluateBytes` for a run on several feeds (`evaluateFeedsPayload`): the portfolio's deals
 * and curve in pieces, each instrument's figures as they are (their curves are sampled to
 * MAX_EQUITY_POINTS); with `withTrades` (an AI task's check) the validated trades and the
 * portfolio's equity at every bar start in pieces too.
 */
export function evaluateFeedsBytes(
  bytes: Uint8Array,
  instruments: readonly FeedInstrument[],
  memoryBytes: number,
  piece: number,
  withTrades = false,
): PiecedEvaluation {
  const read = parsed(bytes);
  if (!read.ok) return unreadable;
  const strategyMs = payloadStrategyMs(read.payload);
  const evaluated = evaluateFeedsPayload(read.payload, instruments, memoryBytes);
  const pieced = inPieces(evaluated, strategyMs, piece, withTrades);
  if (!pieced.ok || 'error' in evaluated) return pieced;
  return {
    ...pieced,
    perSymbol: evaluated.perSymbol,
    ...(withTrades ? { equity: toPieces(evaluated.equity, piece * 4) } : {}),
  };
}

/** What an optimisation keeps of a trial (modules/optimization), or why it failed. */
export type TrialEvaluation =
  | { ok: false; failure: Failure }
  | {
      ok: true;
      performance: TrialPerformance;
      score: number | null;
      /** Per-bar returns of its equity curve (the overfitting statistics' input). */
      returns: Float64Array;
      /** Time inside main() as the harness measured it (sizes an optimisation's batches). */
      strategyMs: number | null;
      /** Out-of-sample trials: what the stitched walk-forward curve and figures need. */
      detail: {
        equity: [string, number][];
        profits: number[];
        initial_capital: number;
        bars_per_year: number | null;
        days: number;
      } | null;
    };

/**
 * A trial's result line as the harness wrote it, read, checked and computed into what the
 * optimisation keeps: the same checks, deals and metrics as a single backtest (evaluatePayload),
 * then the trial's figures, its objective score and per-bar returns. Pure: a body worker runs
 * it, off the event loop.
 */
export function evaluateTrialBytes(
  bytes: Uint8Array,
  input: EvaluationInput,
  objective: OptimizationObjective,
  withDetail: boolean,
): TrialEvaluation {
  const read = parsed(bytes);
  if (!read.ok) return { ok: false, failure: { error: MALFORMED_RESULT, kind: 'strategy' } };
  const trades = checkedTrades(read.payload, input);
  if ('error' in trades) return { ok: false, failure: trades };
  // the same figures as evaluatePayload's; the dated curve points only where the detail
  // keeps them, and the equity at every bar taken from the same pass
  const { deals, performance, curve } = backtestFigures(
    {
      bars: input.bars,
      trades,
      symbol: input.symbol,
      period: input.period,
      conventions: input.conventions,
    },
    withDetail,
  );
  const strategyMs = payloadStrategyMs(read.payload);
  return {
    ...trialOf({ deals, performance, trades }, curve, input.bars, objective, withDetail),
    strategyMs,
  };
}

/** A trial's figures from its evaluated run and equity curve (one feed or a portfolio). */
export function trialOf(
  evaluated: Evaluated,
  curve: ArrayLike<number>,
  bars: readonly Bar[],
  objective: OptimizationObjective,
  withDetail: boolean,
): TrialEvaluation & { ok: true } {
  const performance = trialPerformance(evaluated.deals, evaluated.performance);
  return {
    ok: true,
    performance,
    score: objectiveScore(objective, performance),
    returns: Float64Array.from(periodReturns(curve)),
    strategyMs: null,
    detail: withDetail
      ? {
          equity: evaluated.performance.equity_curve,
          profits: evaluated.deals.map((deal) => deal.profit),
          initial_capital: evaluated.performance.initial_capital,
          bars_per_year: evaluated.performance.conventions.bars_per_year,
          days:
            bars.length > 1 ? ((bars.at(-1)?.time ?? 0) - (bars[0]?.time ?? 0)) / 86_400_000 : 0,
        }
      : null,
  };
}

/**
 * A trial on several feeds (`evaluateFeedsPayload`): the portfolio's figures, score and
 * per-bar returns of its equity (one account); `bars` are the optimisation's own feed's.
 */
export function evaluateFeedsTrialBytes(
  bytes: Uint8Array,
  instruments: readonly FeedInstrument[],
  memoryBytes: number,
  bars: readonly Bar[],
  objective: OptimizationObjective,
  withDetail: boolean,
): TrialEvaluation {
  const read = parsed(bytes);
  if (!read.ok) return { ok: false, failure: { error: MALFORMED_RESULT, kind: 'strategy' } };
  const evaluated = evaluateFeedsPayload(read.payload, instruments, memoryBytes);
  if ('error' in evaluated) return { ok: false, failure: evaluated };
  const strategyMs = payloadStrategyMs(read.payload);
  return { ...trialOf(evaluated, evaluated.equity, bars, objective, withDetail), strategyMs };
}

/** What a batch of trials is evaluated on: one feed, or several (`bars`: the own feed's). */
export type TrialsOn =
  | { input: EvaluationInput }
  | { instruments: readonly FeedInstrument[]; memoryBytes: number; bars: readonly Bar[] };

/**
 * A batch of trials' result lines (one warm interpreter's answers), each read, checked and
 * computed as `evaluateTrialBytes` (or `evaluateFeedsTrialBytes`) does: one body worker task
 * for the batch.
 */
export function evaluateTrialsBytes(
  lines: readonly Uint8Array[],
  on: TrialsOn,
  objective: OptimizationObjective,
  withDetail: boolean,
): TrialEvaluation[] {
  if ('input' in on) {
    return lines.map((bytes) => evaluateTrialBytes(bytes, on.input, objective, withDetail));
  }
  return lines.map((bytes) =>
    evaluateFeedsTrialBytes(bytes, on.instruments, on.memoryBytes, on.bars, objective, withDetail),
  );
}
