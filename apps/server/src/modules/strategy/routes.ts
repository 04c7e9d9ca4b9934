import {
  resultDealsQuerySchema,
  resultsQuerySchema,
  saveResultRequestSchema,
  saveStrategyRequestSchema,
  strategyNameParamsSchema,
  strategyVersionParamsSchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../http/errors.ts';
import { MIB } from '../backtest/sandbox/settings.ts';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import { DEFAULT_RESULT_LIMITS, ResultTooLargeError, type StrategyService } from './service.ts';
import { defaultStrategyCode } from './template.ts';

/** Room in a save's body besides the result itself (names, keys, whitespace). */
const RESULT_BODY_SLACK = 64 * 1024;

/** A result's id in a path (a positive integer), else 404. */
function resultId(text: string): number {
  const id = Number(text);
  if (!/^\d{1,15}$/.test(text) || !Number.isSafeInteger(id) || id <= 0) {
    throw new NotFoundError(`Result not found: ${text}`);
  }
  return id;
}

/** Strategies, their saved results and the template; everything per user, session required. */
export function strategyRoutes(
  app: FastifyInstance,
  service: StrategyService,
  resultMaxBytes: number = DEFAULT_RESULT_LIMITS.maxBytes,
): void {
  const guard = { preHandler: app.requireSession };
  const bodyLimit = resultMaxBytes + RESULT_BODY_SLACK;
  // a body announced larger than any result could be is refused before it is read (413)
  const refuseLargeBody = async (request: { headers: Record<string, unknown> }) => {
    const length = Number(request.headers['content-length']);
    if (Number.isFinite(length) && length > bodyLimit) {
      throw new ResultTooLargeError(
        `The request is ${Number((length / MIB).toFixed(1))} MiB; a saved result may be at most ${resultMaxBytes / MIB} MiB`,
      );
    }
  };

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
    service.remove(
      sessionOf(request).userId,
      parseInput(strategyNameParamsSchema, request.params).name,
    ),
  );

  // Earlier codes of a strategy (kept by each save that changed it), newest first.
  app.get<{ Params: { name: string } }>('/api/strategies/:name/versions', guard, async (request) =>
    service.listVersions(
      sessionOf(request).userId,
      parseInput(strategyNameParamsSchema, request.params).name,
    ),
  );
  app.get('/api/strategies/:name/versions/:id', guard, async (request) => {
    const params = parseInput(strategyVersionParamsSchema, request.params);
    return service.getVersion(sessionOf(request).userId, params.name, params.id);
  });

  for (const path of ['/api/strategy-results/', '/api/strategy-results']) {
    app.post(path, { ...guard, onRequest: refuseLargeBody, bodyLimit }, async (request) =>
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
        parseInput(strategyNameParamsSchema, { name: request.params.strategy }).name,
        parseInput(resultsQuerySchema, request.query),
      ),
  );

  app.get<{ Params: { strategy: string; id: string } }>(
    '/api/strategy-results/:strategy/:id',
    guard,
    async (request) =>
      service.getResult(
        sessionOf(request).userId,
        request.params.strategy,
        resultId(request.params.id),
      ),
  );

  // A saved result's deals, one page at a time (the listing carries none).
  app.get<{ Params: { strategy: string; id: string } }>(
    '/api/strategy-results/:strategy/:id/deals',
    guard,
    async (request) => {
      const id = resultId(request.params.id);
      const query = parseInput(resultDealsQuerySchema, request.query);
      return service.getResultDeals(sessionOf(request).userId, request.params.strategy, id, query);
    },
  );

  app.delete<{ Params: { strategy: string; id: string } }>(
    '/api/strategy-results/:strategy/:id',
    guard,
    async (request) =>
      service.deleteResult(
        sessionOf(request).userId,
        request.params.strategy,
        resultId(request.params.id),
      ),
  );
}
