import {
  ALERTS_BODY_LIMIT_BYTES,
  alertListSchema,
  alertLogQuerySchema,
  alertLogSchema,
  alertSchema,
  alertsChannel,
  createAlertBodySchema,
  deletedAlertSchema,
  updateAlertBodySchema,
  webhookSecretSchema,
  type LiveToken,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { validatedByService } from '../../http/route-schemas.ts';
import { sessionOf } from '../auth/guard.ts';
import { mintSessionTokens } from '../gateway/session-tokens.ts';
import type { AlertService } from './service.ts';

type IdParams = { Params: { id: string } };

/** The alert calls (docs/api.md, "Alerts"); session required, everything per user. */
export function alertRoutes(
  app: FastifyInstance,
  alerts: AlertService,
  live: { liveTokenSecret: string; now: () => number },
): void {
  const guard = { preHandler: app.requireSession, bodyLimit: ALERTS_BODY_LIMIT_BYTES };
  const userOf = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).userId;
  // the service parses its input (422 in this module's shape); the schemas are for the document
  const documented = (schema: object) => ({ ...guard, ...validatedByService, schema });

  app.post(
    '/api/alerts',
    documented({ body: createAlertBodySchema, response: { 201: alertSchema } }),
    async (request, reply) =>
      reply.status(201).send(await alerts.create(userOf(request), request.body)),
  );
  app.get('/api/alerts', documented({ response: { 200: alertListSchema } }), async (request) =>
    alerts.list(userOf(request)),
  );
  app.get(
    '/api/alerts/log',
    documented({ querystring: alertLogQuerySchema, response: { 200: alertLogSchema } }),
    async (request) => alerts.log(userOf(request), request.query),
  );
  app.post(
    '/api/alerts/webhook-secret',
    documented({ body: z.object({}).optional(), response: { 200: webhookSecretSchema } }),
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return alerts.rotateSecret(userOf(request));
    },
  );
  // tokens of the user's alert channel (`alerts:{userId}`): no trading account needed
  app.get('/api/alerts/live-token', guard, async (request, reply): Promise<LiveToken> => {
    void reply.header('cache-control', 'no-store');
    const session = sessionOf(request);
    const channel = alertsChannel(session.userId);
    return { ...mintSessionTokens(live.liveTokenSecret, session, channel, live.now()), channel };
  });
  app.patch<IdParams>(
    '/api/alerts/:id',
    documented({ body: updateAlertBodySchema, response: { 200: alertSchema } }),
    async (request) => alerts.update(userOf(request), request.params.id, request.body),
  );
  app.delete<IdParams>(
    '/api/alerts/:id',
    documented({ response: { 200: deletedAlertSchema } }),
    async (request) => alerts.remove(userOf(request), request.params.id),
  );
}
