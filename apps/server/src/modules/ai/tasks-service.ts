import {
  toEpochSec,
  AI_TASK_CREATED,
  DEFAULT_AI_TASK_TYPE,
  aiConversationQuerySchema,
  aiTaskListQuerySchema,
  createAiTaskRequestSchema,
  createStrategyFromAiRequestSchema,
  isMaskedApiKey,
  maskApiKey,
  parsePeriod,
  taskCodePreview,
  type AiBacktestResult,
  type AiConversation,
  type AiConversationMessage,
  type AiTask,
  type AiTaskList,
  type CreateAiTaskAnswer,
  type DeleteAiTaskAnswer,
} from '@ct/domain';
import type { AiTaskMessageRow, AiTaskRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { NotFoundError } from '../../http/errors.ts';
import type { StrategyService } from '../strategy/service.ts';
import { MSG_NO_API_KEY } from './chat-service.ts';
import type { AiTaskConfig } from './config.ts';
import { parseAiInput, TooManyTasksError, UnprocessableError } from './errors.ts';
import type { KeyBox } from './key-box.ts';
import type { ProviderCatalogue } from './providers.ts';
import { allowedProvider, type SettingsService } from './settings-service.ts';
import { taskKeyAssociatedData, type TaskRunnerDeps } from './tasks-runner.ts';
import {
  countOpenTasks,
  deleteTask,
  findTask,
  insertTask,
  listMessages,
  listTasks,
  lockUserTasks,
  retryNumbers,
} from './tasks-store.ts';

/** Only a finished task with code can become a strategy (spec section 4). */
export const MSG_TASK_NOT_SAVABLE = 'Only a completed task with code can be saved as a strategy';

export type TaskServiceDeps = {
  db: Db;
  now: () => number;
  config: AiTaskConfig;
  providers: ProviderCatalogue;
  settings: SettingsService;
  keys: KeyBox;
  loadBars: TaskRunnerDeps['backtest']['loadBars'];
  strategies: Pick<StrategyService, 'save'>;
  /** Tells this node's worker that a task is waiting; `cancel` aborts one it runs. */
  worker: { notify(): void; cancel(taskId: number): boolean };
};

export function taskView(row: AiTaskRow, previewOnly = false): AiTask {
  return {
    id: row.id,
    status: row.status,
    task_type: row.taskType,
    prompt: row.prompt,
    provider: row.provider,
    model: row.model,
    symbol_id: row.symbolId,
    period: row.period,
    client_id: row.clientId,
    code: previewOnly ? null : row.code,
    full_code: previewOnly ? null : row.code,
    code_preview: taskCodePreview(row.code),
    backtest_result: row.backtestResult as AiBacktestResult | null,
    error_message: row.errorMessage,
    retry_count: row.retryCount,
    max_retries: row.maxRetries,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
  };
}

function messageView(row: AiTaskMessageRow): AiConversationMessage {
  return {
    id: row.id,
    role: row.role === 'user' ? 'user' : 'ai',
    content: row.content,
    step_type: row.stepType,
    retry_number: row.retryNumber,
    extra_data: row.extraData ?? null,
    created_at: row.createdAt,
  };
}

export function createTaskService(deps: TaskServiceDeps) {
  const { db } = deps;
  const seconds = () => toEpochSec(deps.now());

  async function ownTask(userId: number, id: number): Promise<AiTaskRow> {
    const row = await findTask(db, userId, id);
    if (!row) throw new NotFoundError(`Task not found: ${id}`);
    return row;
  }

  return {
    /**
     * `POST /api/ai/strategy`: checks the form's rules, the provider's endpoint, the key and
     * the chart, stores the task PENDING and wakes the worker. 422 and nothing stored otherwise;
     * 429 when the user already has `AI_TASK_MAX_PENDING_PER_USER` tasks waiting or running.
     */
    async create(userId: number, body: unknown): Promise<CreateAiTaskAnswer> {
      const input = parseAiInput(createAiTaskRequestSchema, body);
      const provider = allowedProvider(deps.providers, input.provider, input.base_url);
      const period = parsePeriod(input.period);
      if (!period) throw new UnprocessableError(`period: Unknown period: ${input.period}`);
      const chart = await deps.loadBars(userId, input.symbol_id, period, 1);
      if (!chart.ok) throw new UnprocessableError(`symbol_id: ${chart.reason}`);
      const feeds = (input.feeds ?? []).map((feed, i) => ({
        symbol_id: feed.symbol_id,
        period: parsePeriod(feed.period) ?? '',
        i,
      }));
      for (const feed of feeds) {
        if (feed.period === '') {
          throw new UnprocessableError(
            `feeds[${feed.i}].period: Unknown period: ${input.feeds?.[feed.i]?.period}`,
          );
        }
        const known = await deps.loadBars(userId, feed.symbol_id, feed.period, 1);
        if (!known.ok) throw new UnprocessableError(`feeds[${feed.i}]: ${known.reason}`);
      }

      const typed = input.api_key ?? '';
      let apiKeyEnc: string | null = null;
      if (typed !== '' && !isMaskedApiKey(typed)) {
        apiKeyEnc = deps.keys.seal(typed, taskKeyAssociatedData(userId));
      } else {
        const saved = await deps.settings.forChat(userId);
        const savedKey = saved.provider === provider.value ? saved.apiKey : '';
        if (typed !== '' && (savedKey === '' || maskApiKey(savedKey) !== typed)) {
          throw new UnprocessableError(
            'api_key: this is a masked key that does not match the saved one; enter the full key',
          );
        }
        if (provider.requires_key && savedKey === '') throw new UnprocessableError(MSG_NO_API_KEY);
      }

      const at = seconds();
      const max = deps.config.maxPendingPerUser;
      const row = await db.transaction(async (tx) => {
        // one user's creates one at a time, so that concurrent ones cannot pass the bound
        await lockUserTasks(tx, userId);
        if ((await countOpenTasks(tx, userId)) >= max) throw new TooManyTasksError(max);
        return insertTask(
          tx,
          {
            userId,
            status: AI_TASK_CREATED,
            taskType: input.task_type ?? DEFAULT_AI_TASK_TYPE,
            prompt: input.prompt,
            provider: provider.value,
            model: input.model,
            baseUrl: provider.base_url,
            apiKeyEnc,
            symbolId: input.symbol_id,
            period,
            feeds:
              feeds.length > 0
                ? feeds.map(({ symbol_id, period }) => ({ symbol_id, period }))
                : null,
            clientId: input.client_id ?? null,
            maxRetries: deps.config.maxRetries,
            createdAt: at,
            updatedAt: at,
          },
          deps.now(),
        );
      });
      deps.worker.notify();
      return { id: row.id, status: AI_TASK_CREATED };
    },

    /** `GET /api/ai/strategies`: the user's tasks, newest first. */
    async list(userId: number, query: unknown): Promise<AiTaskList> {
      const q = parseAiInput(aiTaskListQuerySchema, query);
      const { rows, total } = await listTasks(db, userId, q.skip, q.limit);
      return { tasks: rows.map((row) => taskView(row, q.preview_code)), total };
    },

    async get(userId: number, id: number): Promise<AiTask> {
      return taskView(await ownTask(userId, id));
    },

    /** `DELETE /api/ai/strategy/{id}`: a waiting or running task is cancelled with it. */
    async remove(userId: number, id: number): Promise<DeleteAiTaskAnswer> {
      const row = await deleteTask(db, userId, id);
      if (!row) throw new NotFoundError(`Task not found: ${id}`);
      // a worker on another node notices at its next write or lease renewal
      deps.worker.cancel(id);
      const cancelled = row.status === 'PENDING' || row.status === 'PROCESSING';
      return { id, deleted: true, cancelled };
    },

    async conversations(userId: number, id: number, query: unknown): Promise<AiConversation> {
      const q = parseAiInput(aiConversationQuerySchema, query);
      const task = await ownTask(userId, id);
      const rows = await listMessages(db, task.id, q.retry_number);
      return {
        task_id: task.id,
        conversations: rows.map(messageView),
        total_messages: rows.length,
        retry_numbers: await retryNumbers(db, task.id),
      };
    },

    /** `POST /api/ai/strategies/from-ai`: the task's code as a new strategy of the user. */
    async saveAsStrategy(userId: number, body: unknown) {
      const input = parseAiInput(createStrategyFromAiRequestSchema, body);
      const task = await ownTask(userId, input.task_id);
      if (task.status !== 'COMPLETED' || !task.code) {
        throw new UnprocessableError(MSG_TASK_NOT_SAVABLE);
      }
      return deps.strategies.save(userId, { name: input.name, code: task.code, create: true });
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
