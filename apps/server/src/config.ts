import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { normalizeOrigin } from './http/origin.ts';
import { aiConfigFromEnv, aiEnv, type AiConfig } from './modules/ai/config.ts';
import { alertEnv, alertSettingsFromEnv, type AlertSettings } from './modules/alerts/settings.ts';
import {
  sandboxEnv,
  sandboxSettingsFromEnv,
  type SandboxSettings,
} from './modules/backtest/sandbox/settings.ts';
import { clusterEnv, deploymentSettingsFromEnv } from './modules/cluster/settings.ts';
import type { Role } from './modules/cluster/roles.ts';
import { gatewayEnv, gatewaySettingsFromEnv } from './modules/gateway/settings.ts';
import { healthEnv, metricsTokenFromEnv } from './modules/health/settings.ts';
import {
  liveRunEnv,
  liveRunSettingsFromEnv,
  type LiveRunSettings,
} from './modules/live-runs/settings.ts';
import { marketEnv, marketSettingsFromEnv } from './modules/market/settings.ts';
import { notificationsEnv, notificationsKeepFromEnv } from './modules/notifications/settings.ts';
import {
  optimizationEnv,
  optimizationSettingsFromEnv,
  type OptimizationSettings,
} from './modules/optimization/settings.ts';
import type { StrategyLimits } from './modules/strategy/limits.ts';
import { strategyEnv, strategySettingsFromEnv } from './modules/strategy/settings.ts';
import { tradingEnv, tradingSettingsFromEnv } from './modules/trading/settings.ts';

