import {
  toEpochSec,
  IN_SAMPLE_FRACTION,
  aiTaskTransition,
  buildFixPrompt,
  buildRegeneratePrompt,
  buildStrategyPrompt,
  extractPythonCode,
  inSampleEnd,
  parsePeriod,
  type AiBacktestResult,
  type AiSegmentResult,
  type AiStepType,
  type AiTaskStatus,
  type Bar,
  type Feed,
} from '@ct/domain';
import type { AiTaskRow } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { feedsAround } from '../backtest/feeds.ts';
import { finishJob } from '../jobs/store.ts';
import type { JobContext } from '../jobs/worker.ts';
import type { PreparedChat } from './chat-service.ts';
import { TaskStopped, type TaskRunnerDeps } from './task-steps/deps.ts';
import { lookaheadOf, outOfSampleOf } from './task-steps/judge.ts';
import {
  SYSTEM,
  callModel,
  prepareChat,
  type ModelAnswer,
  type TaskChat,
} from './task-steps/model.ts';
import { span, summary } from './task-steps/report.ts';
import {
  appendMessage,
  countMessages,
  startTask,
  updateHeldTask,
  type HeldTask,
} from './tasks-store.ts';

export { TaskStopped, taskKeyAssociatedData, type TaskRunnerDeps } from './task-steps/deps.ts';

/*
 * One AI strategy task, start to end, on a claimed job of the `ai-task` queue (modules/jobs
 * claims, leases and gives it up): every step is a conversation message; each attempt asks
 * the model, extracts the code, validates and backtests it on the in-sample bars and feeds
 * errors back until the bound, then judges the final code on the whole period, out of
 * sample and for look-ahead. Untrusted code runs only in the sandbox (`check`). The steps
 * live one a file in `task-steps/`: the model (`model.ts`), the judgement (`judge.ts`) and
 * how figures are worded (`report.ts`); this file holds the loop that chains them.
 */

/** Fewer bars than this cannot split into two judged parts. */
export const MIN_TASK_BARS = 20;
/** How long to wait for a free sandbox slot before a check counts as failed. */
const BUSY_WAIT_MS = 500;
const BUSY_TRIES = 120;

/** The chart of a task, split into the bars the loop may see and the whole. */
type TaskData = {
  bars: Bar[];
  period: string;
  /** Bars before this index are in sample. */
  split: number;
  inSample: Bar[];
  inSpan: { from: string; to: string };
};

/** The next prompt of the loop and the conversation it continues. */
type Prompt = {
  step: 'generate_prompt' | 'regenerate_prompt' | 'fix_prompt';
  text: string;
  history: PreparedChat['messages'];
  extra: Record<string, unknown> | null;
};

type Checked = Awaited<ReturnType<TaskRunnerDeps['backtest']['check']>>;

/** One run of a claimed task by one worker: its steps share the task, lease and counters. */
class TaskRun {
  private retry: number;
  private readonly startedAt = performance.now();
  private readonly timing = { modelMs: 0, sandboxMs: 0, sandboxRuns: 0 };
  private readonly generatePrompt: string;

  constructor(
    private readonly deps: TaskRunnerDeps,
    private readonly task: AiTaskRow,
    private readonly owner: string,
    private readonly signal: AbortSignal,
  ) {
    this.retry = task.retryCount;
    this.generatePrompt = buildStrategyPrompt(task.prompt);
  }

  private seconds(): number {
    return toEpochSec(this.deps.now());
  }

  /** The whole task: provider, data, then attempts until one is judged or the bound is hit. */
  async execute(): Promise<void> {
    const resumed = (await countMessages(this.deps.db, this.task.id)) > 0;
    if (!resumed) await this.say('user', 'initial_prompt', this.task.prompt);
    const chat = await this.openChat();
    if (!chat) return;
    const data = await this.loadData();
    if (!data) return;
    let prompt: Prompt | null = {
      step: 'generate_prompt',
      text: this.generatePrompt,
      history: [],
      extra: resumed ? { resumed: true } : null,
    };
    while (prompt) prompt = await this.attempt(chat, data, prompt);
  }

