import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { BacktestModule } from '../strategy/module.ts';
import { JobWorker } from '../jobs/worker.ts';
import { optimizationRoutes } from './routes.ts';
import { createOptimizationService, type OptimizationService } from './service.ts';
import {
  DEFAULT_OPTIMIZATION_SETTINGS,
  TRIAL_QUEUE,
  type OptimizationSettings,
} from './settings.ts';

/** The optimisations' parts main.ts and tests reach. */
export type OptimizationModule = {
  service: OptimizationService;
  settings: OptimizationSettings;
  /** Starts this process's trial worker (the `worker` role); it stops with the app. */
  startWorker(): JobWorker;
  worker(): JobWorker | null;
};

export function registerOptimization(
  app: FastifyInstance,
  deps: {
    db: Db;
    backtest: BacktestModule;
    now: () => number;
    settings?: Partial<OptimizationSettings>;
    /** Tells the user of an optimisation that ended (modules/notifications). */
    onTrialKept?: (optimizationId: string) => Promise<void>;
  },
): OptimizationModule {
  const settings: OptimizationSettings = { ...DEFAULT_OPTIMIZATION_SETTINGS, ...deps.settings };
  let worker: JobWorker | null = null;
  const service = createOptimizationService({
    db: deps.db,
    backtest: deps.backtest.service,
    pool: deps.backtest.sandbox,
    now: deps.now,
    settings,
    notify: () => worker?.notify(),
    onTrialKept: deps.onTrialKept,
  });
  optimizationRoutes(app, service);
  app.addHook('onClose', async () => {
    await worker?.stop();
    service.closeSessions();
  });
  return {
    service,
    settings,
    worker: () => worker,
    startWorker() {
      worker ??= new JobWorker({
        db: deps.db,
        now: deps.now,
        queue: TRIAL_QUEUE,
        concurrency: settings.concurrency,
        leaseMs: settings.leaseMs,
        pollMs: settings.pollMs,
        bounds: {
          maxPerGroup: settings.maxActivePerUser,
          maxPerBatch: settings.maxActivePerOptimization,
        },
        run: (context) => service.runJob(context),
        giveUp: (context) => service.giveUpJob(context),
        // several trials per claim, per sandbox message and per transaction
        claimMore: (first) => service.claimMore(first),
        runBatch: (context) => service.runJobs(context),
        log: {
          warn: (details, message) => app.log.warn(details, message),
          error: (details, message) => app.log.error(details, message),
        },
      });
      worker.start();
      return worker;
    },
  };
}
