import { optimizationQuerySchema } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import { sessionOf } from '../auth/guard.ts';
import type { OptimizationService } from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that cannot be one answers as an unknown one (the same for another user's). */
function idOf(id: string): string {
  if (!UUID.test(id)) throw new NotFoundError(`Optimization not found: ${id}`);
  return id.toLowerCase();
}

/** The optimisation calls (docs/api.md, "Optimizations"). */
export function optimizationRoutes(app: FastifyInstance, service: OptimizationService): void {
  const guard = { preHandler: app.requireSession };

  app.post('/api/optimizations', guard, async (request) =>
    service.create(sessionOf(request).userId, request.body),
  );

  app.get('/api/optimizations', guard, async (request) => ({
    items: await service.list(sessionOf(request).userId),
  }));

  app.get<{ Params: { id: string } }>('/api/optimizations/:id', guard, async (request) => {
    const query = optimizationQuerySchema.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      throw new BadRequestError(
        `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    return service.get(sessionOf(request).userId, idOf(request.params.id), query.data);
  });

  app.post<{ Params: { id: string } }>('/api/optimizations/:id/cancel', guard, async (request) =>
    service.cancel(sessionOf(request).userId, idOf(request.params.id)),
  );

  app.delete<{ Params: { id: string } }>('/api/optimizations/:id', guard, async (request) =>
    service.remove(sessionOf(request).userId, idOf(request.params.id)),
  );
}
