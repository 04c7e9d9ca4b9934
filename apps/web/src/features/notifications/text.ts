import type { Notification, NotificationParams } from '@ct/domain';
import { notifications as messages } from '../../i18n/defaults/notifications';

const m = messages.notifications;

const str = (p: NotificationParams, key: string): string => {
  const v = p[key];
  return v === null || v === undefined ? '' : String(v);
};

/** A notification's title (its kind) and its line (what happened), in the page's texts. */
export function notificationText(note: Notification): { title: string; body: string } {
  const p = note.params;
  const s = (key: string) => str(p, key);
  return { title: m.kinds[note.kind], body: m.body(note.kind, s) };
}
