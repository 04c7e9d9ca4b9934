import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../auth/rate-limit.ts';
import { MemoryRateLimitStore, type RateLimitStore } from '../auth/rate-limit-store.ts';
import type { BacktestService } from '../backtest/service.ts';
import type { StrategyService } from '../strategy/service.ts';
import { createChatService, type ChatService } from './chat-service.ts';
import { DEFAULT_AI_CONFIG, type AiConfig } from './config.ts';
import { KeyBox } from './key-box.ts';
import { ProviderCatalogue, type ModelLister } from './providers.ts';
import { aiRoutes } from './routes.ts';
import { createSettingsService, type SettingsService } from './settings-service.ts';
import { JobWorker } from '../jobs/worker.ts';
import { createTaskJobHandlers } from './tasks-runner.ts';
import { aiTaskRoutes } from './tasks-routes.ts';
import { createTaskService, type TaskService } from './tasks-service.ts';
import { AI_TASK_BOUNDS, AI_TASK_QUEUE, taskBatchKey } from './tasks-store.ts';

/** The AI assistant's parts tests reach through the app. */
export type AiModule = {
  providers: ProviderCatalogue;
  settings: SettingsService;
  chat: ChatService;
  tasks: TaskService;
  /**
   * The AI task worker (the `worker` role): the `ai-task` queue's JobWorker (modules/jobs).
   * main.ts starts it; tests start it when they need it.
   */
  worker: TaskWorker;
};

/** The `ai-task` queue's worker as the AI module shows it: its jobs named by their tasks. */
export type TaskWorker = Pick<JobWorker, 'start' | 'stop' | 'notify' | 'whenIdle' | 'owner'> & {
  readonly started: boolean;
  /** Tasks this worker runs now (their ids). */
  activeTasks(): number[];
  /** Aborts a task this worker runs (it was deleted); true when it was running here. */
  cancel(taskId: number): boolean;
};

function taskWorker(jobs: JobWorker): TaskWorker {
  return {
    owner: jobs.owner,
    get started() {
      return jobs.started;
    },
    start: () => jobs.start(),
    stop: () => jobs.stop(),
    notify: () => jobs.notify(),
    whenIdle: () => jobs.whenIdle(),
    activeTasks: () =>
      jobs.activeRows().map((job) => Number((job.payload as { taskId: number }).taskId)),
    cancel: (taskId) => jobs.abortBatch(taskBatchKey(taskId)),
  };
}

export type AiModuleOptions = {
  db: Db;
  now: Clock;
  /** Where the key file is made when no encryption key is configured. */
  dataDir: string;
  config?: AiConfig;
  /** Counts the chats per user (the login limits' store: shared by the API nodes with Redis). */
  rateLimitStore?: RateLimitStore;
  listModels?: ModelLister;
  /** The sandbox checks and the chart's bars of AI tasks. */
  backtest: Pick<BacktestService, 'check' | 'loadBars'>;
  /** Saving a task's code as a strategy follows the strategy API's rules. */
  strategies: Pick<StrategyService, 'save'>;
  /** Tells the user of a task that ended (modules/notifications). */
  onTaskEnded?: (taskId: number) => Promise<void>;
};

/** Providers, per-user API settings, the streaming chat relay and the AI strategy tasks. */
export function registerAi(app: FastifyInstance, options: AiModuleOptions): AiModule {
  const config = options.config ?? DEFAULT_AI_CONFIG;
  const providers = new ProviderCatalogue(config, options.now, options.listModels);
  const keys = new KeyBox({ secret: config.encryptionSecret, dataDir: options.dataDir });
  const settings = createSettingsService({
    db: options.db,
    now: options.now,
    providers,
    keys,
    warn: (message) => app.log.warn(message),
  });
  const chat = createChatService({
    config,
    now: options.now,
    rateStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    providers,
    settings,
    warn: (details, message) => app.log.warn(details, message),
  });
  const handlers = createTaskJobHandlers({
    db: options.db,
    now: options.now,
    config: config.tasks,
    providers,
    settings,
    keys,
    chat,
    backtest: options.backtest,
    warn: (details, message) => app.log.warn(details, message),
    error: (details, message) => app.log.error(details, message),
    onEnded: options.onTaskEnded,
  });
  const worker = taskWorker(
    new JobWorker({
      db: options.db,
      now: options.now,
      queue: AI_TASK_QUEUE,
      concurrency: config.tasks.concurrency,
      leaseMs: config.tasks.leaseMs,
      pollMs: config.tasks.pollMs,
      bounds: AI_TASK_BOUNDS,
      run: handlers.run,
      giveUp: handlers.giveUp,
      log: {
        warn: (details, message) => app.log.warn(details, message),
        error: (details, message) => app.log.error(details, message),
      },
    }),
  );
  const tasks = createTaskService({
    db: options.db,
    now: options.now,
    config: config.tasks,
    providers,
    settings,
    keys,
    loadBars: options.backtest.loadBars,
    strategies: options.strategies,
    worker,
  });
  aiRoutes(app, { providers, settings, chat });
  aiTaskRoutes(app, tasks);
  // before the sandbox and the database close: running tasks are given back, not failed
  app.addHook('preClose', async () => worker.stop());
  return { providers, settings, chat, tasks, worker };
}
