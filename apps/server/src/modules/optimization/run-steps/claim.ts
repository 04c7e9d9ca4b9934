import {
  OPTIMIZATION_CREATED,
  TRIAL_CREATED,
  optimizationTransition,
  type OptimizationStatus,
  type ParamValues,
} from '@ct/domain';
import { finishJobs } from '../../jobs/store.ts';
import type { BatchContext } from '../../jobs/worker.ts';
import { markStarted, trialsByKey } from '../store.ts';
import type { Loaded, OptimizationDeps, RunnerState, Runnable, TrialPayload } from './deps.ts';
import { loadOptimization } from './load.ts';

/*
 * The claim step: the trials of one optimisation that the job queue gave this worker
 * together (modules/jobs leases them, and another worker takes them over after a crash)
 * become the trials to run; the jobs of trials deleted, cancelled or already kept are ended
 * without running, and a waiting optimisation is marked started.
 */

/** The claimed trials to run and their optimisation; null when none is left to run. */
export async function claimTrials(
  { db, now }: Pick<OptimizationDeps, 'db' | 'now'>,
  state: RunnerState,
  { jobs, owner, signal }: Pick<BatchContext, 'jobs' | 'owner' | 'signal'>,
  optimization: string,
): Promise<{ loaded: Loaded; runnable: Runnable[] } | null> {
  const loaded = await loadOptimization(db, state, optimization);
  const wanted = jobs.map((job) => ({ job, payload: job.payload as TrialPayload }));
  const runnable: Runnable[] = [];
  const gone: number[] = [];
  if (wanted.every(({ payload }) => payload.params !== undefined)) {
    // the params came with the jobs; a trial cancelled or kept meanwhile is not kept twice
    // (keeping writes only queued trials of jobs still held)
    for (const { job, payload } of wanted) {
      if (!loaded || signal.aborted) gone.push(job.id);
      else runnable.push({ job, payload, params: payload.params as ParamValues });
    }
  } else {
    // jobs queued before their payload carried the params
    const rows = loaded
      ? await trialsByKey(
          db,
          optimization,
          wanted.map(({ payload }) => ({ stage: payload.stage, index: payload.index })),
        )
      : [];
    const byKey = new Map(rows.map((row) => [`${String(row.stage)}#${Number(row.index)}`, row]));
    for (const { job, payload } of wanted) {
      const trial = byKey.get(`${payload.stage}#${payload.index}`);
      if (!loaded || !trial || trial.status !== TRIAL_CREATED || signal.aborted) gone.push(job.id);
      else runnable.push({ job, payload, params: trial.params as ParamValues });
    }
  }
  if (gone.length > 0) {
    // deleted, cancelled or already kept: nothing to run
    if (runnable.length === 0) state.sessions.closeOf(optimization);
    await finishJobs(db, gone, owner, 'done', now());
  }
  if (!loaded || runnable.length === 0) return null;
  if (loaded.row.status === OPTIMIZATION_CREATED) {
    await markStarted(db, optimization, now());
    loaded.row = {
      ...loaded.row,
      status: optimizationTransition(loaded.row.status as OptimizationStatus, 'Started'),
      startedMs: loaded.row.startedMs ?? now(),
    };
  }
  return { loaded, runnable };
}
