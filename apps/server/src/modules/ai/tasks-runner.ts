import {
  IN_SAMPLE_FRACTION,
  aiTaskTransition,
  buildFixPrompt,
  buildRegeneratePrompt,
  buildStrategyPrompt,
  chooseLookaheadCuts,
  compareEntries,
  computeBacktest,
  extractPythonCode,
  formatContractDate,
  inSampleEnd,
  lookaheadVerdict,
  normalizeBaseUrl,
  parsePeriod,
  tradesFrom,
  type AiBacktestResult,
  type AiSegmentResult,
  type AiStepType,
  type AiTaskStatus,
  type Bar,
  type CutOutcome,
  type Feed,
  type LookaheadResult,
  type Performance,
  type Period,
} from '@ct/domain';
import type { AiTaskRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { feedsAround } from '../backtest/feeds.ts';
import { finishJob } from '../jobs/store.ts';
import type { JobContext } from '../jobs/worker.ts';
import type { CheckRequest, CheckResult } from '../backtest/service.ts';
import type { ChatService, PreparedChat } from './chat-service.ts';
import { MSG_NO_API_KEY } from './chat-service.ts';
import type { AiTaskConfig } from './config.ts';
import { SealedSecretError, type KeyBox } from './key-box.ts';
import type { ProviderCatalogue } from './providers.ts';
import type { SettingsService } from './settings-service.ts';
import {
  appendMessage,
  countMessages,
  startTask,
  updateHeldTask,
  type HeldTask,
} from './tasks-store.ts';

/*
 * One AI strategy task, start to end, on a claimed job of the `ai-task` queue (modules/jobs
 * claims, leases and gives it up): every step is a conversation message; each attempt asks
 * the model, extracts the code, validates and backtests it on the in-sample bars and feeds
 * errors back until the bound, then judges the final code on the whole period, out of
 * sample and for look-ahead. Untrusted code runs only in the sandbox (`check`).
 */

/** Fewer bars than this cannot split into two judged parts. */
export const MIN_TASK_BARS = 20;
/** How long to wait for a free sandbox slot before a check counts as failed. */
const BUSY_WAIT_MS = 500;
const BUSY_TRIES = 120;

/** The task was deleted, taken over by another worker, or this worker is stopping. */
export class TaskStopped extends Error {}

export type TaskRunnerDeps = {
  db: Db;
  now: () => number;
  config: AiTaskConfig;
  providers: ProviderCatalogue;
  settings: SettingsService;
  keys: KeyBox;
  chat: ChatService;
  backtest: {
    check(request: CheckRequest): Promise<CheckResult>;
    loadBars(
      userId: number,
      symbol: string,
      period: string,
      limit: number,
      endBefore?: number,
    ): Promise<{ ok: true; bars: Bar[]; period: Period } | { ok: false; reason: string }>;
  };
  warn: (details: Record<string, unknown>, message: string) => void;
};

/** Where a task's own API key is sealed: any task row of the same user opens it. */
export const taskKeyAssociatedData = (userId: number) => `ai_task:user:${userId}`;

const SYSTEM = `You write Python trading strategies for a backtester. You follow the strategy contract exactly and answer with the complete code in one \`\`\`python code block.`;

function money(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : value.toFixed(2);
}

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : `${(value * 100).toFixed(2)} %`;
}

function summary(p: Performance | null): string {
  if (!p) return 'no trades';
  return `${p.交易次数} trades, win rate ${percent(p.胜率)}, net profit ${money(p.净利润)}, max drawdown ${percent(p.max_drawdown)}`;
}

function span(bars: readonly Bar[]): { from: string; to: string } {
  const first = bars[0];
  const last = bars.at(-1);
  return {
    from: first ? formatContractDate(first.time) : '',
    to: last ? formatContractDate(last.time) : '',
  };
}

type ModelAnswer =
  | { ok: true; text: string; reasoningChars: number }
  /** `kept`: what arrived before an answer was cut or timed out (within the size limit). */
  | { ok: false; error: string; kept: string; why: 'too_long' | 'timeout' | null };

