import {
  liveTokenSchema,
  markNotificationsReadAnswerSchema,
  notificationListSchema,
  type LiveToken,
  type MarkNotificationsRead,
  type MarkNotificationsReadAnswer,
  type NotificationList,
} from '@ct/domain';
import { http } from '../../api/client';

/** The user's notifications, newest first (`GET /api/notifications`). */
export function fetchNotifications(skip: number, limit: number): Promise<NotificationList> {
  return http.get('/api/notifications', {
    params: { skip, limit },
    schema: notificationListSchema,
    noCache: true,
  });
}

/** Marks notifications read (`POST /api/notifications/read`). */
export function markNotificationsRead(
  body: MarkNotificationsRead,
): Promise<MarkNotificationsReadAnswer> {
  return http.post('/api/notifications/read', body, { schema: markNotificationsReadAnswerSchema });
}

/** Tokens of the user's notifications channel. */
export function fetchNotificationsLiveToken(): Promise<LiveToken> {
  return http.get('/api/notifications/live-token', { schema: liveTokenSchema, noCache: true });
}
