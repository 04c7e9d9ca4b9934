import { parentPort } from 'node:worker_threads';
import * as domain from '@ct/domain';
import type { z } from 'zod';
import type {
  FeedInstrument,
  OptimizationObjective,
  TrialsSummary,
  SummaryInput,
  SummaryTrial,
} from '@ct/domain';
import {
  evaluateBytes,
  evaluateFeedsBytes,
  evaluateTrialsBytes,
  type TrialEvaluation,
  type TrialsOn,
  type EvaluationInput,
  type PiecedEvaluation,
} from '../modules/backtest/evaluate.ts';

/*
 * The body worker's thread (body-workers.ts starts it): parses a large JSON body and validates
 * it with its route's domain schema, parses a CSV file's bars, or reads, checks and computes a
 * backtest's large result (on one feed or several), or an optimisation's summary, off the
 * server's event loop. Answers go back by structured clone;
 * bars as one transferred Float64Array; a backtest's deals as JSON pieces.
 */

export type BodyTask =
  | { id: number; kind: 'body'; schema: string; bytes: Uint8Array }
  | { id: number; kind: 'csv'; text: string }
  | {
      id: number;
      kind: 'backtest';
      /** The sandbox's result bytes (fd 3). */
      bytes: Uint8Array;
      /** The run's bars as flatBars wrote them. */
      bars: Float64Array;
      input: Omit<EvaluationInput, 'bars'>;
      /** Deals per JSON piece. */
      piece: number;
      /** The validated trades too (an AI task's check). */
      withTrades?: boolean;
    }
  | {
      id: number;
      kind: 'feeds';
      /** The sandbox's result bytes (fd 3) of a run on several feeds. */
      bytes: Uint8Array;
      /** The run's instruments, each one's bars as flatBars wrote them. */
      instruments: (Omit<FeedInstrument, 'bars'> & { bars: Float64Array })[];
      memoryBytes: number;
      /** Deals per JSON piece. */
      piece: number;
      /** The validated trades and the portfolio's equity too (an AI task's check). */
      withTrades?: boolean;
    }
  | {
      id: number;
      kind: 'trials';
      /** A batch's result lines, one per trial, in order (one session message). */
      lines: Uint8Array[];
      /** The trials' bars as flatBars wrote them (one feed), or the own feed's (several). */
      bars: Float64Array;
      /** One feed: the rest of the evaluation's input. */
      input?: Omit<EvaluationInput, 'bars'>;
      /** Several feeds: the instruments, each one's bars as flatBars wrote them. */
      instruments?: (Omit<FeedInstrument, 'bars'> & { bars: Float64Array })[];
      memoryBytes: number;
      objective: OptimizationObjective;
      withDetail: boolean;
    }
  | {
      id: number;
      kind: 'summary';
      /** An optimisation's trials, each one's returns as a transferred Float64Array. */
      input: Omit<SummaryInput, 'trials'> & {
        trials: (Omit<SummaryTrial, 'returns'> & { returns: Float64Array })[];
      };
    };

/**
 * A backtest body's `historical_data` (at `path` in the value) turned into bars here: the
 * value carries null in its place; the bars come as one transferred Float64Array (flatBars),
 * or the refusal barsFromHistorical gave, with the period the bars suggest.
 */
export type PreparedHistorical = { path: (string | number)[]; length: number } & (
  { ok: true; bars: Float64Array; period: domain.Period | null } | { ok: false; error: string }
);

export type BodyAnswer =
  | {
      id: number;
      kind: 'body';
      outcome: 'valid';
      value: unknown;
      /** Bodies of BARS_BODIES: their rows as bars (modules/backtest/historical.ts). */
      historical: PreparedHistorical[];
    }
  | { id: number; kind: 'body'; outcome: 'invalid'; value: unknown }
  /** Not plain JSON (a syntax error, a prototype key): the main thread's parser decides. */
  | { id: number; kind: 'body'; outcome: 'main-thread' }
  | { id: number; kind: 'csv'; ok: true; bars: Float64Array }
  | { id: number; kind: 'csv'; ok: false; error: { row: number; column: number; message: string } }
  | { id: number; kind: 'backtest'; evaluation: PiecedEvaluation }
  | { id: number; kind: 'feeds'; evaluation: PiecedEvaluation }
  | { id: number; kind: 'trials'; evaluations: TrialEvaluation[] }
  | { id: number; kind: 'summary'; summary: TrialsSummary }
  | { id: number; kind: 'failed'; message: string };

/** Keys Fastify's parser refuses (prototype poisoning): such bodies go back to it. */
const POISON = /"(?:__proto__|constructor)"\s*:/;

function schemaOf(name: string): z.ZodType {
  const value = (domain as Record<string, unknown>)[name];
  if (typeof value !== 'object' || value === null || !('safeParse' in value)) {
    throw new Error(`no domain schema ${name}`);
  }
  return value as z.ZodType;
}

const decoder = new TextDecoder();

/** Schemas of the bodies whose `historical_data` (top level and per feed) is turned here. */
const BARS_BODIES = new Set(['backtestCodeRequestSchema', 'backtestRunRequestSchema']);