/** The provider, model and key a task's chats go to. */
type TaskChat = Omit<PreparedChat, 'messages'>;

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
    return Math.floor(this.deps.now() / 1000);
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
    const outBars = bars.slice(split);
    const outTrades = tradesFrom(full.trades, split);
    const outPerformance =
      outTrades.length === 0
        ? null
        : computeBacktest({
            bars: outBars,
            trades: outTrades,
            symbol: task.symbolId,
            period,
            conventions: full.conventions,
          }).performance;
    const outOfSample: AiSegmentResult = {
      ...span(outBars),
      bar_count: outBars.length,
      trade_count: outTrades.length,
      performance: outPerformance,
    };
    const lookahead = await this.lookahead(code, data, full);
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
      `Whole period (${bars.length} bars): ${summary(full.performance)}. Out of sample (last ${outBars.length} bars from ${outOfSample.from}): ${summary(outPerformance)}.`,
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

  /** The look-ahead check: the code run again on cut data must not change earlier entries. */
  private async lookahead(
    code: string,
    data: TaskData,
    full: Extract<Checked, { ok: true }>,
  ): Promise<LookaheadResult> {
    const { bars, period } = data;
    const outcomes: CutOutcome[] = [];
    for (const keep of chooseLookaheadCuts(
      full.trades.map((t) => t.openIndex),
      bars.length,
    )) {
      const entries = full.trades.filter((t) => t.openIndex < keep).length;
      const cut = await this.check(code, bars.slice(0, keep), period);
      outcomes.push(
        cut.ok
          ? { keep, ok: true, entries, ...compareEntries(full.trades, cut.trades, keep) }
          : { keep, ok: false, entries, error: cut.error },
      );
    }
    return lookaheadVerdict(
      outcomes,
      bars.map((b) => b.time),
    );
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

/** Provider, model and key of a task, checked again at run time; a string says why not. */
async function prepareChat(deps: TaskRunnerDeps, task: AiTaskRow): Promise<TaskChat | string> {
  const provider = deps.providers.find(task.provider);
  if (!provider) return `Unknown service provider: ${task.provider}`;
  if (normalizeBaseUrl(task.baseUrl) !== provider.base_url) {
    return `API endpoint not allowed: ${task.baseUrl}. The endpoint of ${provider.label} is ${provider.base_url}`;
  }
  let apiKey = '';
  if (task.apiKeyEnc) {
    try {
      apiKey = deps.keys.open(task.apiKeyEnc, taskKeyAssociatedData(task.userId));
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      return 'The API key of this task cannot be opened any more (the server key changed)';
    }
  } else {
    const saved = await deps.settings.forChat(task.userId);
    // a saved key goes only to the provider it was saved for
    if (saved.provider === task.provider) apiKey = saved.apiKey;
  }
  if (provider.requires_key && apiKey === '') return MSG_NO_API_KEY;
  return { provider, model: task.model, apiKey: apiKey === '' ? provider.value : apiKey };
}

/**
 * One model answer through the chat's client, within the task's model timeout and the
 * answer size limit: past either the request is aborted and what arrived is kept.
 */
async function callModel(
  deps: TaskRunnerDeps,
  chat: PreparedChat,
  signal: AbortSignal,
  timing: { modelMs: number },
): Promise<ModelAnswer> {
  // the chat never sends more than the size limit: `text` stays within it
  const text: string[] = [];
  let reasoningChars = 0;
  let error: { code: string; message: string } | null = null;
  let done = false;
  const started = performance.now();
  try {
    await deps.chat.stream(
      chat,
      (event) => {
        if (event.event === 'content') text.push(event.data.text);
        else if (event.event === 'reasoning') reasoningChars += event.data.text.length;
        else if (event.event === 'error') error = event.data;
        else done = true;
      },
      signal,
      { totalTimeoutMs: deps.config.modelTimeoutMs },
    );
  } finally {
    timing.modelMs += performance.now() - started;
  }
  if (signal.aborted) throw new TaskStopped();
  const kept = text.join('');
  const failed = error as { code: string; message: string } | null;
  if (failed !== null) {
    const why = failed.code === 'too_long' || failed.code === 'timeout' ? failed.code : null;
    return { ok: false, error: failed.message, kept, why };
  }
  if (!done) {
    return {
      ok: false,
      error: `${chat.provider.label} ended without an answer.`,
      kept,
      why: null,
    };
  }
  return { ok: true, text: kept, reasoningChars };
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
  const seconds = () => Math.floor(deps.now() / 1000);
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