  /** Provider, model and key, checked again at run time; null (and the task FAILED) if not. */
  private async openChat(): Promise<TaskChat | null> {
    const prepared = await prepareChat(this.deps, this.task);
    if (typeof prepared !== 'string') return prepared;
    await this.say('ai', 'error', prepared, { stage: 'provider' });
    await this.fail(prepared);
    return null;
  }

  /** The chart's bars and the in-sample part; null (and the task FAILED) when too few. */
  private async loadData(): Promise<TaskData | null> {
    const { task, deps } = this;
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
      await this.say('ai', 'error', reason, { stage: 'data' });
      await this.fail(reason);
      return null;
    }
    const split = inSampleEnd(loaded.bars.length);
    const inSample = loaded.bars.slice(0, split);
    return { bars: loaded.bars, period: loaded.period, split, inSample, inSpan: span(inSample) };
  }

  /**
   * One attempt: the prompt, the model's answer, its code validated and judged. The next
   * prompt when the attempt failed and another is allowed; null when the task ended.
   */
  private async attempt(chat: TaskChat, data: TaskData, prompt: Prompt): Promise<Prompt | null> {
    await this.say('user', prompt.step, prompt.text, prompt.extra);
    const answer = await this.ask(chat, prompt);
    if (!answer.ok) {
      if (!(await this.nextAttempt(answer.error))) return null;
      return { ...prompt, extra: null }; // the same prompt again
    }
    const code = extractPythonCode(answer.text);
    if (code === null) {
      const error = 'The answer has no Python code block defining main(data_array).';
      await this.say('ai', 'error', error, { stage: 'extract' });
      if (!(await this.nextAttempt(error))) return null;
      return {
        step: 'regenerate_prompt',
        text: buildRegeneratePrompt(this.task.prompt, error),
        history: [],
        extra: null,
      };
    }
    const fixWith = async (error: string, stage: string): Promise<Prompt | null> => {
      await this.say('ai', 'error', error, { stage, code });
      if (!(await this.nextAttempt(error))) return null;
      return {
        step: 'fix_prompt',
        text: buildFixPrompt(error, code),
        history: [
          { role: 'user', content: this.generatePrompt },
          { role: 'assistant', content: answer.text },
        ],
        extra: null,
      };
    };
    const inSample = await this.validate(code, data);
    if (inSample === 'ended') return null;
    if (!inSample.ok) return fixWith(inSample.error, 'validation');
    const judged = await this.judge(code, data, inSample.result);
    if (!judged.ok) return fixWith(judged.error, 'full_run');
    return null;
  }

  /** The model's answer to the prompt, kept in the conversation (what arrived of a cut one too). */
  private async ask(chat: TaskChat, prompt: Prompt): Promise<ModelAnswer> {
    const messages: PreparedChat['messages'] = [
      { role: 'system', content: SYSTEM },
      ...prompt.history,
      { role: 'user', content: prompt.text },
    ];
    const answer = await callModel(this.deps, { ...chat, messages }, this.signal, this.timing);
    if (!answer.ok) {
      if (answer.kept !== '' && answer.why !== null) {
        // what arrived stays readable in the conversation; the note below says why it ends
        await this.say('ai', 'ai_response', answer.kept, {
          model: chat.model,
          provider: chat.provider.value,
          incomplete: answer.why,
        });
      }
      await this.say('ai', 'error', answer.error, { stage: 'model' });
      return answer;
    }
    await this.say('ai', 'ai_response', answer.text, {
      model: chat.model,
      provider: chat.provider.value,
      reasoning_chars: answer.reasoningChars,
    });
    return answer;
  }

  /**
   * Validation and the in-sample backtest: the in-sample bars only. An error to feed back,
   * the in-sample result, or 'ended' (the sandbox is unavailable: the task FAILED).
   */
  private async validate(
    code: string,
    data: TaskData,
  ): Promise<{ ok: true; result: AiSegmentResult } | { ok: false; error: string } | 'ended'> {
    const { inSample, inSpan, period } = data;
    const checked = await this.check(code, inSample, period);
    if (!checked.ok && checked.kind === 'unavailable') {
      await this.say('ai', 'error', checked.error, { stage: 'sandbox' });
      await this.fail(checked.error);
      return 'ended';
    }
    if (!checked.ok || checked.trades.length === 0) {
      const error = checked.ok
        ? `The strategy made no trades on the data (${inSample.length} bars from ${inSpan.from} to ${inSpan.to}); it must trade.`
        : checked.error;
      return { ok: false, error };
    }
    await this.say(
      'ai',
      'validation',
      `The code runs in the sandbox and keeps the contract on the in-sample data (${inSample.length} bars from ${inSpan.from} to ${inSpan.to}): ${checked.trades.length} trades.`,
      { passed: true, bars: inSample.length, trades: checked.trades.length, code },
    );
    const result: AiSegmentResult = {
      ...inSpan,
      bar_count: inSample.length,
      trade_count: checked.deals.length,
      performance: checked.performance,
    };
    await this.say('ai', 'backtest', `In-sample backtest: ${summary(checked.performance)}.`, {
      segment: 'in_sample',
      ...result,
    });
    return { ok: true, result };
  }

  /**
   * The final judgement: the whole period, out of sample, look-ahead; the task COMPLETED
   * with its result, or an error to feed back.
   */
  private async judge(
    code: string,
    data: TaskData,
    inSampleResult: AiSegmentResult,
  ): Promise<{ ok: true } | { ok: false; error: string }> {
    const { bars, period, split } = data;
    const task = this.task;
    const full = await this.check(code, bars, period);
    if (!full.ok || full.trades.length === 0) {
      const error = full.ok
        ? 'The strategy made no trades on the whole data.'
        : `On the whole data (${bars.length} bars) the strategy failed: ${full.error}`;
      return { ok: false, error };
    }
    const outOfSample = outOfSampleOf(full, bars, split, task.symbolId, period);
    const lookahead = await lookaheadOf(full, bars, (cut) => this.check(code, cut, period));
    const result: AiBacktestResult & { timing: Record<string, number> } = {
      performance: full.performance,
      deals: full.deals,
      symbol: task.symbolId,
      period,
      bar_count: bars.length,
      in_sample_fraction: IN_SAMPLE_FRACTION,
      in_sample: inSampleResult,
      out_of_sample: outOfSample,
      lookahead,
      timing: {
        total_ms: Math.round(performance.now() - this.startedAt),
        model_ms: Math.round(this.timing.modelMs),
        sandbox_ms: Math.round(this.timing.sandboxMs),
        sandbox_runs: this.timing.sandboxRuns,
      },
    };
    await this.say(
      'ai',
      'backtest',
      `Whole period (${bars.length} bars): ${summary(full.performance)}. Out of sample (last ${outOfSample.bar_count} bars from ${outOfSample.from}): ${summary(outOfSample.performance)}.`,
      { segment: 'whole', out_of_sample: outOfSample, performance: full.performance },
    );
    await this.say('ai', 'validation', lookahead.detail, { check: 'lookahead', ...lookahead });
    await this.end({
      status: aiTaskTransition(this.task.status as AiTaskStatus, 'Completed'),
      code,
      backtestResult: result,
      errorMessage: null,
      finishedAt: this.seconds(),
      updatedAt: this.seconds(),
    });
    return { ok: true };
  }

  /** Appends a conversation message while the task is this worker's. */
  private async say(
    role: 'user' | 'ai',
    stepType: AiStepType,
    content: string,
    extra: Record<string, unknown> | null = null,
  ): Promise<void> {
    if (this.signal.aborted) throw new TaskStopped();
    const row = await appendMessage(this.deps.db, this.owner, {
      taskId: this.task.id,
      role,
      content,
      stepType,
      retryNumber: this.retry,
      extraData: extra,
      createdAt: this.seconds(),
    });
    if (!row) throw new TaskStopped();
  }

  /** Changes the held task (the end finishes its job); stops when it is no longer held. */
  private async end(values: Parameters<typeof updateHeldTask>[3]): Promise<void> {
    if (this.signal.aborted) throw new TaskStopped();
    if (!(await updateHeldTask(this.deps.db, this.task.id, this.owner, values))) {
      throw new TaskStopped();
    }
  }

  private async fail(message: string): Promise<void> {
    await this.end({
      status: aiTaskTransition(this.task.status as AiTaskStatus, 'Failed'),
      errorMessage: message,
      finishedAt: this.seconds(),
      updatedAt: this.seconds(),
    });
  }

  /** Counts a failed attempt; false (and the task FAILED) once the bound is passed. */
  private async nextAttempt(error: string): Promise<boolean> {
    if (this.retry + 1 > this.task.maxRetries) {
      const attempts = this.retry + 1;
      await this.fail(
        `Gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}. Last error: ${error}`,
      );
      return false;
    }
    this.retry += 1;
    await this.end({ retryCount: this.retry, updatedAt: this.seconds() });
    return true;
  }

  /** The task's feeds around `bars` (its chart's first); a string says why they cannot load. */
  private async feedsOf(bars: readonly Bar[], periodText: string): Promise<Feed[] | string> {
    const period = parsePeriod(periodText);
    const extra = this.task.feeds ?? [];
    if (extra.length === 0 || !period) return [];
    try {
      return await feedsAround(
        this.deps.backtest,
        this.task.userId,
        { code: this.task.symbolId, period, bars },
        extra,
      );
    } catch (error) {
      if (error instanceof AppError) return error.message;
      throw error;
    }
  }

  /** Runs code on bars in the sandbox; waits for a slot while the sandbox is busy. */
  private async check(code: string, bars: readonly Bar[], period: string): Promise<Checked> {
    for (let tries = 0; ; tries++) {
      if (this.signal.aborted) throw new TaskStopped();
      const started = performance.now();
      const feeds = await this.feedsOf(bars, period);
      if (typeof feeds === 'string') {
        return { ok: false, error: feeds, kind: 'strategy', logs: [], elapsedMs: 0 };
      }
      const result = await this.deps.backtest.check({
        code,
        filename: `ai_task_${this.task.id}.py`,
        bars,
        symbol: this.task.symbolId,
        period,
        ...(feeds.length > 1 ? { feeds } : {}),
      });
      this.timing.sandboxMs += performance.now() - started;
      this.timing.sandboxRuns += 1;
      if (this.signal.aborted) throw new TaskStopped();
      if (result.ok || result.kind !== 'busy' || tries >= BUSY_TRIES) return result;
      await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
    }
  }
}

