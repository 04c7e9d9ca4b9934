import type { FastifyInstance } from 'fastify';
import type { Clock } from '../auth/rate-limit.ts';
import type { Readiness } from './readiness.ts';

/**
 * The probes of a load balancer or orchestrator, outside `/api` and without a session:
 * `/healthz` says the process answers (cheap: no I/O), `/readyz` whether it should get
 * traffic (every registered check, 503 naming those that failed). `/api/health` stays as the
 * start-up screen's call.
 */
export function healthRoutes(app: FastifyInstance, now: Clock, readiness?: Readiness): void {
  // `time` is the server clock in epoch milliseconds.
  app.get('/api/health', async () => ({ status: 'ok', time: now() }));
  if (!readiness) return;
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', async (_request, reply) => {
    const report = await readiness.check();
    reply.header('cache-control', 'no-store');
    if (report.ready) return { status: 'ready', checks: report.checks };
    const failed = Object.entries(report.checks).flatMap(([name, c]) =>
      c.ok ? [] : [`${name}: ${c.detail}`],
    );
    return reply.code(503).send({
      status: 'not ready',
      detail: `Not ready (${failed.join('; ')})`,
      checks: report.checks,
    });
  });
}
