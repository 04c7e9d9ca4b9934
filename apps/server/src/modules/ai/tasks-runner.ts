import {
  IN_SAMPLE_FRACTION,
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
  tradesFrom,
  type AiBacktestResult,
  type AiSegmentResult,
  type AiStepType,
  type Bar,
  type CutOutcome,
  type LookaheadResult,
  type Performance,
} from '@ct/domain';
import type { AiTaskRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import type { CheckRequest, CheckResult } from '../backtest/service.ts';
import type { ChatService, PreparedChat } from './chat-service.ts';
import { MSG_NO_API_KEY } from './chat-service.ts';
import type { AiTaskConfig } from './config.ts';
import { SealedSecretError, type KeyBox } from './key-box.ts';
import type { ProviderCatalogue } from './providers.ts';
import type { SettingsService } from './settings-service.ts';
import { appendMessage, countMessages, updateHeldTask } from './tasks-store.ts';

/*
 * One AI strategy task, start to end, on a claimed row: every step is a conversation
 * message; the loop generates, validates and backtests on the in-sample bars, feeds errors
 * back until the bound, then judges the final code on the whole period, out of sample and
 * for look-ahead. Untrusted code runs only in the sandbox (`check`).
 */

/** A task claimed this many times (its worker died each time) stops as FAILED. */
export const MAX_TASK_CLAIMS = 5;
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
    ): Promise<{ ok: true; bars: Bar[]; period: string } | { ok: false; reason: string }>;
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

