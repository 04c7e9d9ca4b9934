import './notifications.css';
import { Badge } from 'antd';
import { useNotifications, useUnreadCount } from './queries';
import { useNotificationsLive } from './live';
import { notifications as messages } from '../../i18n/defaults/notifications';

/** Follows the user's notifications while the workspace is shown (no UI of its own). */
export function NotificationsRuntime() {
  useNotificationsLive();
  useNotifications();
  return null;
}

/** The unread count on the Notifications button (nothing while all are read). */
export function UnreadBadge() {
  const unread = useUnreadCount();
  if (unread === 0) return null;
  return (
    <>
      {/* the number is drawn for the eye; the words are what a screen reader says */}
      <span className="notifications-badge" aria-hidden="true">
        <Badge count={unread} size="small" overflowCount={99} />
      </span>
      <span className="visually-hidden">{messages.notifications.unreadCount(unread)}</span>
    </>
  );
}
