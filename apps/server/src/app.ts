import fastifyCookie from '@fastify/cookie';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { DEFAULT_REQUEST_TIMEOUT_MS, type Config } from './config.ts';
import type { Db } from './db/types.ts';
import { installErrorHandlers } from './http/error-handler.ts';
import { frameworkErrors } from './http/framework-errors.ts';
import { installPathParamGuard } from './http/path-params.ts';
import { installBodyParsers } from './http/body-parsers.ts';
import { DEFAULT_BODY_WORKERS, createBodyWorkers } from './workers/body-workers.ts';
import { installCsrfGuard } from './http/csrf.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerOpenApi } from './http/openapi.ts';
import { installRouteSchemas } from './http/route-schemas.ts';
import { registerWebApp } from './http/static.ts';
import { installGuard } from './modules/auth/guard.ts';
import { LoginThrottle } from './modules/auth/login-limits.ts';
import { MemoryRateLimitStore, type RateLimitStore } from './modules/auth/rate-limit-store.ts';
import type { Clock } from './modules/auth/rate-limit.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { registerAi, type AiModule } from './modules/ai/module.ts';
import { registerAlerts, type AlertsModule } from './modules/alerts/module.ts';
import { registerBacktest, type BacktestModule } from './modules/strategy/module.ts';
import { registerOptimization, type OptimizationModule } from './modules/optimization/module.ts';
import { registerCharts } from './modules/charts/module.ts';
import { registerLiveRuns, type LiveRunsModule } from './modules/live-runs/module.ts';
import { registerReplays, type ReplaysModule } from './modules/replays/module.ts';
import { createAuthService } from './modules/auth/service.ts';
import {
  InProcessBroker,
  SESSION_ENDED_CHANNEL,
  isInternalChannel,
  sessionEndedSchema,
  type Broker,
} from './modules/gateway/broker.ts';
import { DEFAULT_GATEWAY_OPTIONS, GatewayHub } from './modules/gateway/hub.ts';
import { createGatewayPolicy } from './modules/gateway/policy.ts';
import { gatewayRoutes } from './modules/gateway/routes.ts';
import { installWebSocketGuards, webSocketErrorHandler } from './modules/gateway/upgrade.ts';
import { installOperations } from './modules/health/operations.ts';
import { REQUEST_ID_OPTIONS } from './modules/health/request-id.ts';
import { MarketFeed } from './modules/market/feed.ts';
import { MarketData } from './modules/market/market-data.ts';
import { importRoutes } from './modules/market/imports/routes.ts';
import { DEFAULT_IMPORT_LIMITS, createImportService } from './modules/market/imports/service.ts';
import { marketRoutes } from './modules/market/routes.ts';
import {
  localPins,
  marketTestControlRoutes,
  type QuotePins,
} from './modules/market/test-control.ts';
import { registerNotifications, type NotificationsModule } from './modules/notifications/module.ts';
import { recordMarginWarning, recordTradingFacts } from './modules/notifications/trading.ts';
import {
  notifyAiTaskEnded,
  notifyAlertFired,
  notifyLiveRunFailed,
  notifyOptimizationEnded,
} from './modules/notifications/work.ts';
import { registerTrading, type TradingModule } from './modules/trading/module.ts';

export type AppOptions = {
  db: Db;
  config: Config;
  /** Epoch milliseconds; tests pass a fake clock to expire sessions and rate-limit windows. */
  now?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Shared market data (tests reuse one; building it parses the shipped history). */
  market?: MarketData;
  /** Run the live feed's timer (the server does; tests drive `feed.poll()` by hand). */
  runFeed?: boolean;
  /** Where publications go: in-process by default; Redis across nodes (modules/cluster). */
  broker?: Broker;
  /** The test-only quote pins: this process's feed by default; the cluster's active feed. */
  testPins?: (local: QuotePins) => QuotePins;
  /** The login and chat limits' counters: in memory by default; shared (Redis) across nodes. */
  rateLimitStore?: RateLimitStore;
  /** Holds a slowed login until its turn; tests pass one that moves their clock instead. */
  sleep?: (ms: number) => Promise<void>;
};

