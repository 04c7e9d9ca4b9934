import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  DEFAULT_AI_CONFIG,
  DEFAULT_OLLAMA_BASE_URL,
  loadExtraProviders,
  type AiConfig,
} from './modules/ai/config.ts';
import {
  DEFAULT_SANDBOX_SETTINGS,
  MIB,
  type SandboxSettings,
} from './modules/backtest/sandbox/settings.ts';
import type { AlertSettings } from './modules/alerts/settings.ts';
import { isWebhookAllowEntry } from './modules/alerts/ssrf.ts';
import { parseRoles, RolesError, type Role } from './modules/cluster/roles.ts';
import { normalizeOrigin } from './http/origin.ts';
import type { LiveRunSettings } from './modules/live-runs/settings.ts';
import { DEFAULT_STRATEGY_LIMITS, type StrategyLimits } from './modules/strategy/limits.ts';
import type { OptimizationSettings } from './modules/optimization/settings.ts';

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

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().optional(),
  DEMO_PASSWORD: z.string().min(1).default('demo1234'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(168),
  WEB_DIST: z.string().min(1).optional(),
  MARKET_SEED: z.coerce.number().int().min(0).max(4294967295).default(1),
  LIVE_TOKEN_SECRET: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BACKTEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  BACKTEST_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(512),
  BACKTEST_POOL_SIZE: z.coerce.number().int().min(0).max(16).default(2),
  BACKTEST_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  BACKTEST_PYTHON: z.string().min(1).default('/usr/bin/python3'),
  BACKTEST_EXTRA_RO_PATHS: z.string().optional(),
  BACKTEST_UID_BASE: z.coerce.number().int().min(1000).max(4_294_900_000).default(64_000),
  ALLOW_UNSANDBOXED_PYTHON: z.enum(['0', '1', 'true', 'false']).default('0'),
  OLLAMA_BASE_URL: z.url({ protocol: /^https?$/ }).default(DEFAULT_OLLAMA_BASE_URL),
  AI_EXTRA_PROVIDERS: z.string().optional(),
  SETTINGS_ENCRYPTION_KEY: z.string().min(32).optional(),
  AI_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  AI_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  AI_ANSWER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  AI_ANSWER_MAX_CHARS: z.coerce.number().int().min(1000).max(100_000_000).default(300_000),
  AI_CHAT_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  AI_TASK_CONCURRENCY: z.coerce.number().int().min(0).max(32).default(2),
  AI_TASK_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  AI_TASK_MODEL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  AI_TASK_MAX_PENDING_PER_USER: z.coerce.number().int().min(1).max(10_000).default(10),
  AI_TASK_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  AI_TASK_BARS: z.coerce.number().int().min(50).max(5000).default(1000),
  MARKET_TEST_CONTROL: z.enum(['0', '1', 'true', 'false']).default('0'),
  MARKET_LOAD_CONTROL: z.enum(['0', '1', 'true', 'false']).default('0'),
  MARGIN_WARNING_LEVEL: z.coerce.number().min(0).max(100_000).default(100),
  NOTIFICATIONS_KEEP: z.coerce.number().int().min(10).max(100_000).default(200),
  PUBLIC_ORIGIN: z.string().optional(),
  FRAME_ANCESTORS: z.string().optional(),
  REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(DEFAULT_REQUEST_TIMEOUT_MS),
  TRUST_PROXY: z.string().optional(),
  STRATEGY_RESULT_MAX_MB: z.coerce.number().int().min(1).max(1024).default(8),
  STRATEGY_RESULTS_QUOTA_MB: z.coerce.number().int().min(1).max(65_536).default(64),
  STRATEGY_MAX_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_STRATEGY_LIMITS.maxStrategies),
  STRATEGY_VERSIONS_KEPT: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(DEFAULT_STRATEGY_LIMITS.versionsPerStrategy),
  // at least 1 MiB: the largest code (256 Ki characters) fits
  STRATEGY_STORAGE_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(65_536)
    .default(DEFAULT_STRATEGY_LIMITS.quotaBytes / MIB),
  BACKTEST_MAX_PER_USER: z.coerce.number().int().min(1).max(32).optional(),
  IMPORTS_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  IMPORT_ROWS_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000_000).default(2_000_000),
  BODY_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  ROLES: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^(rediss?|unix):\/\/./, 'must start with redis://, rediss:// or unix://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  ORDER_COMMIT: z.enum(['group', 'single']).default('group'),
  ORDER_BATCH_MAX: z.coerce.number().int().min(1).max(1000).default(64),
  ORDER_BATCH_WINDOW_MS: z.coerce.number().min(0).max(2).default(0),
  LIVE_RUN_MAX_PER_USER: z.coerce.number().int().min(1).max(1000).default(5),
  LIVE_RUN_WINDOW_BARS: z.coerce.number().int().min(10).max(5000).default(500),
  LIVE_RUN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  LIVE_RUN_KEEP_EVALUATIONS: z.coerce.number().int().min(10).max(1_000_000).default(1000),
  LIVE_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  OPTIMIZATION_MAX_TRIALS: z.coerce.number().int().min(1).max(100_000).default(1000),
  OPTIMIZATION_MAX_ACTIVE_PER_USER: z.coerce.number().int().min(1).max(1000).default(2),
  OPTIMIZATION_MAX_ACTIVE_PER_RUN: z.coerce.number().int().min(1).max(1000).default(2),
  OPTIMIZATION_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(2),
  OPTIMIZATION_MAX_OPEN_PER_USER: z.coerce.number().int().min(1).max(1000).default(3),
  OPTIMIZATION_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  ALERTS_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000).default(200),
  ALERT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  ALERT_WEBHOOK_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(65_536),
  ALERT_WEBHOOK_RETRY_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  ALERT_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
  ALERT_WEBHOOK_ALLOW: z
    .string()
    .optional()
    .refine(
      (text) =>
        (text ?? '')
          .split(',')
          .filter((t) => t.trim() !== '')
          .every(isWebhookAllowEntry),
      'must be a comma-separated list of hosts, addresses or CIDR ranges',
    ),
  METRICS_TOKEN: z.string().min(16).optional(),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(DEFAULT_SHUTDOWN_GRACE_MS),
  LOG_REQUESTS: z.enum(['0', '1', 'true', 'false']).default('0'),
  CENTRIFUGO_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  CENTRIFUGO_API_KEY: z.string().min(1).optional(),
});

