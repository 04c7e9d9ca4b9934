import type { Notification, NotificationEvent, NotificationList } from '@ct/domain';
import { useQuery } from '@tanstack/react-query';
import { queryClient } from '../../shared/queryClient';
import { useAuthStore } from '../auth';
import { fetchNotifications, markNotificationsRead } from './api';

/** The newest notifications the panel shows (the server keeps more). */
export const NOTIFICATIONS_SHOWN = 50;

/** The user's newest notifications and unread count: one cache entry per user. */
export const notificationsKey = (userId: string) => ['notifications', userId] as const;

const loggedInUser = (): string | null => {
  const { userId, isLoggedIn } = useAuthStore.getState();
  return isLoggedIn && userId ? userId : null;
};

/** The logged-in user's notifications (fetched once, then kept by live events). */
export function useNotifications() {
  const userId = useAuthStore((s) => (s.isLoggedIn ? s.userId : null));
  return useQuery({
    queryKey: notificationsKey(userId ?? ''),
    queryFn: () => fetchNotifications(0, NOTIFICATIONS_SHOWN),
    enabled: Boolean(userId),
  });
}

/** The unread count of the button's badge (0 until known). */
export function useUnreadCount(): number {
  return useNotifications().data?.unread ?? 0;
}

/** Asks the list again (a (re)subscription: notifications may have come meanwhile). */
export function reloadNotifications(userId: string): void {
  void queryClient.invalidateQueries({ queryKey: notificationsKey(userId) });
}

function markInList(list: NotificationList, ids: readonly string[] | null, unread: number) {
  const set = ids === null ? null : new Set(ids);
  return {
    ...list,
    unread,
    items: list.items.map((n) => (set === null || set.has(n.id) ? { ...n, read: true } : n)),
  };
}

/**
 * Applies a publication of the notifications channel to the cache: a new notification goes
 * on top (the oldest shown drops off), read ones lose their unread mark. Returns the new
 * notification when it is one not seen before.
 */
export function applyNotificationEvent(
  userId: string,
  event: NotificationEvent,
): Notification | null {
  const key = notificationsKey(userId);
  const list = queryClient.getQueryData<NotificationList>(key);
  if (event.type === 'notifications_read') {
    if (list) queryClient.setQueryData(key, markInList(list, event.ids, event.unread));
    return null;
  }
  const note = event.notification;
  if (!list) {
    // not loaded yet: the fetch will bring it
    reloadNotifications(userId);
    return note;
  }
  if (list.items.some((n) => n.id === note.id)) return null;
  queryClient.setQueryData<NotificationList>(key, {
    items: [note, ...list.items].slice(0, NOTIFICATIONS_SHOWN),
    total: list.total + 1,
    unread: list.unread + (note.read ? 0 : 1),
  });
  return note;
}

/** Marks these notifications read (the panel shows them); the answer's count goes in the cache. */
export async function markRead(ids: readonly string[]): Promise<void> {
  const userId = loggedInUser();
  if (!userId || ids.length === 0) return;
  const key = notificationsKey(userId);
  const answer = await markNotificationsRead({ ids: [...ids] });
  const list = queryClient.getQueryData<NotificationList>(key);
  if (list) queryClient.setQueryData(key, markInList(list, ids, answer.unread));
}

/** Marks every notification of the user read. */
export async function markAllRead(): Promise<void> {
  const userId = loggedInUser();
  if (!userId) return;
  const key = notificationsKey(userId);
  const answer = await markNotificationsRead({ all: true });
  const list = queryClient.getQueryData<NotificationList>(key);
  if (list) queryClient.setQueryData(key, markInList(list, null, answer.unread));
}
