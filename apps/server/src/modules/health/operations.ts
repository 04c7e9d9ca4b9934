import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../auth/rate-limit.ts';
import type { SandboxPool } from '../backtest/sandbox/pool.ts';
import type { GatewayHub } from '../gateway/hub.ts';
import { installMetrics, METRICS_PATH } from './metrics.ts';
import { Readiness } from './readiness.ts';
import { installRequestLog } from './request-id.ts';
import { healthRoutes } from './routes.ts';

/** What the operations module gives the rest of the server (graceful shutdown, other roles). */
export type Operations = {
  /**
   * The checks of `/readyz`. Other parts register theirs, e.g. the feed election:
   * `app.operations.readiness.register('feed', () => leaderKnown() ? null : 'no feed leader yet')`.
   */
  readiness: Readiness;
  /** HTTP requests being handled now (WebSockets not counted). */
  inFlight(): number;
  /** From now on: `/readyz` answers 503 and new requests 503 with `Connection: close`. */
  startDraining(): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    operations: Operations;
  }
}

export type OperationsOptions = {
  db: Db;
  now: Clock;
  hub: GatewayHub;
  sandbox: SandboxPool;
  /** Register the sandbox's check (nodes that run backtests). */
  checkSandbox: boolean;
  /** METRICS_TOKEN; null: `/metrics` for loopback only. */
  metricsToken: string | null;
  /** LOG_REQUESTS: one JSON line per answered request. */
  logRequests: boolean;
};

/** Paths a draining node still answers: the probes that tell the balancer it is going. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', METRICS_PATH]);

/** Why the sandbox cannot take runs, or null when it can. */
export function sandboxProblem(sandbox: Pick<SandboxPool, 'status'>): string | null {
  const { state, reason } = sandbox.status();
  if (state === 'ready' || state === 'unsandboxed') return null;
  if (state === 'unavailable') return `unavailable: ${reason ?? 'unknown reason'}`;
  return 'still being checked';
}

/**
 * Health probes, readiness checks (the database, the sandbox; others register theirs),
 * Prometheus metrics, request ids in responses and logs, and the in-flight count and refusal
 * of new requests that graceful shutdown (lifecycle/shutdown.ts) relies on.
 */
export function installOperations(app: FastifyInstance, options: OperationsOptions): Operations {
  const readiness = new Readiness();
  readiness.register('database', async () => {
    try {
      await options.db.execute(sql`select 1`);
      return null;
    } catch (error) {
      // the error (host, port) goes to the log, not to an unauthenticated probe's answer
      app.log.warn({ err: error }, 'readiness: the database does not answer');
      return 'does not answer';
    }
  });
  if (options.checkSandbox) readiness.register('sandbox', () => sandboxProblem(options.sandbox));

  let inFlight = 0;
  const counted = new WeakSet<FastifyRequest>();
  const done = (request: FastifyRequest) => {
    if (counted.delete(request)) inFlight -= 1;
  };
  // callback hooks (no promise per request); an early answer ends the request without `next`
  app.addHook('onRequest', (request, reply, next) => {
    if (readiness.draining && !PROBE_PATHS.has(request.url.split('?')[0] ?? '')) {
      void reply
        .code(503)
        .header('connection', 'close')
        .header('retry-after', '1')
        .send({ detail: 'The server is shutting down; try again' });
      return;
    }
    // a WebSocket lives on after its upgrade: shutdown closes those sockets itself
    if (!request.ws) {
      inFlight += 1;
      counted.add(request);
    }
    next();
  });
  // a request that was running when the drain began still gets its answer, then the
  // connection closes instead of being kept alive on a node that is going away
  app.addHook('onSend', (_request, reply, payload, next) => {
    if (readiness.draining) reply.header('connection', 'close');
    next(null, payload);
  });
  app.addHook('onResponse', (request, _reply, next) => {
    done(request);
    next();
  });
  app.addHook('onRequestAbort', async (request) => done(request));

  installRequestLog(app, options.logRequests);
  installMetrics(
    app,
    { db: options.db, live: options.hub, backtests: options.sandbox },
    { token: options.metricsToken },
  );
  healthRoutes(app, options.now, readiness);

  const operations: Operations = {
    readiness,
    inFlight: () => inFlight,
    startDraining: () => readiness.markDraining(options.now()),
  };
  app.decorate('operations', operations);
  return operations;
}
