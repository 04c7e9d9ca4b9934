import type { FastifyInstance } from 'fastify';
import type { Clock } from '../auth/rate-limit.ts';

export function healthRoutes(app: FastifyInstance, now: Clock): void {
  // `time` is the server clock in epoch milliseconds.
  app.get('/api/health', async () => ({ status: 'ok', time: now() }));
}
