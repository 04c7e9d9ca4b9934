import { buildStrategyPrompt } from '@ct/domain';
import type { AiTaskRow } from '../../db/schema.ts';
import type { JobContext } from '../jobs/worker.ts';
import { claimTask, giveUp } from './task-steps/claim.ts';
import { loadData } from './task-steps/data.ts';
import {
  TaskStopped,
  type Prompt,
  type TaskData,
  type TaskRun,
  type TaskRunnerDeps,
} from './task-steps/deps.ts';
import { askAgain, fix, regenerate } from './task-steps/fix.ts';
import { judge } from './task-steps/judge.ts';
import { openChat, type TaskChat } from './task-steps/model.ts';
import { failedValues, say } from './task-steps/record.ts';
import { validate } from './task-steps/validate.ts';
import { write } from './task-steps/write.ts';
import { countMessages, updateHeldTask } from './tasks-store.ts';

export { TaskStopped, taskKeyAssociatedData, type TaskRunnerDeps } from './task-steps/deps.ts';

/*
 * One AI strategy task, start to end, on a claimed job of the `ai-task` queue (modules/jobs
 * claims, leases and gives it up): every step is a conversation message; each attempt asks
 * the model, extracts the code, validates and backtests it on the in-sample bars and feeds
 * errors back until the bound, then judges the final code on the whole period, out of
 * sample and for look-ahead. Untrusted code runs only in the sandbox. The steps live one a
 * file in `task-steps/`: the claim (`claim.ts`), the model and its key (`model.ts`), the bars
 * (`data.ts`), the code written (`write.ts`), run in the sandbox (`sandbox.ts`), validated
 * (`validate.ts`), fixed (`fix.ts`) and judged (`judge.ts`), every write under the lease
 * (`record.ts`); this file chains them.
 */

/** The whole task: provider, data, then attempts until one is judged or the bound is hit. */
async function execute(run: TaskRun): Promise<void> {
  const resumed = (await countMessages(run.deps.db, run.task.id)) > 0;
  if (!resumed) await say(run, 'user', 'initial_prompt', run.task.prompt);
  const chat = await openChat(run);
  if (!chat) return;
  const data = await loadData(run);
  if (!data) return;
  let prompt: Prompt | null = {
    step: 'generate_prompt',
    text: run.generatePrompt,
    history: [],
    extra: resumed ? { resumed: true } : null,
  };
  while (prompt) prompt = await attempt(run, chat, data, prompt);
}

/**
 * One attempt: the prompt, the model's answer, its code validated and judged. The next
 * prompt when the attempt failed and another is allowed; null when the task ended.
 */
async function attempt(
  run: TaskRun,
  chat: TaskChat,
  data: TaskData,
  prompt: Prompt,
): Promise<Prompt | null> {
  await say(run, 'user', prompt.step, prompt.text, prompt.extra);
  const written = await write(run, chat, prompt);
  if (!written.ok) {
    return written.stage === 'model'
      ? askAgain(run, prompt, written.error)
      : regenerate(run, written.error);
  }
  const inSample = await validate(run, written.code, data);
  if (inSample === 'ended') return null;
  if (!inSample.ok) return fix(run, inSample.error, 'validation', written);
  const judged = await judge(run, written.code, data, inSample.result);
  if (!judged.ok) return fix(run, judged.error, 'full_run', written);
  return null;
}

/** Runs a claimed task start to end (tests and the job handler). */
export function createTaskRunner(deps: TaskRunnerDeps) {
  return async function runTask(task: AiTaskRow, owner: string, signal: AbortSignal) {
    await execute({
      deps,
      task,
      owner,
      signal,
      retry: task.retryCount,
      startedAt: performance.now(),
      timing: { modelMs: 0, sandboxMs: 0, sandboxRuns: 0 },
      generatePrompt: buildStrategyPrompt(task.prompt),
    });
  };
}

export type TaskRunner = ReturnType<typeof createTaskRunner>;

/**
 * The handlers of the `ai-task` queue: a claimed job's task is started (PROCESSING) and run;
 * an unexpected error ends it FAILED; a task claimed more than MAX_TASK_CLAIMS times (its
 * worker died each time) ends FAILED without running.
 */
export function createTaskJobHandlers(
  deps: TaskRunnerDeps & {
    error: (details: Record<string, unknown>, message: string) => void;
    /** After a task ended (its last state committed): tells the user how (notifications). */
    onEnded?: (taskId: number) => Promise<void>;
  },
): { run: (context: JobContext) => Promise<void>; giveUp: (context: JobContext) => Promise<void> } {
  const runTask = createTaskRunner(deps);
  const ended = (taskId: number) =>
    deps
      .onEnded?.(taskId)
      .catch((error: unknown) =>
        deps.error({ err: error, task: taskId }, 'AI task end notification failed'),
      );

  return {
    async run(context) {
      const task = await claimTask(deps, context);
      if (!task) return;
      try {
        await runTask(task, context.owner, context.signal);
      } catch (error) {
        if (error instanceof TaskStopped || context.signal.aborted) return;
        deps.error({ err: error, task: task.id }, 'AI task failed unexpectedly');
        const message = 'The task stopped on an internal error; see the server log';
        await updateHeldTask(
          deps.db,
          task.id,
          context.owner,
          failedValues({ deps, task }, message),
        ).catch(() => undefined);
      }
      await ended(task.id);
    },
    async giveUp(context) {
      const task = await claimTask(deps, context);
      if (!task) return;
      await giveUp(deps, task, context.owner);
      await ended(task.id);
    },
  };
}
