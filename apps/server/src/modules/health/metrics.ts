import { createHash, timingSafeEqual } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { aiTasks } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { operationCounts } from './counters.ts';

/** Where Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/** What `/metrics` reads from the running app at scrape time. */
export type MetricsSources = {
  db: Db;
  /** The live gateway's hub. */
  live: { connectionCount: number; subscriptionCount: number; publicationCount: number };
  /** The strategy sandbox's run slots and queue. */
  backtests: { runningCount(): number; queuedCount(): number };
};

export type MetricsOptions = {
  /**
   * METRICS_TOKEN: when set, `/metrics` wants `Authorization: Bearer <token>` from anywhere;
   * when null, it answers direct loopback requests only (no proxy in between).
   */
  token: string | null;
};

const AI_TASK_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;

/** Seconds; from a cached read (1 ms) to a long backtest request (30 s). */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Process metrics (CPU, memory, GC, event-loop lag) belong to the process, not to an app:
 * one registry, started once, whatever number of apps a process builds (tests build many).
 */
let processRegistry: Registry | null = null;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The route pattern of a request (`/api/backtest/runs/:runId`), never its raw URL. */
export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? '(unmatched)';
}

/** Is this request from this machine, straight, not relayed by a proxy? */
function isDirectLoopback(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  const loopback =
    address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  const relayed =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return loopback && !relayed;
}

function sameSecret(given: string, expected: string): boolean {
  // hashes have one length, so the comparison takes the same time whatever was sent
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Why a scrape is refused (status and detail), or null when it may read the metrics. */
export function metricsRefusal(
  request: FastifyRequest,
  token: string | null,
): { status: 401 | 403; detail: string } | null {
  if (token === null) {
    return isDirectLoopback(request)
      ? null
      : {
          status: 403,
          detail:
            'Metrics are served to this machine only; set METRICS_TOKEN to read them remotely',
        };
  }
  const header = request.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return given !== '' && sameSecret(given, token)
    ? null
    : { status: 401, detail: 'A valid metrics token is required (Authorization: Bearer …)' };
}

/**
 * Prometheus metrics of one app: HTTP latency by route, live connections, subscriptions and
 * publications, orders, backtests running and queued, AI tasks by status (one grouped count
 * at scrape time), and the process's default metrics (event-loop lag among them).
 */
export function installMetrics(
  app: FastifyInstance,
  sources: MetricsSources,
  options: MetricsOptions,
): Registry {
  const registry = new Registry();
  const httpLatency = new Histogram({
    name: 'ct_http_request_duration_seconds',
    help: 'Time from the request to the end of its response, by route pattern',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const { live, backtests } = sources;
  new Gauge({
    name: 'ct_live_connections',
    help: 'Live gateway WebSocket connections',
    registers: [registry],
    collect() {
      this.set(live.connectionCount);
    },
  });
  new Gauge({
    name: 'ct_live_subscriptions',
    help: 'Channel subscriptions of the live gateway connections',
    registers: [registry],
    collect() {
      this.set(live.subscriptionCount);
    },
  });
  new Counter({
    name: 'ct_live_publications_total',
    help: 'Publications handed to the live gateway (ticks and account events)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(live.publicationCount);
    },
  });
  new Counter({
    name: 'ct_orders_total',
    help: 'Trading commands (place, close, cancel, change) committed through the API, in this process',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(operationCounts.orders);
    },
  });
  new Gauge({
    name: 'ct_backtests_running',
    help: 'Strategy runs holding a sandbox slot',
    registers: [registry],
    collect() {
      this.set(backtests.runningCount());
    },
  });
  new Gauge({
    name: 'ct_backtests_queued',
    help: 'Strategy runs waiting for a sandbox slot',
    registers: [registry],
    collect() {
      this.set(backtests.queuedCount());
    },
  });
  new Gauge({
    name: 'ct_ai_tasks',
    help: 'AI strategy tasks by status (all nodes: counted in the database)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await sources.db
          .select({ status: aiTasks.status, n: count() })
          .from(aiTasks)
          .groupBy(aiTasks.status);
        this.reset();
        for (const status of AI_TASK_STATUSES) this.set({ status }, 0);
        for (const row of rows) this.set({ status: row.status }, Number(row.n));
      } catch (error) {
        // an unreachable database shows in /readyz; the rest of the scrape still answers
        this.reset();
        app.log.warn({ err: error }, 'metrics: AI tasks could not be counted');
      }
    },
  });
  const shared = processMetrics();

  app.addHook('onResponse', (request, reply, done) => {
    httpLatency.observe(
      { method: request.method, route: routeLabel(request), status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get(METRICS_PATH, async (request, reply) => {
    const refusal = metricsRefusal(request, options.token);
    if (refusal) {
      if (refusal.status === 401) reply.header('www-authenticate', 'Bearer');
      return reply.code(refusal.status).send({ detail: refusal.detail });
    }
    const text = (await shared.metrics()) + (await registry.metrics());
    return reply.header('content-type', registry.contentType).send(text);
  });
  return registry;
}
