import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { BacktestModule } from '../strategy/module.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import type { TradingContext } from '../trading/context.ts';
import { liveRunRoutes } from './routes.ts';
import { LiveRunner, type LiveRunnerOptions } from './runner.ts';
import { createLiveRunService, type LiveRunService } from './service.ts';
import { DEFAULT_LIVE_RUN_SETTINGS, type LiveRunSettings } from './settings.ts';

/** The live runs' parts main.ts and tests reach. */
export type LiveRunsModule = {
  service: LiveRunService;
  settings: LiveRunSettings;
  /**
   * Starts this process's runner (the role that runs the feed: the runner acts on its
   * ticks); it stops with the app. Calling it again returns the same runner.
   */
  startRunner(
    extra?: Pick<LiveRunnerOptions, 'onEvaluated' | 'afterOrderSent' | 'owner'>,
  ): LiveRunner;
  /** The runner of this process, or null while none was started. */
  runner(): LiveRunner | null;
};

/** The live-run calls, and the runner behind a start function (placed by role in main.ts). */
export function registerLiveRuns(
  app: FastifyInstance,
  deps: {
    db: Db;
    market: MarketData;
    feed: MarketFeed;
    trading: TradingContext;
    backtest: BacktestModule;
    now: () => number;
    settings?: Partial<LiveRunSettings>;
    /** Tells the user of a failed evaluation or a stop (modules/notifications). */
    onFailed?: LiveRunnerOptions['onFailed'];
  },
): LiveRunsModule {
  const settings: LiveRunSettings = { ...DEFAULT_LIVE_RUN_SETTINGS, ...deps.settings };
  let runner: LiveRunner | null = null;
  const service = createLiveRunService({
    db: deps.db,
    market: deps.market,
    feed: deps.feed,
    pool: deps.backtest.sandbox,
    now: deps.now,
    settings,
    runner: () => runner,
  });
  liveRunRoutes(app, service);
  // the runner drops an evaluation that finishes after it was told to stop (the sandbox
  // may close first): the next holder of the run evaluates that bar again
  app.addHook('onClose', async () => {
    await runner?.stop();
  });
  return {
    service,
    settings,
    runner: () => runner,
    startRunner(extra = {}) {
      runner ??= new LiveRunner({
        db: deps.db,
        market: deps.market,
        feed: deps.feed,
        trading: deps.trading,
        pool: deps.backtest.sandbox,
        logs: deps.backtest.logs,
        now: deps.now,
        settings,
        log: {
          warn: (details, message) => app.log.warn(details, message),
          error: (details, message) => app.log.error(details, message),
        },
        onFailed: deps.onFailed,
        ...extra,
      });
      runner.start();
      return runner;
    },
  };
}
