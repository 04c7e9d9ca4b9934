import {
  optimizationSummary,
  type OptimizationStatus,
  type TrialPerformance,
  type TrialsSummary,
  type WalkForwardSettings,
} from '@ct/domain';
import type { SqlRow } from '../../../db/raw.ts';
import type { Db } from '../../../db/types.ts';
import { completeOptimization, trialCounts, trialsForSummary } from '../store.ts';
import type { BatchTiming, OptimizationDeps, RunnerState, WorkerSummaryInput } from './deps.ts';
import { loadOptimization } from './load.ts';

/*
 * The finishing step: when every trial of an optimisation has ended, its summary (the best
 * trial, walk-forward figures, the overfitting checks) is computed and the optimisation
 * completes with it, inside the transaction that kept its last trials.
 */

/** Returns as the trials keep them: float64 bytes (`returns_f64`), or JSON of older rows. */
function returnsOf(row: SqlRow | undefined): Float64Array {
  const bytes = row?.returns_f64 as Uint8Array | null | undefined;
  if (bytes) {
    const copy = new Uint8Array(bytes); // aligned, its own buffer
    return new Float64Array(copy.buffer, 0, Math.floor(copy.length / 8));
  }
  return Float64Array.from((row?.returns ?? []) as number[]);
}

/** Completes the optimisation (`status`, locked in `tx`) with its summary once all its trials ended. */
export async function finishIfDone(
  tx: Db,
  deps: Pick<OptimizationDeps, 'db' | 'now' | 'summarize'>,
  state: Pick<RunnerState, 'loaded'>,
  id: string,
  status: OptimizationStatus,
  walkForward: WalkForwardSettings | null,
  timing?: BatchTiming,
): Promise<void> {
  const counts = await trialCounts(tx, id);
  if (!counts || counts.done < counts.total) return;
  const summarizing = performance.now();
  const summary = await summarize(tx, deps, state, id, walkForward);
  if (timing) timing.summary = performance.now() - summarizing;
  await completeOptimization(tx, id, status, summary, deps.now());
}

/**
 * The summary of an optimisation whose trials all ended: its trials read in `tx`, the
 * figures computed by the domain's optimizationSummary in a body worker (PBO over all main
 * trials' returns is the heavy part), on the event loop without one.
 */
async function summarize(
  tx: Db,
  deps: Pick<OptimizationDeps, 'db' | 'summarize'>,
  state: Pick<RunnerState, 'loaded'>,
  id: string,
  walkForward: WalkForwardSettings | null,
): Promise<TrialsSummary> {
  const trials = await trialsForSummary(tx, id);
  let barTimes: number[] = [];
  if (walkForward) {
    const loaded = await loadOptimization(deps.db, state, id);
    barTimes = (loaded?.bars ?? []).map((bar) => bar.time);
  }
  const input: WorkerSummaryInput = {
    walkForward,
    barTimes,
    trials: trials.map((t) => ({
      stage: String(t.stage),
      index: Number(t.index),
      params: t.params,
      status: String(t.status),
      performance: (t.performance ?? null) as TrialPerformance | null,
      score: t.score === null || t.score === undefined ? null : Number(t.score),
      returns: returnsOf(t),
      detail: t.detail ?? null,
      error: t.error === null || t.error === undefined ? null : String(t.error),
    })),
  };
  if (deps.summarize) return deps.summarize(input);
  return optimizationSummary({
    ...input,
    trials: input.trials.map((t) => ({ ...t, returns: Array.from(t.returns) })),
  });
}