/** One user's share of the backtest slots: half of them, at least one. */
export function defaultPerUser(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
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
  if (e.STRATEGY_RESULTS_QUOTA_MB < e.STRATEGY_RESULT_MAX_MB) {
    throw new ConfigError(
      'Invalid environment: STRATEGY_RESULTS_QUOTA_MB must be at least STRATEGY_RESULT_MAX_MB',
    );
  }
  if (e.BACKTEST_MAX_PER_USER !== undefined && e.BACKTEST_MAX_PER_USER > e.BACKTEST_CONCURRENCY) {
    throw new ConfigError(
      'Invalid environment: BACKTEST_MAX_PER_USER must be at most BACKTEST_CONCURRENCY',
    );
  }
  let roles: Role[];
  try {
    roles = parseRoles(e.ROLES);
  } catch (error) {
    if (!(error instanceof RolesError)) throw error;
    throw new ConfigError(`Invalid environment: ROLES: ${error.message}`);
  }
  // an api node without a feed (or a feed without an api node) reaches the other only
  // through Redis: without it the api would have no quotes and the feed no listeners
  if (!e.REDIS_URL && roles.includes('api') !== roles.includes('feed')) {
    throw new ConfigError(
      'Invalid environment: ROLES: api and feed in separate processes need REDIS_URL',
    );
  }
  if ((e.CENTRIFUGO_API_URL === undefined) !== (e.CENTRIFUGO_API_KEY === undefined)) {
    throw new ConfigError(
      'Invalid environment: CENTRIFUGO_API_URL and CENTRIFUGO_API_KEY go together',
    );
  }
  let extraProviders: AiConfig['extraProviders'];
  try {
    extraProviders = loadExtraProviders(e.AI_EXTRA_PROVIDERS, cwd);
  } catch (error) {
    throw new ConfigError(`Invalid environment: ${(error as Error).message}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    demoPassword: e.DEMO_PASSWORD,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    webDist: e.WEB_DIST ? path.resolve(cwd, e.WEB_DIST) : path.join(REPO_ROOT, 'apps/web/dist'),
    logLevel: e.LOG_LEVEL,
    marketSeed: e.MARKET_SEED,
    // one process by default: a random secret per start is enough (tokens live minutes)
    liveTokenSecret: e.LIVE_TOKEN_SECRET ?? randomBytes(32).toString('base64url'),
    sandbox: {
      ...DEFAULT_SANDBOX_SETTINGS,
      python: e.BACKTEST_PYTHON,
      timeoutMs: e.BACKTEST_TIMEOUT_MS,
      memoryBytes: e.BACKTEST_MEMORY_MB * MIB,
      warm: e.BACKTEST_POOL_SIZE,
      maxConcurrent: e.BACKTEST_CONCURRENCY,
      // a share below the global limit, so that one user never holds every slot
      maxPerUser: e.BACKTEST_MAX_PER_USER ?? defaultPerUser(e.BACKTEST_CONCURRENCY),
      uidBase: e.BACKTEST_UID_BASE,
      extraReadOnly: (e.BACKTEST_EXTRA_RO_PATHS ?? '').split(':').filter(Boolean),
      allowUnsandboxed: e.ALLOW_UNSANDBOXED_PYTHON === '1' || e.ALLOW_UNSANDBOXED_PYTHON === 'true',
    },
    ai: {
      ollamaBaseUrl: e.OLLAMA_BASE_URL,
      extraProviders,
      encryptionSecret: e.SETTINGS_ENCRYPTION_KEY ?? null,
      firstTokenTimeoutMs: e.AI_FIRST_TOKEN_TIMEOUT_MS,
      idleTimeoutMs: e.AI_IDLE_TIMEOUT_MS,
      answerTimeoutMs: e.AI_ANSWER_TIMEOUT_MS,
      answerMaxChars: e.AI_ANSWER_MAX_CHARS,
      chatRate: { ...DEFAULT_AI_CONFIG.chatRate, limit: e.AI_CHAT_RATE_LIMIT },
      tasks: {
        ...DEFAULT_AI_CONFIG.tasks,
        concurrency: e.AI_TASK_CONCURRENCY,
        maxRetries: e.AI_TASK_MAX_RETRIES,
        modelTimeoutMs: e.AI_TASK_MODEL_TIMEOUT_MS,
        maxPendingPerUser: e.AI_TASK_MAX_PENDING_PER_USER,
        leaseMs: e.AI_TASK_LEASE_MS,
        bars: e.AI_TASK_BARS,
      },
    },
    marketTestControl: e.MARKET_TEST_CONTROL === '1' || e.MARKET_TEST_CONTROL === 'true',
    marketLoadControl: e.MARKET_LOAD_CONTROL === '1' || e.MARKET_LOAD_CONTROL === 'true',
    marginWarningLevel: e.MARGIN_WARNING_LEVEL,
    notificationsKeep: e.NOTIFICATIONS_KEEP,
    publicOrigins,
    frameAncestors,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    resultMaxBytes: e.STRATEGY_RESULT_MAX_MB * MIB,
    resultQuotaBytes: e.STRATEGY_RESULTS_QUOTA_MB * MIB,
    strategyLimits: {
      maxStrategies: e.STRATEGY_MAX_PER_USER,
      versionsPerStrategy: e.STRATEGY_VERSIONS_KEPT,
      quotaBytes: e.STRATEGY_STORAGE_MB * MIB,
    },
    importLimits: { maxCount: e.IMPORTS_MAX_PER_USER, maxRows: e.IMPORT_ROWS_MAX_PER_USER },
    bodyWorkers: e.BODY_WORKERS,
    roles,
    redisUrl: e.REDIS_URL ?? null,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    orderCommit: {
      mode: e.ORDER_COMMIT,
      maxBatch: e.ORDER_BATCH_MAX,
      windowMs: e.ORDER_BATCH_WINDOW_MS,
    },
    liveRuns: {
      maxPerUser: e.LIVE_RUN_MAX_PER_USER,
      windowBars: e.LIVE_RUN_WINDOW_BARS,
      maxFailures: e.LIVE_RUN_MAX_FAILURES,
      keepEvaluations: e.LIVE_RUN_KEEP_EVALUATIONS,
      concurrency: e.LIVE_RUN_CONCURRENCY,
    },
    alerts: {
      maxPerUser: e.ALERTS_MAX_PER_USER,
      webhookTimeoutMs: e.ALERT_WEBHOOK_TIMEOUT_MS,
      webhookMaxBytes: e.ALERT_WEBHOOK_MAX_BYTES,
      webhookRetryMs: e.ALERT_WEBHOOK_RETRY_MS,
      webhookBackoffMs: e.ALERT_WEBHOOK_BACKOFF_MS,
      webhookAllow: (e.ALERT_WEBHOOK_ALLOW ?? '').split(',').filter((t) => t.trim() !== ''),
    },
    optimization: {
      maxTrials: e.OPTIMIZATION_MAX_TRIALS,
      maxActivePerUser: e.OPTIMIZATION_MAX_ACTIVE_PER_USER,
      maxActivePerOptimization: e.OPTIMIZATION_MAX_ACTIVE_PER_RUN,
      concurrency: e.OPTIMIZATION_CONCURRENCY,
      maxOpenPerUser: e.OPTIMIZATION_MAX_OPEN_PER_USER,
      leaseMs: e.OPTIMIZATION_LEASE_MS,
    },
    metricsToken: e.METRICS_TOKEN ?? null,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logRequests: e.LOG_REQUESTS === '1' || e.LOG_REQUESTS === 'true',
    centrifugo:
      e.CENTRIFUGO_API_URL && e.CENTRIFUGO_API_KEY
        ? { apiUrl: e.CENTRIFUGO_API_URL, apiKey: e.CENTRIFUGO_API_KEY }
        : null,
  };
}
