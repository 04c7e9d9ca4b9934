import {
  CHARTS_BODY_LIMIT_BYTES,
  chartIndicatorsBodySchema,
  chartKeySchema,
  createDrawingBodySchema,
  drawingListSchema,
  drawingSchema,
  drawingsQuerySchema,
  updateDrawingBodySchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { validatedByService } from '../../http/route-schemas.ts';
import { sessionOf } from '../auth/guard.ts';
import type { Clock } from '../auth/rate-limit.ts';
import { mintChartsLiveToken } from './live-token.ts';
import type { ChartsService } from './service.ts';

type IdParams = { Params: { id: string } };
type KeyParams = { Params: { chartKey: string } };

/** Drawings per instrument and indicator settings per chart; session required. */
export function chartsRoutes(
  app: FastifyInstance,
  charts: ChartsService,
  live: { liveTokenSecret: string; now: Clock },
): void {
  const guard = { preHandler: app.requireSession, bodyLimit: CHARTS_BODY_LIMIT_BYTES };
  const userOf = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).userId;
  // The service parses its input (422 in this module's shape, after its id checks): the
  // schemas here are the same ones, for the API document (http/route-schemas.ts).
  const documented = (schema: object) => ({ ...guard, ...validatedByService, schema });
  const chartKeyParams = z.object({ chartKey: chartKeySchema });

  const list = { querystring: drawingsQuerySchema, response: { 200: drawingListSchema } };
  app.get('/api/charts/drawings', documented(list), async (request) =>
    charts.listDrawings(userOf(request), request.query),
  );
  const create = { body: createDrawingBodySchema, response: { 201: drawingSchema } };
  app.post('/api/charts/drawings', documented(create), async (request, reply) => {
    const drawing = await charts.createDrawing(userOf(request), request.body);
    return reply.status(201).send(drawing);
  });
  const update = { body: updateDrawingBodySchema, response: { 200: drawingSchema } };
  app.put<IdParams>('/api/charts/drawings/:id', documented(update), async (request) =>
    charts.updateDrawing(userOf(request), request.params.id, request.body),
  );
  app.delete<IdParams>('/api/charts/drawings/:id', guard, async (request) =>
    charts.deleteDrawing(userOf(request), request.params.id),
  );

  // Tokens of the user's drawing channel (`charts:{userId}`): no trading account needed.
  app.get('/api/charts/live-token', guard, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return mintChartsLiveToken(live.liveTokenSecret, sessionOf(request), live.now());
  });

  app.get<KeyParams>(
    '/api/charts/indicators/:chartKey',
    documented({ params: chartKeyParams, response: { 200: chartIndicatorsBodySchema } }),
    async (request) => charts.getIndicators(userOf(request), request.params.chartKey),
  );
  app.put<KeyParams>(
    '/api/charts/indicators/:chartKey',
    documented({ params: chartKeyParams, body: chartIndicatorsBodySchema }),
    async (request) => charts.putIndicators(userOf(request), request.params.chartKey, request.body),
  );
}
