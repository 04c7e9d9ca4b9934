import type { WalkForwardSettings } from '@ct/domain';
import type { Db } from '../../../db/types.ts';
import {
  bestOfStage,
  insertFailedTrial,
  insertQueuedTrial,
  stageCounts,
  trialJob,
} from '../store.ts';
import type { OptimizationDeps, Stage } from './deps.ts';

/*
 * The walk-forward step: once every in-sample trial of a fold has ended, the fold's best
 * values get its one out-of-sample trial (queued with its job), or a failed one when no
 * in-sample trial ran without error. Runs inside the keeping transaction, under the
 * optimisation's row lock, so a fold gets its out-of-sample trial once.
 */

export async function addOutOfSampleTrials(
  tx: Db,
  { now, settings }: Pick<OptimizationDeps, 'now' | 'settings'>,
  id: string,
  userId: number,
  walkForward: WalkForwardSettings,
): Promise<void> {
  const byStage = await stageCounts(tx, id);
  for (let fold = 0; fold < walkForward.folds; fold++) {
    const inSample = byStage.get(`is:${fold}`);
    if (!inSample || inSample.pending > 0 || byStage.has(`oos:${fold}`)) continue;
    const best = await bestOfStage(tx, id, `is:${fold}`);
    const stage: Stage = `oos:${fold}`;
    if (!best) {
      await insertFailedTrial(
        tx,
        id,
        stage,
        'No in-sample trial of this fold ran without error',
        now(),
      );
      continue;
    }
    await insertQueuedTrial(
      tx,
      id,
      { stage, index: 0, params: best },
      trialJob(settings.maxAttempts, userId, id, stage, 0, best),
      now(),
    );
  }
}
