import {
  resultDealsPageSchema,
  resultDealsQuerySchema,
  resultsQuerySchema,
  saveResultRequestSchema,
  saveStrategyRequestSchema,
  savedStrategySchema,
  strategyListSchema,
  strategyNameParamsSchema,
  strategyNameSchema,
  strategyResultDetailSchema,
  strategyResultSummaryPageSchema,
  strategyTemplateSchema,
  strategyVersionListSchema,
  strategyVersionParamsSchema,
  strategyVersionSchema,
} from '@ct/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../../http/errors.ts';
import { MIB } from '../backtest/sandbox/settings.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
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
  root: FastifyInstance,
  service: StrategyService,
  resultMaxBytes: number = DEFAULT_RESULT_LIMITS.maxBytes,
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
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

  // A result's id is checked (404) before its query is refused (400), as it always was.
  const resultGuard = {
    preHandler: [
      app.requireSession,
      async (request: FastifyRequest) => {
        resultId((request.params as { id: string }).id);
      },
    ],
  };
  const resultParams = z.object({ strategy: z.string(), id: z.string() });

  app.get(
    '/api/strategy/template',
    { ...guard, schema: { response: { 200: strategyTemplateSchema } } },
    async () => ({ code: defaultStrategyCode() }),
  );

  // The spec's paths end in '/'; the same calls answer without it.
  for (const path of ['/api/strategies/', '/api/strategies']) {
    app.get(
      path,
      { ...guard, schema: { response: { 200: strategyListSchema } } },
      async (request) => ({ strategies: await service.list(sessionOf(request).userId) }),
    );
    const save = { body: saveStrategyRequestSchema, response: { 200: savedStrategySchema } };
    app.post(path, { ...guard, schema: save }, async (request) =>
      service.save(sessionOf(request).userId, request.body),
    );
  }

  app.delete(
    '/api/strategies/:name',
    { ...guard, schema: { params: strategyNameParamsSchema } },
    async (request) => service.remove(sessionOf(request).userId, request.params.name),
  );

  // Earlier codes of a strategy (kept by each save that changed it), newest first.
  const versions = {
    params: strategyNameParamsSchema,
    response: { 200: strategyVersionListSchema },
  };
  app.get('/api/strategies/:name/versions', { ...guard, schema: versions }, async (request) =>
    service.listVersions(sessionOf(request).userId, request.params.name),
  );
  const version = { params: strategyVersionParamsSchema, response: { 200: strategyVersionSchema } };
  app.get('/api/strategies/:name/versions/:id', { ...guard, schema: version }, async (request) =>
    service.getVersion(sessionOf(request).userId, request.params.name, request.params.id),
  );

  for (const path of ['/api/strategy-results/', '/api/strategy-results']) {
    app.post(
      path,
      {
        ...guard,
        onRequest: refuseLargeBody,
        bodyLimit,
        config: { bodyInWorker: true },
        schema: { body: saveResultRequestSchema },
      },
      async (request) => service.saveResult(sessionOf(request).userId, request.body),
    );
  }

  const results = {
    params: z.object({ strategy: strategyNameSchema }),
    querystring: resultsQuerySchema,
    response: { 200: strategyResultSummaryPageSchema },
  };
  app.get('/api/strategy-results/:strategy', { ...guard, schema: results }, async (request) =>
    service.listResults(sessionOf(request).userId, request.params.strategy, request.query),
  );

  app.get(
    '/api/strategy-results/:strategy/:id',
    { ...guard, schema: { params: resultParams, response: { 200: strategyResultDetailSchema } } },
    async (request) =>
      service.getResult(
        sessionOf(request).userId,
        request.params.strategy,
        resultId(request.params.id),
      ),
  );

  // A saved result's deals, one page at a time (the listing carries none).
  const deals = {
    params: resultParams,
    querystring: resultDealsQuerySchema,
    response: { 200: resultDealsPageSchema },
  };
  app.get(
    '/api/strategy-results/:strategy/:id/deals',
    { ...resultGuard, schema: deals },
    async (request) => {
      const id = resultId(request.params.id);
      return service.getResultDeals(
        sessionOf(request).userId,
        request.params.strategy,
        id,
        request.query,
      );
    },
  );

  app.delete(
    '/api/strategy-results/:strategy/:id',
    { ...guard, schema: { params: resultParams } },
    async (request) =>
      service.deleteResult(
        sessionOf(request).userId,
        request.params.strategy,
        resultId(request.params.id),
      ),
  );
}
