import {
  toEpochSec,
  aiTaskTransition,
  type AiBacktestResult,
  type AiStepType,
  type AiTaskStatus,
} from '@ct/domain';
import type { AiTaskRow } from '../../../db/schema.ts';
import { appendMessage, updateHeldTask } from '../tasks-store.ts';
import { TaskStopped, type TaskRun, type TaskRunnerDeps } from './deps.ts';

/*
 * The record step: what every other step writes. A conversation message is appended, and the
 * task's fields are changed, only while this worker holds the task's job (else the run stops:
 * TaskStopped); the task ends COMPLETED or FAILED as its lifecycle table moves it.
 */

type HeldValues = Parameters<typeof updateHeldTask>[3];

/** Appends a conversation message while the task is this worker's. */
export async function say(
  run: TaskRun,
  role: 'user' | 'ai',
  stepType: AiStepType,
  content: string,
  extra: Record<string, unknown> | null = null,
): Promise<void> {
  if (run.signal.aborted) throw new TaskStopped();
  const row = await appendMessage(run.deps.db, run.owner, {
    taskId: run.task.id,
    role,
    content,
    stepType,
    retryNumber: run.retry,
    extraData: extra,
    createdAt: toEpochSec(run.deps.now()),
  });
  if (!row) throw new TaskStopped();
}

/** Changes the held task (the end finishes its job); stops when it is no longer held. */
export async function update(run: TaskRun, values: HeldValues): Promise<void> {
  if (run.signal.aborted) throw new TaskStopped();
  if (!(await updateHeldTask(run.deps.db, run.task.id, run.owner, values))) {
    throw new TaskStopped();
  }
}

/** The fields of a task that ends FAILED with `message`. */
export function failedValues(
  { deps, task }: { deps: Pick<TaskRunnerDeps, 'now'>; task: AiTaskRow },
  message: string,
): HeldValues {
  const at = toEpochSec(deps.now());
  return {
    status: aiTaskTransition(task.status as AiTaskStatus, 'Failed'),
    errorMessage: message,
    finishedAt: at,
    updatedAt: at,
  };
}

/** Ends the task FAILED with `message`. */
export function fail(run: TaskRun, message: string): Promise<void> {
  return update(run, failedValues(run, message));
}

/** Ends the task COMPLETED with its code and judged result. */
export function complete(
  run: TaskRun,
  code: string,
  result: AiBacktestResult & { timing: Record<string, number> },
): Promise<void> {
  const at = toEpochSec(run.deps.now());
  return update(run, {
    status: aiTaskTransition(run.task.status as AiTaskStatus, 'Completed'),
    code,
    backtestResult: result,
    errorMessage: null,
    finishedAt: at,
    updatedAt: at,
  });
}
