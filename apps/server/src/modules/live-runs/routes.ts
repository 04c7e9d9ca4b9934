import {
  liveRunComparisonQuerySchema,
  liveRunComparisonSchema,
  liveRunEvaluationsQuerySchema,
  liveRunEvaluationsSchema,
  liveRunListSchema,
  liveRunParamsSchema,
  liveRunStartedSchema,
  startLiveRunRequestSchema,
  tradingAccountSchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../../http/errors.ts';
import { validatedByService } from '../../http/route-schemas.ts';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import type { LiveRunService } from './service.ts';

/** A run id from the path; anything that is not one is no run of the user (404). */
function runId(params: unknown): string {
  const parsed = liveRunParamsSchema.safeParse(params);
  if (!parsed.success) {
    const text = (params as { id?: unknown } | null)?.id;
    throw new NotFoundError(`Live run not found: ${String(text ?? '')}`);
  }
  return parsed.data.id;
}

/**
 * Forward tests on paper (docs/api.md, "Live runs"): everything per user, session required;
 * another user's run is a 404. The handlers parse their input (the account first, then the
 * body; a malformed id is a 404 like another user's): the schemas below are the same ones,
 * for the API document (http/route-schemas.ts).
 */
export function liveRunRoutes(app: FastifyInstance, service: LiveRunService): void {
  const documented = (schema: object) => ({
    preHandler: app.requireSession,
    ...validatedByService,
    schema,
  });
  const params = liveRunParamsSchema;

  app.post(
    '/api/live-runs',
    documented({ body: startLiveRunRequestSchema, response: { 201: liveRunStartedSchema } }),
    async (request, reply) => {
      // the account and its token first: a caller without the account learns nothing more
      const trader = await app.requireTrader(
        request,
        parseInput(tradingAccountSchema, request.body),
      );
      const body = parseInput(startLiveRunRequestSchema, request.body);
      const started = await service.start(sessionOf(request).userId, trader, body);
      return reply.status(201).send(started);
    },
  );

  app.get('/api/live-runs', documented({ response: { 200: liveRunListSchema } }), async (request) =>
    service.list(sessionOf(request).userId),
  );

  app.post(
    '/api/live-runs/:id/stop',
    // no body is read: an empty object documents that
    documented({ params, body: z.object({}), response: { 200: liveRunStartedSchema } }),
    async (request) => service.stop(sessionOf(request).userId, runId(request.params)),
  );

  app.get(
    '/api/live-runs/:id/evaluations',
    documented({
      params,
      querystring: liveRunEvaluationsQuerySchema,
      response: { 200: liveRunEvaluationsSchema },
    }),
    async (request) => {
      const id = runId(request.params);
      const query = parseInput(liveRunEvaluationsQuerySchema, request.query);
      return service.evaluations(sessionOf(request).userId, id, query.skip, query.limit);
    },
  );

  app.get(
    '/api/live-runs/:id/comparison',
    documented({
      params,
      querystring: liveRunComparisonQuerySchema,
      response: { 200: liveRunComparisonSchema },
    }),
    async (request) => {
      const id = runId(request.params);
      const query = parseInput(liveRunComparisonQuerySchema, request.query);
      return service.comparison(sessionOf(request).userId, id, query);
    },
  );
}
