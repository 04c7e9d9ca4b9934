import type { Bar, Feed, ParamValues, SummaryInput, SummaryTrial, TrialsSummary } from '@ct/domain';
import type { JobRow, OptimizationRow } from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';
import type { SandboxPool } from '../../backtest/sandbox/pool.ts';
import type { TrialEvaluation } from '../../backtest/evaluate.ts';
import type { BacktestService } from '../../backtest/service.ts';
import type { OptimizationSettings } from '../settings.ts';
import type { WarmSessions } from './sessions.ts';

/* What every step of an optimisation's trials works with. */

/** The backtests of an optimisation: its own bars (`main`), a fold's in-sample or out-of-sample bars. */
export type Stage = 'main' | `is:${number}` | `oos:${number}`;

/** The fold a walk-forward stage (`is:2`, `oos:2`) belongs to. */
export const foldOf = (stage: string) => Number(stage.split(':')[1]);

export type OptimizationDeps = {
  db: Db;
  backtest: BacktestService;
  /** The sandbox: warm interpreters per optimisation and stage (trials reuse them). */
  pool: SandboxPool;
  now: () => number;
  settings: OptimizationSettings;
  /** Wakes this node's trial worker (trials were added). */
  notify: () => void;
  /** After a trial is kept (committed): tells the user when the optimisation has ended. */
  onTrialKept?: (optimizationId: string) => Promise<void>;
  /** The summary computed off the event loop (a body worker); without it, on the loop. */
  summarize?: (input: WorkerSummaryInput) => Promise<TrialsSummary>;
  /** Where each batch's time went (debug). */
  log?: { debug: (details: Record<string, unknown>, message: string) => void };
};

/** The summary's input as a body worker takes it: each trial's returns as float64s. */
export type WorkerSummaryInput = Omit<SummaryInput, 'trials'> & {
  trials: (Omit<SummaryTrial, 'returns'> & { returns: Float64Array })[];
};

/** A bar as an optimisation's row keeps it: time, open, high, low, close, volume. */
export type StoredBar = [number, number, number, number, number, number];
/** A feed besides the optimisation's own symbol and period, as its request keeps it. */
export type StoredFeed = { symbol_id: string; period: Feed['period']; bars: StoredBar[] };
/** `feeds`: the feeds besides the optimisation's own symbol and period (request.feeds). */
export type Loaded = { bars: Bar[]; code: string; row: OptimizationRow; feeds: Feed[] };

/** `params` in the payload spares the worker reading the trial's row (older jobs lack it). */
export type TrialPayload = {
  optimization: string;
  stage: Stage;
  index: number;
  params?: ParamValues;
};

/** What a trial ended with: what to keep of it (its evaluation's figures), or why it failed. */
export type Outcome = Extract<TrialEvaluation, { ok: true }> | { ok: false; error: string };

/** A claimed trial to run: its job and the values it runs with. */
export type Runnable = { job: JobRow; payload: TrialPayload; params: ParamValues };

/** A trial that ran, with its job, to keep. */
export type Kept = { job: JobRow; payload: TrialPayload; outcome: Outcome };

/** Where a batch's time went (ms), logged at debug level. */
export type BatchTiming = {
  /** Loading the optimisation and its trials' rows, marking it started. */
  read: number;
  /** Starting interpreters (code and rows sent). */
  open: number;
  /** The sandbox messages: main() and the round trips. */
  sandbox: number;
  /** Inside main(), as the harness timed it. */
  main: number;
  /** From a piece's answer to its checked figures (a body worker; overlaps the next piece). */
  evaluate: number;
  /** The transaction keeping the batch (with the summary when it was the last). */
  keep: number;
  summary: number;
};

export function newTiming(): BatchTiming {
  return { read: 0, open: 0, sandbox: 0, main: 0, evaluate: 0, keep: 0, summary: 0 };
}

/** What the runner holds across batches, in this process. */
export type RunnerState = {
  /** Optimisations whose code and bars this process holds (trials of one read them once). */
  loaded: Map<string, Loaded>;
  /** Milliseconds in main() per trial of an optimisation, measured so far (sizes its claims). */
  trialMs: Map<string, number>;
  /** Warm interpreters not running a trial. */
  sessions: WarmSessions;
};
