import {
  CLIENT_ID_PATTERN,
  optimizationBacktestRequestSchema,
  optimizationListQuerySchema,
  optimizationQuerySchema,
  optimizationRequestSchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import { sendJsonStream } from '../../http/json-stream.ts';
import { validatedByService } from '../../http/route-schemas.ts';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import type { OptimizationService } from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const params = z.object({ id: z.string() });

/** An id that cannot be one answers as an unknown one (the same as another user's). */
function idOf(value: unknown): string {
  const id = String((value as { id?: unknown } | null)?.id ?? '');
  if (!UUID.test(id)) throw new NotFoundError(`Optimization not found: ${id}`);
  return id.toLowerCase();
}

/**
 * The optimisation calls (docs/api.md, "Optimizations"): per user, session required;
 * another user's optimisation is a 404 like an unknown one. The service parses the body (its
 * checks need the strategy's PARAMS); the schemas here are for the API document.
 */
export function optimizationRoutes(app: FastifyInstance, service: OptimizationService): void {
  const documented = (schema: object) => ({
    preHandler: app.requireSession,
    ...validatedByService,
    schema,
  });

  app.post('/api/optimizations', documented({ body: optimizationRequestSchema }), async (request) =>
    service.create(sessionOf(request).userId, request.body),
  );

  app.get(
    '/api/optimizations',
    documented({ querystring: optimizationListQuerySchema }),
    async (request) => {
      const query = parseInput(optimizationListQuerySchema, request.query);
      return { items: await service.list(sessionOf(request).userId, query.strategy_name) };
    },
  );

  app.get(
    '/api/optimizations/:id',
    documented({ params, querystring: optimizationQuerySchema }),
    async (request) => {
      const id = idOf(request.params);
      const query = parseInput(optimizationQuerySchema, request.query);
      return service.get(sessionOf(request).userId, id, query);
    },
  );

  app.post(
    '/api/optimizations/:id/cancel',
    // no body is read: an empty object documents that
    documented({ params, body: z.object({}) }),
    async (request) => service.cancel(sessionOf(request).userId, idOf(request.params)),
  );

  // one set of values backtested on the optimisation's own bars, answered as the run helper
  app.post(
    '/api/optimizations/:id/backtest',
    documented({ params, body: optimizationBacktestRequestSchema }),
    async (request, reply) => {
      const body = parseInput(optimizationBacktestRequestSchema, request.body);
      const clientId = body.client_id ?? null;
      if (clientId !== null && clientId !== '' && !CLIENT_ID_PATTERN.test(clientId)) {
        throw new BadRequestError('client_id: must be 1-128 letters, digits or _ . : -');
      }
      const result = await service.backtestOn(
        sessionOf(request).userId,
        idOf(request.params),
        body.params,
        clientId || null,
      );
      return sendJsonStream(reply, {
        success: result.error === null,
        reason: result.error,
        data: result,
      });
    },
  );

  app.delete('/api/optimizations/:id', documented({ params }), async (request) =>
    service.remove(sessionOf(request).userId, idOf(request.params)),
  );
}
