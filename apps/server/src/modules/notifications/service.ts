import {
  DEFAULT_NOTIFICATIONS_KEPT,
  newNotificationSchema,
  notificationsChannel,
  type MarkNotificationsRead,
  type MarkNotificationsReadAnswer,
  type NewNotification,
  type Notification,
  type NotificationEvent,
  type NotificationList,
  type NotificationsQuery,
} from '@ct/domain';
import type { Db } from '../../db/types.ts';
import type { Broker } from '../gateway/broker.ts';
import {
  insertNotification,
  listNotifications,
  markRead,
  unreadCount,
  type NotificationOwner,
} from './store.ts';

/** What recording a notification needs; built once by the module (module.ts). */
export type NotificationContext = {
  db: Db;
  broker: Pick<Broker, 'publish'>;
  /** Epoch milliseconds. */
  now: () => number;
  /** Notifications kept per user (NOTIFICATIONS_KEEP): the newest. */
  keep: number;
  log?: { warn: (details: Record<string, unknown>, message: string) => void };
};

/** A notification recorded in a transaction, told to the user's pages once it commits. */
export type RecordedNotification = { userId: number; notification: Notification };

function tell(ctx: NotificationContext, userId: number, event: NotificationEvent): void {
  ctx.broker.publish(notificationsChannel(userId), event);
}

/** Publishes notifications recorded by a transaction that has committed. */
export function publishNotifications(
  ctx: NotificationContext,
  recorded: readonly RecordedNotification[],
): void {
  for (const { userId, notification } of recorded) {
    tell(ctx, userId, { type: 'notification', notification });
  }
}

/**
 * Records a notification in `tx` (the transaction of the change it tells about, so both
 * commit or neither) without publishing it: the caller publishes after its commit
 * (publishNotifications). Null when its `ref` was recorded for the user already.
 */
export async function recordNotificationIn(
  ctx: NotificationContext,
  tx: Db,
  owner: NotificationOwner,
  input: NewNotification,
): Promise<RecordedNotification | null> {
  const note = newNotificationSchema.parse(input);
  return insertNotification(tx, owner, { ...note, createdAt: ctx.now() }, ctx.keep);
}

/**
 * Records a notification for `userId` and tells the user's open pages (their private
 * channel `notifications:{userId}`). For what has already been committed (an alert that
 * fired, a task that ended): with a `ref` naming the event, recording it again keeps one.
 * Returns the notification, or null when its ref was recorded already.
 */
export async function recordNotification(
  ctx: NotificationContext,
  userId: number,
  input: NewNotification,
): Promise<Notification | null> {
  const recorded = await recordNotificationIn(ctx, ctx.db, { userId }, input);
  if (!recorded) return null;
  publishNotifications(ctx, [recorded]);
  return recorded.notification;
}

/** The API's side: a user's page of notifications and marking them read. */
export function createNotificationService(ctx: NotificationContext) {
  return {
    list(userId: number, query: NotificationsQuery): Promise<NotificationList> {
      return listNotifications(ctx.db, userId, query.skip, query.limit);
    },

    /** Marks read; the user's other pages hear which (their counts follow). */
    async markRead(
      userId: number,
      body: MarkNotificationsRead,
    ): Promise<MarkNotificationsReadAnswer> {
      const ids = 'ids' in body ? body.ids : null;
      const changed = await markRead(ctx.db, userId, ids, ctx.now());
      const unread = await unreadCount(ctx.db, userId);
      if (changed.length > 0) {
        tell(ctx, userId, {
          type: 'notifications_read',
          ids: ids === null ? null : changed,
          unread,
        });
      }
      return { updated: changed.length, unread };
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;

export { DEFAULT_NOTIFICATIONS_KEPT };
