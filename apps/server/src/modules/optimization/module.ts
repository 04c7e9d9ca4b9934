import type { FastifyInstance } from 'fastify';
import type { TrialsSummary, SummaryInput, SummaryTrial } from '@ct/domain';
import type { Db } from '../../db/types.ts';
import type { BacktestModule } from '../strategy/module.ts';
import { JobWorker } from '../jobs/worker.ts';
import { optimizationRoutes } from './routes.ts';
import { createOptimizationRunner, type OptimizationRunner } from './runner.ts';
import { createOptimizationService, type OptimizationService } from './service.ts';
import {
  DEFAULT_OPTIMIZATION_SETTINGS,
  TRIAL_QUEUE,
  type OptimizationSettings,
} from './settings.ts';

/** The optimisations' parts main.ts and tests reach. */
export type OptimizationModule = {
  service: OptimizationService;
  /** Runs the trials of the trial queue on this process's worker. */
  runner: OptimizationRunner;
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
    /** An optimisation's summary computed off the event loop (a body worker). */
    summarize?: (
      input: Omit<SummaryInput, 'trials'> & {
        trials: (Omit<SummaryTrial, 'returns'> & { returns: Float64Array })[];
      },
    ) => Promise<TrialsSummary>;
    /** Starts the body workers (the trial worker needs them from its first batch). */
    warmWorkers?: () => void;
  },
): OptimizationModule {
  const settings: OptimizationSettings = { ...DEFAULT_OPTIMIZATION_SETTINGS, ...deps.settings };
  let worker: JobWorker | null = null;
  const runnerDeps = {
    db: deps.db,
    backtest: deps.backtest.service,
    pool: deps.backtest.sandbox,
    now: deps.now,
    settings,
    notify: () => worker?.notify(),
    onTrialKept: deps.onTrialKept,
    summarize: deps.summarize,
    log: app.log,
  };
  const runner = createOptimizationRunner(runnerDeps);
  const service = createOptimizationService({ ...runnerDeps, runner });
  optimizationRoutes(app, service);
  app.addHook('onClose', async () => {
    await worker?.stop();
    runner.closeSessions();
  });
  return {
    service,
    runner,
    settings,
    worker: () => worker,
    startWorker() {
      // the first batch should not pay for the interpreters' and threads' start
      if (!worker) {
        void deps.backtest.sandbox.start().catch(() => undefined);
        deps.warmWorkers?.();
      }
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
        run: (context) => runner.runJob(context),
        giveUp: (context) => runner.giveUpJob(context),
        // several trials per claim, per sandbox message and per transaction
        claimMore: (first) => runner.claimMore(first),
        runBatch: (context) => runner.runJobs(context),
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
