import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Broker } from '../gateway/broker.ts';
import type { MarketData } from '../market/market-data.ts';
import { strategyRoutes } from './routes.ts';
import { DEFAULT_RESULT_LIMITS, createStrategyService, type StrategyService } from './service.ts';
import type { StrategyLimits } from './limits.ts';
import { LogHub, type LogSocketLimits } from '../backtest/log-hub.ts';
import { backtestRoutes } from '../backtest/routes.ts';
import { SandboxPool } from '../backtest/sandbox/pool.ts';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../backtest/sandbox/settings.ts';
import {
  createBacktestService,
  type BacktestDeps,
  type BacktestService,
  type BarsLoader,
} from '../backtest/service.ts';

/** The strategy workbench's parts other modules, main.ts and tests reach. */
export type BacktestModule = {
  sandbox: SandboxPool;
  service: BacktestService;
  strategies: StrategyService;
  logs: LogHub;
};

export type BacktestModuleOptions = {
  db: Db;
  market: MarketData;
  now: () => number;
  /** Limits and walls; the defaults of docs/backtest.md when absent. */
  sandbox?: SandboxSettings;
  loadImported?: BarsLoader;
  /** Bounds of the log sockets; DEFAULT_LOG_SOCKET_LIMITS when absent. */
  logSockets?: LogSocketLimits;
  /** Bounds of saved results (a result's size, a user's total); defaults when absent. */
  results?: { maxBytes?: number; quotaBytes?: number };
  /** Bounds of one user's strategies (count, versions, bytes); defaults when absent. */
  strategyLimits?: StrategyLimits;
  /** Origins besides the page's own that may open the log socket (PUBLIC_ORIGIN). */
  publicOrigins?: readonly string[];
  /** The node's broker: printed lines reach log sockets on every node (none: this node's). */
  broker?: Broker;
  /** Reads, checks and computes a large result off the event loop (the body workers). */
  evaluateInWorker?: BacktestDeps['evaluateInWorker'];
  evaluateTrialsInWorker?: BacktestDeps['evaluateTrialsInWorker'];
  /** A large result of a run on several feeds, likewise. */
  evaluateFeedsInWorker?: BacktestDeps['evaluateFeedsInWorker'];
};

/**
 * Strategies, results, backtests and the log socket. The sandbox checks itself on the first
 * run (or when main.ts calls `sandbox.start()` at start-up) and dies with the app.
 */
export function registerBacktest(
  app: FastifyInstance,
  options: BacktestModuleOptions,
): BacktestModule {
  const sandbox = new SandboxPool(options.sandbox ?? DEFAULT_SANDBOX_SETTINGS, {
    info: (message) => app.log.info(message),
    warn: (message) => app.log.warn(message),
    error: (message) => app.log.error(message),
  });
  const logs = new LogHub(options.logSockets, options.broker ?? null, options.now);
  const resultLimits = {
    maxBytes: options.results?.maxBytes ?? DEFAULT_RESULT_LIMITS.maxBytes,
    quotaBytes: options.results?.quotaBytes ?? DEFAULT_RESULT_LIMITS.quotaBytes,
  };
  // a stored run joins its strategy's run history (the strategy service comes second: it
  // reads runs through the backtest service, which waits for their writes)
  let strategies: StrategyService | null = null;
  const service = createBacktestService({
    db: options.db,
    pool: sandbox,
    logs,
    market: options.market,
    now: options.now,
    loadImported: options.loadImported,
    ...(options.evaluateInWorker ? { evaluateInWorker: options.evaluateInWorker } : {}),
    ...(options.evaluateTrialsInWorker
      ? { evaluateTrialsInWorker: options.evaluateTrialsInWorker }
      : {}),
    ...(options.evaluateFeedsInWorker
      ? { evaluateFeedsInWorker: options.evaluateFeedsInWorker }
      : {}),
    onStoreError: (error) => app.log.error({ err: error }, 'a backtest run could not be stored'),
    afterStore: async (run) => {
      await strategies?.keepRunResult(run);
    },
  });
  strategies = createStrategyService(
    options.db,
    options.now,
    service.findRun,
    resultLimits,
    service.storedFor,
    options.strategyLimits,
  );
  backtestRoutes(app, service, logs, sandbox, options.publicOrigins);
  strategyRoutes(app, strategies, resultLimits.maxBytes);
  app.addHook('onClose', async () => {
    await sandbox.close();
    await service.flush();
    logs.close();
  });
  return { sandbox, service, strategies, logs };
}
