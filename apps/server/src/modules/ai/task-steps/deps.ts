import type { Bar, Period } from '@ct/domain';
import type { Db } from '../../../db/types.ts';
import type { CheckRequest, CheckResult } from '../../backtest/service.ts';
import type { ChatService } from '../chat-service.ts';
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
