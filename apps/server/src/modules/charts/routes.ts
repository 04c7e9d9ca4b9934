import { CHARTS_BODY_LIMIT_BYTES } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { sessionOf } from '../auth/guard.ts';
import type { ChartsService } from './service.ts';

type IdParams = { Params: { id: string } };
type KeyParams = { Params: { chartKey: string } };

/** Drawings per instrument and indicator settings per chart; session required. */
export function chartsRoutes(app: FastifyInstance, charts: ChartsService): void {
  const guard = { preHandler: app.requireSession, bodyLimit: CHARTS_BODY_LIMIT_BYTES };
  const userOf = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).userId;

  app.get('/api/charts/drawings', guard, async (request) =>
    charts.listDrawings(userOf(request), request.query),
  );
  app.post('/api/charts/drawings', guard, async (request, reply) => {
    const drawing = await charts.createDrawing(userOf(request), request.body);
    return reply.status(201).send(drawing);
  });
  app.put<IdParams>('/api/charts/drawings/:id', guard, async (request) =>
    charts.updateDrawing(userOf(request), request.params.id, request.body),
  );
  app.delete<IdParams>('/api/charts/drawings/:id', guard, async (request) =>
    charts.deleteDrawing(userOf(request), request.params.id),
  );

  app.get<KeyParams>('/api/charts/indicators/:chartKey', guard, async (request) =>
    charts.getIndicators(userOf(request), request.params.chartKey),
  );
  app.put<KeyParams>('/api/charts/indicators/:chartKey', guard, async (request) =>
    charts.putIndicators(userOf(request), request.params.chartKey, request.body),
  );
}
