import { finishJob } from '../../jobs/store.ts';
import type { JobContext } from '../../jobs/worker.ts';
import { startTask, updateHeldTask, type HeldTask } from '../tasks-store.ts';
import type { TaskRunnerDeps } from './deps.ts';
import { failedValues } from './record.ts';

/*
 * The claim step: a job of the `ai-task` queue claimed by this worker (modules/jobs leases it,
 * renews the lease and takes it over after a crash) starts its task, PROCESSING; a job whose
 * task was deleted meanwhile ends cancelled. A task claimed more than MAX_TASK_CLAIMS times
 * (its worker died each time) ends FAILED without running (`giveUp`).
 */

/** The started task of a claimed job; null when there is nothing to run. */
export async function claimTask(
  deps: Pick<TaskRunnerDeps, 'db' | 'now'>,
  { job, owner }: JobContext,
): Promise<HeldTask | null> {
  const task = await startTask(deps.db, job, owner, deps.now());
  // the task is gone (deleted with its job meanwhile): nothing to run
  if (!task) await finishJob(deps.db, job.id, owner, 'cancelled', deps.now());
  return task;
}

/** Ends a task whose workers kept dying while it ran: FAILED, without running it again. */
export async function giveUp(
  deps: Pick<TaskRunnerDeps, 'db' | 'now'>,
  task: HeldTask,
  owner: string,
): Promise<void> {
  await updateHeldTask(
    deps.db,
    task.id,
    owner,
    failedValues(
      { deps, task },
      `The task was interrupted ${task.claims - 1} times (its worker stopped while it ran); giving up`,
    ),
  );
}
