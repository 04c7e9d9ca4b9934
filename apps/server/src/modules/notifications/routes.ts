import {
  markNotificationsReadAnswerSchema,
  markNotificationsReadSchema,
  notificationListSchema,
  notificationsChannel,
  notificationsQuerySchema,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { validatedByService } from '../../http/route-schemas.ts';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import { mintSessionTokens } from '../gateway/session-tokens.ts';
import type { NotificationService } from './service.ts';

/**
 * The user's notifications (docs/api.md, "Notifications"): session required, everything
 * per user. The handlers parse their input (a 400 naming the fields); the schemas below are
 * the same ones, for the API document (http/route-schemas.ts).
 */
export function notificationRoutes(
  app: FastifyInstance,
  service: NotificationService,
  live: { liveTokenSecret: string; now: () => number },
): void {
  const documented = (schema: object) => ({
    preHandler: app.requireSession,
    ...validatedByService,
    schema,
  });

  app.get(
    '/api/notifications',
    documented({
      querystring: notificationsQuerySchema,
      response: { 200: notificationListSchema },
    }),
    async (request) =>
      service.list(sessionOf(request).userId, parseInput(notificationsQuerySchema, request.query)),
  );

  app.post(
    '/api/notifications/read',
    documented({
      body: markNotificationsReadSchema,
      response: { 200: markNotificationsReadAnswerSchema },
    }),
    async (request) =>
      service.markRead(
        sessionOf(request).userId,
        parseInput(markNotificationsReadSchema, request.body),
      ),
  );

  // Tokens of the user's notifications channel (`notifications:{userId}`), like the drawings'.
  app.get(
    '/api/notifications/live-token',
    { preHandler: app.requireSession },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const session = sessionOf(request);
      const channel = notificationsChannel(session.userId);
      return { ...mintSessionTokens(live.liveTokenSecret, session, channel, live.now()), channel };
    },
  );
}
