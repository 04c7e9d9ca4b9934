import { inSampleEnd } from '@ct/domain';
import type { TaskData, TaskRun } from './deps.ts';
import { fail, say } from './record.ts';
import { span } from './report.ts';

/*
 * The data step: the bars of the task's chart, split into the in-sample part the fix loop may
 * see and the rest kept for judging; too few bars (or none) end the task FAILED.
 */

/** Fewer bars than this cannot split into two judged parts. */
export const MIN_TASK_BARS = 20;

/** The chart's bars and the in-sample part; null (and the task FAILED) when too few. */
export async function loadData(run: TaskRun): Promise<TaskData | null> {
  const { task, deps } = run;
  const loaded = await deps.backtest.loadBars(
    task.userId,
    task.symbolId,
    task.period,
    deps.config.bars,
  );
  if (!loaded.ok || loaded.bars.length < MIN_TASK_BARS) {
    const reason = loaded.ok
      ? `Only ${loaded.bars.length} bars of ${task.symbolId} ${task.period}; a task needs at least ${MIN_TASK_BARS}`
      : loaded.reason;
    await say(run, 'ai', 'error', reason, { stage: 'data' });
    await fail(run, reason);
    return null;
  }
  const split = inSampleEnd(loaded.bars.length);
  const inSample = loaded.bars.slice(0, split);
  return { bars: loaded.bars, period: loaded.period, split, inSample, inSpan: span(inSample) };
}