/** Everything the server reads from its environment, parsed once at start. */
export type Config = {
  port: number;
  host: string;
  /** Absolute; PGlite lives in `<dataDir>/pglite`. */
  dataDir: string;
  /** PostgreSQL connection string; null means the embedded PGlite database. */
  databaseUrl: string | null;
  demoPassword: string;
  sessionTtlHours: number;
  /** Absolute path of the built web app (index.html and assets). */
  webDist: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Seed of the market simulator: the same seed gives the same prices. */
  marketSeed: number;
  /** HS256 secret of live connection and subscription tokens; shared by all nodes. */
  liveTokenSecret: string;
  /** Walls and limits of the Python strategy sandbox (docs/backtest.md); defaults when absent. */
  sandbox?: SandboxSettings;
  /** The AI assistant's endpoints, key encryption, timeouts and rate (modules/ai/config.ts). */
  ai?: AiConfig;
  /** MARKET_TEST_CONTROL=1: the test-only routes that pin quotes. Never on in production. */
  marketTestControl?: boolean;
  /**
   * MARKET_LOAD_CONTROL=1: the performance page's bounded feed load (POST /api/market/load).
   * Off unless set; production leaves it off.
   */
  marketLoadControl?: boolean;
  /** MARGIN_WARNING_LEVEL: the margin level (percent) below which an account is warned. */
  marginWarningLevel?: number;
  /** NOTIFICATIONS_KEEP: notifications kept per user, the newest (modules/notifications). */
  notificationsKeep?: number;
  /**
   * PUBLIC_ORIGIN: origins (comma-separated, e.g. `https://trade.example.com`) besides the
   * page's own that may open the WebSockets; behind a proxy that rewrites `Host`.
   */
  publicOrigins?: string[];
  /**
   * FRAME_ANCESTORS: origins (comma-separated, e.g. `https://portal.example.com`) whose pages
   * may embed ours in a frame and talk the frame protocol with them; empty (unset): our own
   * origin only (http/security-headers.ts, http/static.ts).
   */
  frameAncestors?: string[];
  /**
   * REQUEST_TIMEOUT_MS: time to receive a whole request (headers and body); a client that
   * stalls is answered 408 and cut. Bounds uploads too (a 48 MiB backtest body).
   */
  requestTimeoutMs?: number;
  /**
   * TRUST_PROXY: which proxies' X-Forwarded-For/-Proto are believed (client address of the
   * login limits, `https` for Secure cookies): false (unset, `0`), true (`1`: any peer, only
   * when the port is reachable through the proxy alone) or addresses/CIDRs (`127.0.0.1,10.0.0.0/8`).
   */
  trustProxy?: boolean | string;
  /** STRATEGY_RESULT_MAX_MB: the largest saved strategy result (deals, figures and log). */
  resultMaxBytes?: number;
  /** STRATEGY_RESULTS_QUOTA_MB: all saved results of one user together. */
  resultQuotaBytes?: number;
  /**
   * STRATEGY_MAX_PER_USER, STRATEGY_VERSIONS_KEPT, STRATEGY_STORAGE_MB: one user's strategies
   * in count, versions kept per strategy, and bytes of all their code and versions together.
   */
  strategyLimits?: StrategyLimits;
  /** IMPORTS_MAX_PER_USER / IMPORT_ROWS_MAX_PER_USER: a user's imported instruments, and their bars together. */
  importLimits?: { maxCount: number; maxRows: number };
  /** BODY_WORKERS: threads that parse and validate large bodies off the event loop. */
  bodyWorkers?: number;
  /** ROLES (or `--role`): what this process runs; every role when absent (modules/cluster). */
  roles?: Role[];
  /**
   * REDIS_URL (`redis://host:port`, `rediss://…` or `unix:///path/redis.sock`): live
   * publications and the quote cache shared by every node; null keeps them in-process.
   */
  redisUrl?: string | null;
  /** LIVE_RUN_*: the bounds of forward tests on paper (modules/live-runs/settings.ts). */
  liveRuns?: Partial<LiveRunSettings>;
  /** ALERTS_MAX_PER_USER, ALERT_WEBHOOK_*: the bounds of alerts and webhooks (modules/alerts/settings.ts). */
  alerts?: Partial<AlertSettings>;
  /** OPTIMIZATION_*: the bounds of parameter optimisation (modules/optimization/settings.ts). */
  optimization?: Partial<OptimizationSettings>;
  /** DATABASE_POOL_SIZE: connections of this process's PostgreSQL pool (DATABASE_URL). */
  databasePoolSize?: number;
  /**
   * ORDER_COMMIT: `group` (default) commits the API's account commands of many accounts in
   * one transaction (modules/trading/order-writer.ts); `single`, one transaction each.
   * ORDER_BATCH_MAX / ORDER_BATCH_WINDOW_MS: a batch's size and how long an idle writer
   * waits for more (0: one event-loop turn).
   */
  orderCommit?: { mode: 'group' | 'single'; maxBatch: number; windowMs: number };
  /**
   * METRICS_TOKEN: `/metrics` wants `Authorization: Bearer <token>`; null (unset): `/metrics`
   * answers direct loopback requests only.
   */
  metricsToken?: string | null;
  /** SHUTDOWN_GRACE_MS: how long SIGTERM waits for running requests and backtests. */
  shutdownGraceMs?: number;
  /** LOG_REQUESTS=1: one JSON log line per answered request (route, status, ms, reqId). */
  logRequests?: boolean;
  /**
   * CENTRIFUGO_API_URL (`http://centrifugo:8000/api`) and CENTRIFUGO_API_KEY: publish live
   * data to a Centrifugo cluster through its HTTP API (docs/operations.md); null: not used.
   */
  centrifugo?: { apiUrl: string; apiKey: string } | null;
};

/** The default of REQUEST_TIMEOUT_MS. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** The default of SHUTDOWN_GRACE_MS: a backtest's default time limit (30 s) and some. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 35_000;

/** The repository root, found from this file rather than the working directory. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/*
 * The environment: what the process as a whole reads, composed with each module's own part
 * (`modules/<m>/settings.ts`: its variables' zod shape and what they become). A module owns
 * and parses its settings; this file only joins them and names the variable in refusals.
 */
const processEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DEMO_PASSWORD: z.string().min(1).default('demo1234'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(168),
  WEB_DIST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_ORIGIN: z.string().optional(),
  FRAME_ANCESTORS: z.string().optional(),
  REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(DEFAULT_REQUEST_TIMEOUT_MS),
  TRUST_PROXY: z.string().optional(),
  BODY_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(DEFAULT_SHUTDOWN_GRACE_MS),
  LOG_REQUESTS: z.enum(['0', '1', 'true', 'false']).default('0'),
});

