import {
  replayDeletedSchema,
  replayListSchema,
  replayOrderRequestSchema,
  replayParamsSchema,
  replayStartedSchema,
  replayStepRequestSchema,
  replayViewSchema,
  startReplayRequestSchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../http/errors.ts';
import { validatedByService } from '../../http/route-schemas.ts';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import type { ReplayService } from './service.ts';

/** A session id from the path; anything that is not one is no session of the user (404). */
function replayId(params: unknown): string {
  const parsed = replayParamsSchema.safeParse(params);
  if (!parsed.success) {
    const text = (params as { id?: unknown } | null)?.id;
    throw new NotFoundError(`Replay not found: ${String(text ?? '')}`);
  }
  return parsed.data.id;
}

/**
 * Bar replay sessions (docs/api.md, "Bar replay"): everything per user, session required;
 * another user's session is a 404. The handlers parse their input (a malformed id is a 404
 * like another user's); the schemas below are the same ones, for the API document.
 */
export function replayRoutes(app: FastifyInstance, service: ReplayService): void {
  const documented = (schema: object) => ({
    preHandler: app.requireSession,
    ...validatedByService,
    schema,
  });
  const params = replayParamsSchema;

  app.post(
    '/api/replays',
    documented({ body: startReplayRequestSchema, response: { 201: replayStartedSchema } }),
    async (request, reply) => {
      const body = parseInput(startReplayRequestSchema, request.body);
      const started = await service.start(sessionOf(request).userId, body);
      return reply.status(201).send(started);
    },
  );

  app.get('/api/replays', documented({ response: { 200: replayListSchema } }), async (request) =>
    service.list(sessionOf(request).userId),
  );

  app.get(
    '/api/replays/:id',
    documented({ params, response: { 200: replayViewSchema } }),
    async (request) => service.get(sessionOf(request).userId, replayId(request.params)),
  );

  app.post(
    '/api/replays/:id/step',
    documented({ params, body: replayStepRequestSchema, response: { 200: replayViewSchema } }),
    async (request) => {
      const id = replayId(request.params);
      const body = parseInput(replayStepRequestSchema, request.body);
      return service.step(sessionOf(request).userId, id, body.bars);
    },
  );

  app.post(
    '/api/replays/:id/orders',
    documented({ params, body: replayOrderRequestSchema, response: { 200: replayViewSchema } }),
    async (request) => {
      const id = replayId(request.params);
      const body = parseInput(replayOrderRequestSchema, request.body);
      return service.order(sessionOf(request).userId, id, body);
    },
  );

  app.delete(
    '/api/replays/:id',
    documented({ params, response: { 200: replayDeletedSchema } }),
    async (request) => service.remove(sessionOf(request).userId, replayId(request.params)),
  );
}
