import type { Bar, Period } from '@ct/domain';
import type { AiTaskRow } from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';
import type { CheckRequest, CheckResult } from '../../backtest/service.ts';
import type { ChatService, PreparedChat } from '../chat-service.ts';
import type { AiTaskConfig } from '../config.ts';
import type { KeyBox } from '../key-box.ts';
import type { ProviderCatalogue } from '../providers.ts';
import type { SettingsService } from '../settings-service.ts';

/* What every step of an AI strategy task works with. */

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

/** One run of a claimed task by one worker: what its steps share. */
export type TaskRun = {
  deps: TaskRunnerDeps;
  task: AiTaskRow;
  /** This worker's name in the task's job lease. */
  owner: string;
  /** Aborted when the job is lost or the worker stops. */
  signal: AbortSignal;
  /** The attempt under way (the conversation's retry number); the fix step counts it up. */
  retry: number;
  /** `performance.now()` when the run began. */
  startedAt: number;
  timing: { modelMs: number; sandboxMs: number; sandboxRuns: number };
  /** The first prompt of the task (fix prompts continue its conversation). */
  generatePrompt: string;
};

/** The chart of a task, split into the bars the loop may see and the whole. */
export type TaskData = {
  bars: Bar[];
  period: string;
  /** Bars before this index are in sample. */
  split: number;
  inSample: Bar[];
  inSpan: { from: string; to: string };
};

/** The next prompt of the loop and the conversation it continues. */
export type Prompt = {
  step: 'generate_prompt' | 'regenerate_prompt' | 'fix_prompt';
  text: string;
  history: PreparedChat['messages'];
  extra: Record<string, unknown> | null;
};

/** A failed attempt's error to feed back to the model. */
export type Failed = { ok: false; error: string };
