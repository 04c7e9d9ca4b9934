import { parsePeriod, type Bar, type Feed } from '@ct/domain';
import { AppError } from '../../../http/errors.ts';
import type { CheckResult } from '../../backtest/service.ts';
import { feedsAround } from '../../backtest/feeds.ts';
import { TaskStopped, type TaskRun } from './deps.ts';

/*
 * The sandbox step: the model's code run on bars (with the task's extra feeds) in the
 * sandbox, the only place untrusted code runs; a busy sandbox is waited for, within a bound.
 */

/** How long to wait for a free sandbox slot before a check counts as failed. */
const BUSY_WAIT_MS = 500;
const BUSY_TRIES = 120;

/** The task's feeds around `bars` (its chart's first); a string says why they cannot load. */
async function feedsOf(
  run: TaskRun,
  bars: readonly Bar[],
  periodText: string,
): Promise<Feed[] | string> {
  const { deps, task } = run;
  const period = parsePeriod(periodText);
  const extra = task.feeds ?? [];
  if (extra.length === 0 || !period) return [];
  try {
    return await feedsAround(
      deps.backtest,
      task.userId,
      { code: task.symbolId, period, bars },
      extra,
    );
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

/** Runs code on bars in the sandbox; waits for a slot while the sandbox is busy. */
export async function check(
  run: TaskRun,
  code: string,
  bars: readonly Bar[],
  period: string,
): Promise<CheckResult> {
  const { deps, task, signal, timing } = run;
  for (let tries = 0; ; tries++) {
    if (signal.aborted) throw new TaskStopped();
    const started = performance.now();
    const feeds = await feedsOf(run, bars, period);
    if (typeof feeds === 'string') {
      return { ok: false, error: feeds, kind: 'strategy', logs: [], elapsedMs: 0 };
    }
    const result = await deps.backtest.check({
      code,
      filename: `ai_task_${task.id}.py`,
      bars,
      symbol: task.symbolId,
      period,
      ...(feeds.length > 1 ? { feeds } : {}),
    });
    timing.sandboxMs += performance.now() - started;
    timing.sandboxRuns += 1;
    if (signal.aborted) throw new TaskStopped();
    if (result.ok || result.kind !== 'busy' || tries >= BUSY_TRIES) return result;
    await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
  }
}