export function createTaskRunner(deps: TaskRunnerDeps) {
  const { db, config } = deps;
  const seconds = () => Math.floor(deps.now() / 1000);

  /** Provider, model and key of a task, checked again at run time; a string says why not. */
  async function prepare(task: AiTaskRow): Promise<Omit<PreparedChat, 'messages'> | string> {
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
        { totalTimeoutMs: config.modelTimeoutMs },
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

  return async function runTask(task: AiTaskRow, owner: string, signal: AbortSignal) {
    const startedAt = performance.now();
    const timing = { modelMs: 0, sandboxMs: 0, sandboxRuns: 0 };
    let retry = task.retryCount;

    const say = async (
      role: 'user' | 'ai',
      stepType: AiStepType,
      content: string,
      extra: Record<string, unknown> | null = null,
    ) => {
      if (signal.aborted) throw new TaskStopped();
      const row = await appendMessage(db, owner, {
        taskId: task.id,
        role,
        content,
        stepType,
        retryNumber: retry,
        extraData: extra,
        createdAt: seconds(),
      });
      if (!row) throw new TaskStopped();
    };

    const end = async (values: Parameters<typeof updateHeldTask>[3]) => {
      if (signal.aborted) throw new TaskStopped();
      if (!(await updateHeldTask(db, task.id, owner, values))) throw new TaskStopped();
    };

    const fail = (message: string) =>
      end({ status: 'FAILED', errorMessage: message, finishedAt: seconds(), updatedAt: seconds() });

    /** Counts a failed attempt; false (and the task FAILED) once the bound is passed. */
    const nextAttempt = async (error: string): Promise<boolean> => {
      if (retry + 1 > task.maxRetries) {
        const attempts = retry + 1;
        await fail(
          `Gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}. Last error: ${error}`,
        );
        return false;
      }
      retry += 1;
      await end({ retryCount: retry, updatedAt: seconds() });
      return true;
    };

    /** Runs code on bars in the sandbox; waits for a slot while the sandbox is busy. */
    const check = async (code: string, bars: readonly Bar[], period: string) => {
      for (let tries = 0; ; tries++) {
        if (signal.aborted) throw new TaskStopped();
        const started = performance.now();
        const result = await deps.backtest.check({
          code,
          filename: `ai_task_${task.id}.py`,
          bars,
          symbol: task.symbolId,
          period,
        });
        timing.sandboxMs += performance.now() - started;
        timing.sandboxRuns += 1;
        if (signal.aborted) throw new TaskStopped();
        if (result.ok || result.kind !== 'busy' || tries >= BUSY_TRIES) return result;
        await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
      }
    };

    if (task.claims > MAX_TASK_CLAIMS) {
      await fail(
        `The task was interrupted ${task.claims - 1} times (its worker stopped while it ran); giving up`,
      );
      return;
    }
    const resumed = (await countMessages(db, task.id)) > 0;
    if (!resumed) await say('user', 'initial_prompt', task.prompt);

    const prepared = await prepare(task);
    if (typeof prepared === 'string') {
      await say('ai', 'error', prepared, { stage: 'provider' });
      await fail(prepared);
      return;
    }
    const loaded = await deps.backtest.loadBars(
      task.userId,
      task.symbolId,
      task.period,
      config.bars,
    );
    if (!loaded.ok || loaded.bars.length < MIN_TASK_BARS) {
      const reason = loaded.ok
        ? `Only ${loaded.bars.length} bars of ${task.symbolId} ${task.period}; a task needs at least ${MIN_TASK_BARS}`
        : loaded.reason;
      await say('ai', 'error', reason, { stage: 'data' });
      await fail(reason);
      return;
    }
    const bars = loaded.bars;
    const period = loaded.period;
    const split = inSampleEnd(bars.length);
    const inSample = bars.slice(0, split);
    const inSpan = span(inSample);

    const generatePrompt = buildStrategyPrompt(task.prompt);
    let step: 'generate_prompt' | 'regenerate_prompt' | 'fix_prompt' = 'generate_prompt';
    let promptText = generatePrompt;
    let history: PreparedChat['messages'] = [];
    let promptExtra: Record<string, unknown> | null = resumed ? { resumed: true } : null;

    for (;;) {
      await say('user', step, promptText, promptExtra);
      promptExtra = null;
      const messages: PreparedChat['messages'] = [
        { role: 'system', content: SYSTEM },
        ...history,
        { role: 'user', content: promptText },
      ];
      const answer = await callModel({ ...prepared, messages }, signal, timing);
      if (!answer.ok) {
        if (answer.kept !== '' && answer.why !== null) {
          // what arrived stays readable in the conversation; the note below says why it ends
          await say('ai', 'ai_response', answer.kept, {
            model: prepared.model,
            provider: prepared.provider.value,
            incomplete: answer.why,
          });
        }
        await say('ai', 'error', answer.error, { stage: 'model' });
        if (!(await nextAttempt(answer.error))) return;
        continue; // the same prompt again
      }
      await say('ai', 'ai_response', answer.text, {
        model: prepared.model,
        provider: prepared.provider.value,
        reasoning_chars: answer.reasoningChars,
      });

      const code = extractPythonCode(answer.text);
      if (code === null) {
        const error = 'The answer has no Python code block defining main(data_array).';
        await say('ai', 'error', error, { stage: 'extract' });
        if (!(await nextAttempt(error))) return;
        step = 'regenerate_prompt';
        promptText = buildRegeneratePrompt(task.prompt, error);
        history = [];
        continue;
      }

      const fixWith = async (error: string, stage: string): Promise<boolean> => {
        await say('ai', 'error', error, { stage, code });
        if (!(await nextAttempt(error))) return false;
        step = 'fix_prompt';
        promptText = buildFixPrompt(error, code);
        history = [
          { role: 'user', content: generatePrompt },
          { role: 'assistant', content: answer.text },
        ];
        return true;
      };

      // validation and the fix loop: the in-sample bars only
      const checked = await check(code, inSample, period);
      if (!checked.ok && checked.kind === 'unavailable') {
        await say('ai', 'error', checked.error, { stage: 'sandbox' });
        await fail(checked.error);
        return;
      }
      if (!checked.ok || checked.trades.length === 0) {
        const error = checked.ok
          ? `The strategy made no trades on the data (${inSample.length} bars from ${inSpan.from} to ${inSpan.to}); it must trade.`
          : checked.error;
        if (await fixWith(error, 'validation')) continue;
        return;
      }
      await say(
        'ai',
        'validation',
        `The code runs in the sandbox and keeps the contract on the in-sample data (${inSample.length} bars from ${inSpan.from} to ${inSpan.to}): ${checked.trades.length} trades.`,
        { passed: true, bars: inSample.length, trades: checked.trades.length, code },
      );
      const inSampleResult: AiSegmentResult = {
        ...inSpan,
        bar_count: inSample.length,
        trade_count: checked.deals.length,
        performance: checked.performance,
      };
      await say('ai', 'backtest', `In-sample backtest: ${summary(checked.performance)}.`, {
        segment: 'in_sample',
        ...inSampleResult,
      });

      // the final judgement: the whole period, out of sample, look-ahead
      const full = await check(code, bars, period);
      if (!full.ok || full.trades.length === 0) {
        const error = full.ok
          ? 'The strategy made no trades on the whole data.'
          : `On the whole data (${bars.length} bars) the strategy failed: ${full.error}`;
        if (await fixWith(error, 'full_run')) continue;
        return;
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

      const outcomes: CutOutcome[] = [];
      for (const keep of chooseLookaheadCuts(
        full.trades.map((t) => t.openIndex),
        bars.length,
      )) {
        const entries = full.trades.filter((t) => t.openIndex < keep).length;
        const cut = await check(code, bars.slice(0, keep), period);
        outcomes.push(
          cut.ok
            ? { keep, ok: true, entries, ...compareEntries(full.trades, cut.trades, keep) }
            : { keep, ok: false, entries, error: cut.error },
        );
      }
      const lookahead: LookaheadResult = lookaheadVerdict(
        outcomes,
        bars.map((b) => b.time),
      );

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
          total_ms: Math.round(performance.now() - startedAt),
          model_ms: Math.round(timing.modelMs),
          sandbox_ms: Math.round(timing.sandboxMs),
          sandbox_runs: timing.sandboxRuns,
        },
      };
      await say(
        'ai',
        'backtest',
        `Whole period (${bars.length} bars): ${summary(full.performance)}. Out of sample (last ${outBars.length} bars from ${outOfSample.from}): ${summary(outPerformance)}.`,
        { segment: 'whole', out_of_sample: outOfSample, performance: full.performance },
      );
      await say('ai', 'validation', lookahead.detail, { check: 'lookahead', ...lookahead });
      await end({
        status: 'COMPLETED',
        code,
        backtestResult: result,
        errorMessage: null,
        finishedAt: seconds(),
        updatedAt: seconds(),
      });
      return;
    }
  };
}

export type TaskRunner = ReturnType<typeof createTaskRunner>;
