import {
  resultsQuerySchema,
  saveResultRequestSchema,
  saveStrategyRequestSchema,
  strategyVersionParamsSchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../http/errors.ts';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import type { StrategyService } from './service.ts';
import { defaultStrategyCode } from './template.ts';

/** Saved results carry up to 100,000 deals. */
export const RESULT_BODY_LIMIT = 32 * 1024 * 1024;

/** Strategies, their saved results and the template; everything per user, session required. */
export function strategyRoutes(app: FastifyInstance, service: StrategyService): void {
  const guard = { preHandler: app.requireSession };

  app.get('/api/strategy/template', guard, async () => ({ code: defaultStrategyCode() }));

  // The spec's paths end in '/'; the same calls answer without it.
  for (const path of ['/api/strategies/', '/api/strategies']) {
    app.get(path, guard, async (request) => ({
      strategies: await service.list(sessionOf(request).userId),
    }));
    app.post(path, guard, async (request) =>
      service.save(sessionOf(request).userId, parseInput(saveStrategyRequestSchema, request.body)),
    );
  }

  app.delete<{ Params: { name: string } }>('/api/strategies/:name', guard, async (request) =>
    service.remove(sessionOf(request).userId, request.params.name),
  );

  // Earlier codes of a strategy (kept by each save that changed it), newest first.
  app.get<{ Params: { name: string } }>('/api/strategies/:name/versions', guard, async (request) =>
    service.listVersions(sessionOf(request).userId, request.params.name),
  );
  app.get('/api/strategies/:name/versions/:id', guard, async (request) => {
    const params = parseInput(strategyVersionParamsSchema, request.params);
    return service.getVersion(sessionOf(request).userId, params.name, params.id);
  });

  for (const path of ['/api/strategy-results/', '/api/strategy-results']) {
    app.post(path, { ...guard, bodyLimit: RESULT_BODY_LIMIT }, async (request) =>
      service.saveResult(
        sessionOf(request).userId,
        parseInput(saveResultRequestSchema, request.body),
      ),
    );
  }

  app.get<{ Params: { strategy: string } }>(
    '/api/strategy-results/:strategy',
    guard,
    async (request) =>
      service.listResults(
        sessionOf(request).userId,
        request.params.strategy,
        parseInput(resultsQuerySchema, request.query),
      ),
  );

  app.get<{ Params: { strategy: string; id: string } }>(
    '/api/strategy-results/:strategy/:id',
    guard,
    async (request) => {
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) {
        throw new NotFoundError(`Result not found: ${request.params.id}`);
      }
      return service.getResult(sessionOf(request).userId, request.params.strategy, id);
    },
  );
}
