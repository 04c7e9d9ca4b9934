import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Broker } from '../gateway/broker.ts';
import { notificationRoutes } from './routes.ts';
import {
  DEFAULT_NOTIFICATIONS_KEPT,
  createNotificationService,
  type NotificationContext,
  type NotificationService,
} from './service.ts';

/** The notifications' parts other modules and tests reach through the app. */
export type NotificationsModule = {
  /** What recordNotification / recordNotificationIn take. */
  context: NotificationContext;
  service: NotificationService;
};

/** The user's notifications: their routes, and the context other modules record with. */
export function registerNotifications(
  app: FastifyInstance,
  deps: {
    db: Db;
    broker: Broker;
    now: () => number;
    liveTokenSecret: string;
    /** NOTIFICATIONS_KEEP: kept per user. */
    keep?: number;
  },
): NotificationsModule {
  const context: NotificationContext = {
    db: deps.db,
    broker: deps.broker,
    now: deps.now,
    keep: deps.keep ?? DEFAULT_NOTIFICATIONS_KEPT,
    log: { warn: (details, message) => app.log.warn(details, message) },
  };
  const service = createNotificationService(context);
  notificationRoutes(app, service, { liveTokenSecret: deps.liveTokenSecret, now: deps.now });
  return { context, service };
}
