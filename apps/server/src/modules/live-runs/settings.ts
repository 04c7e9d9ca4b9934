import { z } from 'zod';

/** The bounds of live runs (config.ts LIVE_RUN_*; docs/architecture.md, "Live runs"). */
export type LiveRunSettings = {
  /** Runs of one user running at once (LIVE_RUN_MAX_PER_USER). */
  maxPerUser: number;
  /** Bars main(data_array) sees at each bar close: the newest closed ones (LIVE_RUN_WINDOW_BARS). */
  windowBars: number;
  /** Failures in a row after which a run stops as failed (LIVE_RUN_MAX_FAILURES). */
  maxFailures: number;
  /** Evaluations kept per run, the newest (LIVE_RUN_KEEP_EVALUATIONS). */
  keepEvaluations: number;
  /** A runner's hold on its runs; another runner takes a run over when it runs out. */
  leaseMs: number;
  /** How often a runner renews its leases, claims runs and looks for bar closes. */
  pollMs: number;
  /** Strategy runs of one runner at once (each also takes a sandbox slot). */
  concurrency: number;
  /** Runs one runner holds at most. */
  maxRunsPerRunner: number;
  /** Bars a comparison backtests at most (the stretch and the window before it). */
  maxComparisonBars: number;
};

export const DEFAULT_LIVE_RUN_SETTINGS: LiveRunSettings = {
  maxPerUser: 5,
  windowBars: 500,
  maxFailures: 5,
  keepEvaluations: 1000,
  leaseMs: 30_000,
  pollMs: 1000,
  concurrency: 2,
  maxRunsPerRunner: 1000,
  maxComparisonBars: 200_000,
};

/** LIVE_RUN_*: the environment this module reads (config.ts composes it with the others). */
export const liveRunEnv = z.object({
  LIVE_RUN_MAX_PER_USER: z.coerce.number().int().min(1).max(1000).default(5),
  LIVE_RUN_WINDOW_BARS: z.coerce.number().int().min(10).max(5000).default(500),
  LIVE_RUN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  LIVE_RUN_KEEP_EVALUATIONS: z.coerce.number().int().min(10).max(1_000_000).default(1000),
  LIVE_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
});

/** The settings the environment gives; the rest keep their defaults. */
export function liveRunSettingsFromEnv(e: z.output<typeof liveRunEnv>): Partial<LiveRunSettings> {
  return {
    maxPerUser: e.LIVE_RUN_MAX_PER_USER,
    windowBars: e.LIVE_RUN_WINDOW_BARS,
    maxFailures: e.LIVE_RUN_MAX_FAILURES,
    keepEvaluations: e.LIVE_RUN_KEEP_EVALUATIONS,
    concurrency: e.LIVE_RUN_CONCURRENCY,
  };
}