/** Runs a claimed task start to end (tests and the job handler). */
export function createTaskRunner(deps: TaskRunnerDeps) {
  return async function runTask(task: AiTaskRow, owner: string, signal: AbortSignal) {
    await new TaskRun(deps, task, owner, signal).execute();
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
  const seconds = () => toEpochSec(deps.now());
  const ended = (taskId: number) =>
    deps
      .onEnded?.(taskId)
      .catch((error: unknown) =>
        deps.error({ err: error, task: taskId }, 'AI task end notification failed'),
      );

  async function started({ job, owner }: JobContext): Promise<HeldTask | null> {
    const task = await startTask(deps.db, job, owner, deps.now());
    // the task is gone (deleted with its job meanwhile): nothing to run
    if (!task) await finishJob(deps.db, job.id, owner, 'cancelled', deps.now());
    return task;
  }

  return {
    async run(context) {
      const task = await started(context);
      if (!task) return;
      try {
        await runTask(task, context.owner, context.signal);
      } catch (error) {
        if (error instanceof TaskStopped || context.signal.aborted) return;
        deps.error({ err: error, task: task.id }, 'AI task failed unexpectedly');
        const at = seconds();
        await updateHeldTask(deps.db, task.id, context.owner, {
          status: aiTaskTransition(task.status as AiTaskStatus, 'Failed'),
          errorMessage: 'The task stopped on an internal error; see the server log',
          finishedAt: at,
          updatedAt: at,
        }).catch(() => undefined);
      }
      await ended(task.id);
    },
    async giveUp(context) {
      const task = await started(context);
      if (!task) return;
      const at = seconds();
      await updateHeldTask(deps.db, task.id, context.owner, {
        status: aiTaskTransition(task.status as AiTaskStatus, 'Failed'),
        errorMessage: `The task was interrupted ${task.claims - 1} times (its worker stopped while it ran); giving up`,
        finishedAt: at,
        updatedAt: at,
      });
      await ended(task.id);
    },
  };
}