const envSchema = z.object({
  ...processEnv.shape,
  ...marketEnv.shape,
  ...gatewayEnv.shape,
  ...sandboxEnv.shape,
  ...strategyEnv.shape,
  ...aiEnv.shape,
  ...tradingEnv.shape,
  ...notificationsEnv.shape,
  ...healthEnv.shape,
  ...clusterEnv.shape,
  ...liveRunEnv.shape,
  ...optimizationEnv.shape,
  ...alertEnv.shape,
});

/** A module's settings from the environment; its refusal becomes a ConfigError. */
function moduleSettings<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ConfigError(`Invalid environment: ${(error as Error).message}`, { cause: error });
  }
}

/** Thrown when an environment variable has an unusable value; the message names it. */
export class ConfigError extends Error {}

/** TRUST_PROXY as Fastify's `trustProxy`: off, any peer, or a list of addresses/CIDRs. */
export function parseTrustProxy(text: string | undefined): boolean | string {
  const value = (text ?? '').trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  const parts = value.split(',').map((part) => part.trim());
  if (
    parts.some((part) => !/^[0-9a-f.:]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(part))
  ) {
    throw new ConfigError(
      `Invalid environment: TRUST_PROXY: ${text} is not 0, 1 or a list of addresses/CIDRs`,
    );
  }
  return parts.join(',');
}

/** A comma-separated list of origins (`https://host[:port]`), normalized and without repeats. */
function parseOrigins(name: string, text: string | undefined): string[] {
  const origins: string[] = [];
  for (const part of (text ?? '').split(',').filter((t) => t.trim() !== '')) {
    const origin = normalizeOrigin(part);
    if (origin === null) {
      throw new ConfigError(
        `Invalid environment: ${name}: ${part.trim()} is not an origin like https://host[:port]`,
      );
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

/**
 * Reads the configuration. Relative DATA_DIR and WEB_DIST are taken from `cwd` (the product
 * is started from the repo root); the default WEB_DIST is apps/web/dist of this repository.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid environment: ${detail}`);
  }
  const e = parsed.data;
  const publicOrigins = parseOrigins('PUBLIC_ORIGIN', e.PUBLIC_ORIGIN);
  const frameAncestors = parseOrigins('FRAME_ANCESTORS', e.FRAME_ANCESTORS);
  const strategy = moduleSettings(() => strategySettingsFromEnv(e));
  const sandbox = moduleSettings(() => sandboxSettingsFromEnv(e));
  const deployment = moduleSettings(() => deploymentSettingsFromEnv(e));
  const gateway = moduleSettings(() => gatewaySettingsFromEnv(e));
  const ai = moduleSettings(() => aiConfigFromEnv(e, cwd));
  const market = marketSettingsFromEnv(e);
  const trading = tradingSettingsFromEnv(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    demoPassword: e.DEMO_PASSWORD,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    webDist: e.WEB_DIST ? path.resolve(cwd, e.WEB_DIST) : path.join(REPO_ROOT, 'apps/web/dist'),
    logLevel: e.LOG_LEVEL,
    marketSeed: market.marketSeed,
    liveTokenSecret: gateway.liveTokenSecret,
    sandbox,
    ai,
    marketTestControl: market.marketTestControl,
    marketLoadControl: market.marketLoadControl,
    marginWarningLevel: trading.marginWarningLevel,
    notificationsKeep: notificationsKeepFromEnv(e),
    publicOrigins,
    frameAncestors,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    ...strategy,
    importLimits: market.importLimits,
    bodyWorkers: e.BODY_WORKERS,
    roles: deployment.roles,
    redisUrl: deployment.redisUrl,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    orderCommit: trading.orderCommit,
    liveRuns: liveRunSettingsFromEnv(e),
    alerts: alertSettingsFromEnv(e),
    optimization: optimizationSettingsFromEnv(e),
    metricsToken: metricsTokenFromEnv(e),
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logRequests: e.LOG_REQUESTS === '1' || e.LOG_REQUESTS === 'true',
    centrifugo: gateway.centrifugo,
  };
}