/**
 * Takes each `historical_data` (rows or columns) out of a validated backtest body (leaving
 * null) and turns it into bars, as the route would (barsFromHistorical, inferPeriod).
 */
function prepareHistorical(value: unknown): {
  prepared: PreparedHistorical[];
  transfer: ArrayBuffer[];
} {
  const prepared: PreparedHistorical[] = [];
  const transfer: ArrayBuffer[] = [];
  const take = (holder: Record<string, unknown>, path: (string | number)[]) => {
    const data = holder.historical_data as domain.HistoricalData | null | undefined;
    if (typeof data !== 'object' || data === null) return;
    holder.historical_data = null;
    const converted = domain.flatBarsFromHistorical(data);
    const at = { path: [...path, 'historical_data'], length: domain.historicalLength(data) };
    if (!converted.ok) {
      prepared.push({ ...at, ok: false, error: converted.error });
      return;
    }
    const bars = converted.flat;
    const period = domain.inferPeriod(bars, domain.FLAT_BAR_FIELDS);
    prepared.push({ ...at, ok: true, bars, period });
    transfer.push(bars.buffer as ArrayBuffer);
  };
  if (typeof value !== 'object' || value === null) return { prepared, transfer };
  const body = value as Record<string, unknown>;
  take(body, []);
  if (Array.isArray(body.feeds)) {
    body.feeds.forEach((feed: unknown, i) => {
      if (typeof feed === 'object' && feed !== null) {
        take(feed as Record<string, unknown>, ['feeds', i]);
      }
    });
  }
  return { prepared, transfer };
}

function answer(task: BodyTask): { answer: BodyAnswer; transfer: ArrayBuffer[] } {
  if (task.kind === 'backtest') {
    const input = { ...task.input, bars: domain.barsOfFlat(task.bars) };
    const evaluation = evaluateBytes(task.bytes, input, task.piece, task.withTrades === true);
    return { answer: { id: task.id, kind: 'backtest', evaluation }, transfer: [] };
  }
  if (task.kind === 'feeds') {
    const instruments = task.instruments.map((instrument) => ({
      ...instrument,
      bars: domain.barsOfFlat(instrument.bars),
    }));
    const evaluation = evaluateFeedsBytes(
      task.bytes,
      instruments,
      task.memoryBytes,
      task.piece,
      task.withTrades === true,
    );
    return { answer: { id: task.id, kind: 'feeds', evaluation }, transfer: [] };
  }
  if (task.kind === 'trials') {
    const bars = domain.barsOfFlat(task.bars);
    const on: TrialsOn = task.instruments
      ? {
          instruments: task.instruments.map((instrument) => ({
            ...instrument,
            bars: domain.barsOfFlat(instrument.bars),
          })),
          memoryBytes: task.memoryBytes,
          bars,
        }
      : { input: { ...(task.input as Omit<EvaluationInput, 'bars'>), bars } };
    const evaluations = evaluateTrialsBytes(task.lines, on, task.objective, task.withDetail);
    // each trial's returns go back as their own buffer, not copied
    const transfer = evaluations.flatMap((e) => (e.ok ? [e.returns.buffer as ArrayBuffer] : []));
    return { answer: { id: task.id, kind: 'trials', evaluations }, transfer };
  }
  if (task.kind === 'summary') {
    const trials = task.input.trials.map((t) => ({ ...t, returns: Array.from(t.returns) }));
    const summary = domain.optimizationSummary({ ...task.input, trials });
    return { answer: { id: task.id, kind: 'summary', summary }, transfer: [] };
  }
  if (task.kind === 'csv') {
    const parsed = domain.parseOhlcvCsv(task.text);
    if (!parsed.ok)
      return { answer: { id: task.id, kind: 'csv', ok: false, error: parsed.error }, transfer: [] };
    const bars = new Float64Array(parsed.bars.length * 6);
    parsed.bars.forEach((bar, i) => {
      bars.set([bar.time, bar.open, bar.high, bar.low, bar.close, bar.volume], i * 6);
    });
    return { answer: { id: task.id, kind: 'csv', ok: true, bars }, transfer: [bars.buffer] };
  }
  const text = decoder.decode(task.bytes);
  if (POISON.test(text))
    return { answer: { id: task.id, kind: 'body', outcome: 'main-thread' }, transfer: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { answer: { id: task.id, kind: 'body', outcome: 'main-thread' }, transfer: [] };
  }
  const result = schemaOf(task.schema).safeParse(raw);
  if (!result.success) {
    return { answer: { id: task.id, kind: 'body', outcome: 'invalid', value: raw }, transfer: [] };
  }
  const { prepared, transfer } = BARS_BODIES.has(task.schema)
    ? prepareHistorical(result.data)
    : { prepared: [], transfer: [] };
  return {
    answer: {
      id: task.id,
      kind: 'body',
      outcome: 'valid',
      value: result.data,
      historical: prepared,
    },
    transfer,
  };
}

parentPort?.on('message', (task: BodyTask) => {
  try {
    const { answer: reply, transfer } = answer(task);
    parentPort?.postMessage(reply, transfer);
  } catch (error) {
    parentPort?.postMessage({
      id: task.id,
      kind: 'failed',
      message: error instanceof Error ? error.message : String(error),
    } satisfies BodyAnswer);
  }
});