/** The parts of the running product other modules and tests reach through the app. */
export type Services = {
  market: MarketData;
  feed: MarketFeed;
  broker: Broker;
  hub: GatewayHub;
  trading: TradingModule;
  alerts: AlertsModule;
  backtest: BacktestModule;
  ai: AiModule;
  liveRuns: LiveRunsModule;
  replays: ReplaysModule;
  optimization: OptimizationModule;
  notifications: NotificationsModule;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/**
 * Fastify's request timeouts: the whole request within `ms`; Node checks pending requests
 * every `connectionsCheckingInterval`, so a stalled one is cut within `ms` plus that.
 */
function requestTimeouts(ms: number) {
  return {
    requestTimeout: ms,
    http: {
      headersTimeout: Math.min(ms, 60_000),
      connectionsCheckingInterval: Math.min(5000, Math.max(100, Math.floor(ms / 4))),
    },
  };
}

/** Builds the HTTP app from its modules without listening (tests call it with `inject`). */
export async function buildApp({
  db,
  config,
  now = Date.now,
  logger = false,
  market = new MarketData(config.marketSeed),
  runFeed = false,
  broker = new InProcessBroker(),
  testPins,
  rateLimitStore = new MemoryRateLimitStore(),
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // One line per request in JSON is noise on a laptop; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // `x-request-id` from a proxy (when it looks like an id) or a new UUID, on every log line
    ...REQUEST_ID_OPTIONS,
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For/-Proto only from the proxies TRUST_PROXY names (login limits, Secure cookies)
    trustProxy: config.trustProxy ?? false,
    // Bad percent-encoding or an over-long path parameter: a 400/414 in the family's shape.
    frameworkErrors,
    // a request (headers and body) must arrive whole within this, or it is answered 408 and
    // cut: a client that promised 100 bytes and sent 5 does not hold its connection
    ...requestTimeouts(config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
  });
  const bodyWorkers = createBodyWorkers(config.bodyWorkers ?? DEFAULT_BODY_WORKERS);
  app.addHook('onClose', () => bodyWorkers.close());
  installBodyParsers(app, bodyWorkers);
  await registerSecurityHeaders(app, config.frameAncestors ?? []);
  installCsrfGuard(app, config.publicOrigins ?? []);
  await app.register(fastifyCookie);
  await app.register(fastifyWebsocket, {
    options: { maxPayload: DEFAULT_GATEWAY_OPTIONS.maxMessageBytes },
    errorHandler: webSocketErrorHandler,
  });
  installWebSocketGuards(app);
  const webApp = { dist: config.webDist, frameAncestors: config.frameAncestors ?? [] };
  installErrorHandlers(app, webApp);
  installPathParamGuard(app);

  const auth = createAuthService({
    db,
    now,
    sessionTtlHours: config.sessionTtlHours,
    limiter: new LoginThrottle(rateLimitStore, now),
    sleep,
  });
  installGuard(app, auth);
  // Before any route: routes declare zod input schemas, and the OpenAPI document collects them.
  installRouteSchemas(app);
  await registerOpenApi(app);

  const feed = new MarketFeed(market, broker, now);
  const hub = new GatewayHub(
    createGatewayPolicy({
      secret: config.liveTokenSecret,
      now,
      isKnownSymbol: (s) => market.has(s),
      isSessionLive: (sessionId) => auth.isSessionLive(sessionId),
    }),
    DEFAULT_GATEWAY_OPTIONS,
    now,
  );
  const stopListening = broker.listen(({ channel, data }) => {
    if (channel === SESSION_ENDED_CHANNEL) {
      const ended = sessionEndedSchema.safeParse(data);
      if (!ended.success) return;
      auth.forgetSession(ended.data.sessionId);
      hub.endSession(ended.data.sessionId);
      return;
    }
    if (!isInternalChannel(channel)) hub.publish(channel, data);
  });
  // a logout ends the live connections and private subscriptions its tokens opened, on
  // every node: the broker carries it (Redis between nodes); a node that missed it still
  // stops at its tokens' refresh, within LIVE_TOKEN_TTL_SECONDS
  auth.onSessionEnded((sessionId) => broker.publish(SESSION_ENDED_CHANNEL, { sessionId }));
  // before the modules that record notifications: they get its context
  const notifications = registerNotifications(app, {
    db,
    broker,
    now,
    liveTokenSecret: config.liveTokenSecret,
    keep: config.notificationsKeep,
  });
  const trading = await registerTrading(app, {
    db,
    market,
    feed,
    broker,
    now,
    liveTokenSecret: config.liveTokenSecret,
    marginWarningLevel: config.marginWarningLevel,
    runTimers: runFeed,
    notify: (tx, facts) => recordTradingFacts(notifications.context, tx, facts),
    notifyMarginWarning: (tx, uuid, warning) =>
      recordMarginWarning(notifications.context, tx, uuid, warning),
    orderCommit: config.orderCommit,
  });
  // price, channel, line and indicator alerts, judged beside the trigger engine
  const alerts = await registerAlerts(app, {
    db,
    market,
    feed,
    broker,
    now,
    liveTokenSecret: config.liveTokenSecret,
    settings: config.alerts,
    runTimers: runFeed,
    onFired: (fired) => notifyAlertFired(notifications.context, fired.userId, fired.entry),
  });
  const imports = createImportService(db, now, {
    parseCsv: (csv) => bodyWorkers.csv(csv),
    limits: config.importLimits ?? DEFAULT_IMPORT_LIMITS,
  });
  const backtest = registerBacktest(app, {
    db,
    market,
    now,
    sandbox: config.sandbox,
    publicOrigins: config.publicOrigins,
    broker,
    results: { maxBytes: config.resultMaxBytes, quotaBytes: config.resultQuotaBytes },
    ...(config.strategyLimits ? { strategyLimits: config.strategyLimits } : {}),
    loadImported: (userId, symbol, period, limit, endBefore) =>
      imports.bars(userId, symbol, period, endBefore, limit),
    evaluateInWorker: (bytes, input, piece, withTrades) =>
      bodyWorkers.backtest(bytes, input, piece, withTrades),
    evaluateTrialsInWorker: (lines, on, objective, withDetail) =>
      bodyWorkers.trials(lines, on, objective, withDetail),
    evaluateFeedsInWorker: (bytes, instruments, memoryBytes, piece, withTrades) =>
      bodyWorkers.feeds(bytes, instruments, memoryBytes, piece, withTrades),
  });
  const ai = registerAi(app, {
    db,
    now,
    dataDir: config.dataDir,
    config: config.ai,
    rateLimitStore,
    backtest: backtest.service,
    strategies: backtest.strategies,
    onTaskEnded: (id) => notifyAiTaskEnded(notifications.context, id),
  });
  // forward tests on paper; main.ts starts the runner in the worker role (startRunner)
  const liveRuns = registerLiveRuns(app, {
    db,
    market,
    feed,
    trading: trading.context,
    backtest,
    now,
    settings: config.liveRuns,
    onFailed: (run, bar, error, stopped) =>
      notifyLiveRunFailed(notifications.context, run, bar, error, stopped),
  });
  // bar replay sessions: a strategy in replay runs with the live-run contract and window
  const replays = registerReplays(app, {
    db,
    market,
    backtest,
    now,
    windowBars: () => liveRuns.settings.windowBars,
  });
  // parameter optimisation; main.ts starts the trial worker in the worker role
  const optimization = registerOptimization(app, {
    db,
    backtest,
    now,
    settings: config.optimization,
    onTrialKept: (id) => notifyOptimizationEnded(notifications.context, id),
    summarize: (input) => bodyWorkers.summary(input),
    warmWorkers: () => bodyWorkers.warm(),
  });
  app.decorate('services', {
    market,
    feed,
    broker,
    hub,
    trading,
    alerts,
    backtest,
    ai,
    liveRuns,
    replays,
    optimization,
    notifications,
  });
  app.addHook('onClose', async () => {
    feed.stop();
    stopListening();
    hub.close();
  });
  if (runFeed) app.addHook('onListen', async () => feed.start());

  // /healthz, /readyz, /metrics, request ids, the in-flight count graceful shutdown waits on
  installOperations(app, {
    db,
    now,
    hub,
    sandbox: backtest.sandbox,
    checkSandbox: config.roles?.includes('api') ?? true,
    metricsToken: config.metricsToken ?? null,
    logRequests: config.logRequests ?? false,
  });
  authRoutes(app, auth);
  marketRoutes(app, market, imports, now, config.marketLoadControl ?? false);
  if (config.marketTestControl) {
    const settled = () =>
      Promise.all([trading.engine.whenIdle(), alerts.engine.whenIdle()]).then(() => undefined);
    const control = { market, feed, now, settled };
    marketTestControlRoutes(app, { ...control, pins: testPins?.(localPins(control)) });
  }
  importRoutes(app, imports);
  registerCharts(app, {
    db,
    now,
    isKnownSymbol: async (userId, symbol) =>
      market.has(symbol) || (await imports.list(userId)).some((i) => i.symbol === symbol),
    broker,
    liveTokenSecret: config.liveTokenSecret,
  });
  gatewayRoutes(app, hub, now, config.publicOrigins);
  await registerWebApp(app, webApp);
  return app;
}
