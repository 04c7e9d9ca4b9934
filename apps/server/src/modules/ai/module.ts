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
import { createTaskRunner } from './tasks-runner.ts';
import { aiTaskRoutes } from './tasks-routes.ts';
import { createTaskService, type TaskService } from './tasks-service.ts';
import { TaskWorker } from './tasks-worker.ts';

/** The AI assistant's parts tests reach through the app. */
export type AiModule = {
  providers: ProviderCatalogue;
  settings: SettingsService;
  chat: ChatService;
  tasks: TaskService;
  /** The AI task worker (the `worker` role): main.ts starts it; tests start it when they need it. */
  worker: TaskWorker;
};

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
  const runTask = createTaskRunner({
    db: options.db,
    now: options.now,
    config: config.tasks,
    providers,
    settings,
    keys,
    chat,
    backtest: options.backtest,
    warn: (details, message) => app.log.warn(details, message),
  });
  const worker = new TaskWorker({
    db: options.db,
    now: options.now,
    concurrency: config.tasks.concurrency,
    leaseMs: config.tasks.leaseMs,
    pollMs: config.tasks.pollMs,
    run: runTask,
    onEnded: options.onTaskEnded,
    log: {
      warn: (details, message) => app.log.warn(details, message),
      error: (details, message) => app.log.error(details, message),
    },
  });
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
