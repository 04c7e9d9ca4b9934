import { notificationEventSchema, notificationsChannel } from '@ct/domain';
import { useEffect } from 'react';
import { isChildFrame } from '../../realtime/connection';
import { sharedPrivateChannel } from '../../realtime/privateChannel';
import { useAuthStore } from '../auth';
import { announce } from './alerts';
import { fetchNotificationsLiveToken } from './api';
import { applyNotificationEvent, reloadNotifications } from './queries';

/*
 * Notifications live: the server publishes each new notification of a user (and each
 * marking read) on `notifications:{userId}`; the page joins that channel on its one live
 * connection and writes the event into the query cache (the event carries the whole
 * notification). Each (re)subscription asks the list again: what happened while the page
 * was away or disconnected shows then.
 */

/** Takes one publication of the channel; anything else is ignored. */
export function handleNotificationPublication(userId: string, data: unknown): void {
  const parsed = notificationEventSchema.safeParse(data);
  if (!parsed.success) return;
  const added = applyNotificationEvent(userId, parsed.data);
  if (added) announce(added);
}

const joinNotifications = sharedPrivateChannel();

/** Keeps the logged-in user's notifications channel joined while mounted. */
export function useNotificationsLive(): void {
  const userId = useAuthStore((s) => s.userId);
  const loggedIn = useAuthStore((s) => s.isLoggedIn);
  useEffect(() => {
    if (!userId || !loggedIn || isChildFrame()) return;
    return joinNotifications(userId, {
      userId,
      channel: notificationsChannel(userId),
      fetchTokens: () => fetchNotificationsLiveToken(),
      onPublication: (data) => handleNotificationPublication(userId, data),
      onSubscribed: () => reloadNotifications(userId),
      errorMessage: 'Notifications channel error',
    });
  }, [userId, loggedIn]);
}
