import {
  TRIAL_CREATED,
  trialTransition,
  type OptimizationStatus,
  type WalkForwardSettings,
} from '@ct/domain';
import type { Db } from '../../../db/types.ts';
import { finishJobs } from '../../jobs/store.ts';
import { lockOptimization, storeTrials, type TrialRecord } from '../store.ts';
import type { BatchTiming, Kept, OptimizationDeps, RunnerState } from './deps.ts';
import { finishIfDone } from './finish.ts';
import { addOutOfSampleTrials } from './fold.ts';

/*
 * The record step: the trials of a batch kept in one transaction. Their jobs end (only those
 * still held by this worker: a trial run twice is kept once), their results are written in
 * one statement and counted, and the optimisation advances under its row lock: a fold whose
 * in-sample trials all ended gets its out-of-sample trial, the last trial the summary.
 */

/**
 * Keeps trials of one optimisation in one transaction: ends their jobs (only those still
 * held by `owner`: a trial run twice is kept once), writes their results in one statement
 * (returns as float64 bytes, cut from one parameter), counts them, and advances the
 * optimisation (out-of-sample trials, the summary at the end).
 */
export async function record(
  deps: OptimizationDeps,
  state: Pick<RunnerState, 'loaded'>,
  optimization: string,
  owner: string,
  items: readonly Kept[],
  timing?: BatchTiming,
): Promise<void> {
  if (items.length === 0) return;
  const { db, now } = deps;
  await db.transaction(async (tx) => {
    const held = await finishJobs(
      tx,
      items.map((item) => item.job.id),
      owner,
      'done',
      now(),
    );
    const mine = items.filter((item) => held.has(item.job.id));
    if (mine.length === 0) return;
    const blobs: Buffer[] = [];
    let offset = 0;
    const records = mine.map(({ payload, outcome }): TrialRecord => {
      const base = { stage: payload.stage, index: payload.index };
      if (!outcome.ok) {
        return {
          ...base,
          status: trialTransition(TRIAL_CREATED, 'Failed'),
          error: outcome.error,
        };
      }
      const bytes = Buffer.from(
        outcome.returns.buffer,
        outcome.returns.byteOffset,
        outcome.returns.byteLength,
      );
      blobs.push(bytes);
      const at = offset;
      offset += bytes.length;
      return {
        ...base,
        status: trialTransition(TRIAL_CREATED, 'Done'),
        performance: outcome.performance,
        score: outcome.score,
        detail: outcome.detail,
        at,
        length: bytes.length,
      };
    });
    const stored = await storeTrials(tx, optimization, records, Buffer.concat(blobs), now());
    if (stored === 0) return;
    await advance(tx, deps, state, optimization, timing);
  });
  await deps.onTrialKept?.(optimization);
}

/** Adds out-of-sample trials of folds whose in-sample trials all ended; completes at the end. */
async function advance(
  tx: Db,
  deps: OptimizationDeps,
  state: Pick<RunnerState, 'loaded'>,
  id: string,
  timing?: BatchTiming,
): Promise<void> {
  const row = await lockOptimization(tx, id);
  if (!row || row.status !== 'PROCESSING') return;
  const walkForward = (row.walk_forward ?? null) as WalkForwardSettings | null;
  if (walkForward) await addOutOfSampleTrials(tx, deps, id, Number(row.user_id), walkForward);
  await finishIfDone(tx, deps, state, id, row.status as OptimizationStatus, walkForward, timing);
}
