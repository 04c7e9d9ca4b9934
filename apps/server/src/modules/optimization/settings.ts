import { z } from 'zod';

/** The bounds of parameter optimisation (config.ts OPTIMIZATION_*; docs/architecture.md). */
export type OptimizationSettings = {
  /** Trials one optimisation may run (a grid over it is refused naming its count). */
  maxTrials: number;
  /** Trials of one user running at once, across all workers. */
  maxActivePerUser: number;
  /** Trials of one optimisation running at once, across all workers. */
  maxActivePerOptimization: number;
  /** Trials one worker process runs at once (each also takes a sandbox slot). */
  concurrency: number;
  /** Optimisations of one user not yet finished; more are refused. */
  maxOpenPerUser: number;
  /** A worker's hold on a trial; another worker runs it again when it runs out. */
  leaseMs: number;
  /**
   * How often an idle worker looks for trials (a trial added on its own node wakes it; one
   * added on another node waits for this): a worker process joins an optimisation this late.
   */
  pollMs: number;
  /** Claims of one trial before it is kept as failed (its workers kept dying). */
  maxAttempts: number;
  /**
   * Trials reuse a warm interpreter of their optimisation (code loaded and bars sent once);
   * false: a fresh sandbox process per trial, as a backtest.
   */
  warm: boolean;
};

export const DEFAULT_OPTIMIZATION_SETTINGS: OptimizationSettings = {
  maxTrials: 1000,
  maxActivePerUser: 2,
  maxActivePerOptimization: 2,
  concurrency: 2,
  maxOpenPerUser: 3,
  leaseMs: 30_000,
  pollMs: 250,
  maxAttempts: 3,
  warm: true,
};

/** The queue of the trials (modules/jobs). */
export const TRIAL_QUEUE = 'optimization-trial';

/** OPTIMIZATION_*: the environment this module reads (config.ts composes it with the others). */
export const optimizationEnv = z.object({
  OPTIMIZATION_MAX_TRIALS: z.coerce.number().int().min(1).max(100_000).default(1000),
  OPTIMIZATION_MAX_ACTIVE_PER_USER: z.coerce.number().int().min(1).max(1000).default(2),
  OPTIMIZATION_MAX_ACTIVE_PER_RUN: z.coerce.number().int().min(1).max(1000).default(2),
  OPTIMIZATION_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(2),
  OPTIMIZATION_MAX_OPEN_PER_USER: z.coerce.number().int().min(1).max(1000).default(3),
  OPTIMIZATION_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
});

/** The settings the environment gives; the rest keep their defaults. */
export function optimizationSettingsFromEnv(
  e: z.output<typeof optimizationEnv>,
): Partial<OptimizationSettings> {
  return {
    maxTrials: e.OPTIMIZATION_MAX_TRIALS,
    maxActivePerUser: e.OPTIMIZATION_MAX_ACTIVE_PER_USER,
    maxActivePerOptimization: e.OPTIMIZATION_MAX_ACTIVE_PER_RUN,
    concurrency: e.OPTIMIZATION_CONCURRENCY,
    maxOpenPerUser: e.OPTIMIZATION_MAX_OPEN_PER_USER,
    leaseMs: e.OPTIMIZATION_LEASE_MS,
  };
}
