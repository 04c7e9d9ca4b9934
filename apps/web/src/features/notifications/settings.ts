import { NOTIFICATION_KINDS, notificationKindSchema, type NotificationKind } from '@ct/domain';
import { z } from 'zod';
import { create } from 'zustand';
import { readJson, writeJson } from '../../shared/storage';

/** Where this browser keeps the user's choices of how notifications reach them. */
export const NOTIFICATION_SETTINGS_KEY = 'notificationSettings';

const settingsSchema = z.object({
  /** Browser notifications (the Notification API) on: permission was asked and granted. */
  browser: z.boolean(),
  /** Kinds shown as a browser notification (while `browser` is on). */
  browserKinds: z.array(notificationKindSchema.catch('alert_fired')),
  /** Kinds that play a sound. */
  soundKinds: z.array(notificationKindSchema.catch('alert_fired')),
});
export type NotificationSettings = z.infer<typeof settingsSchema>;

const DEFAULTS: NotificationSettings = {
  browser: false,
  browserKinds: [...NOTIFICATION_KINDS],
  soundKinds: [],
};

export const useNotificationSettings = create<NotificationSettings>(
  () => readJson(NOTIFICATION_SETTINGS_KEY, settingsSchema) ?? DEFAULTS,
);

function save(change: Partial<NotificationSettings>): void {
  useNotificationSettings.setState(change);
  writeJson(NOTIFICATION_SETTINGS_KEY, useNotificationSettings.getState());
}

const toggled = (list: readonly NotificationKind[], kind: NotificationKind, on: boolean) =>
  on ? [...new Set([...list, kind])] : list.filter((k) => k !== kind);

export function setSoundFor(kind: NotificationKind, on: boolean): void {
  save({ soundKinds: toggled(useNotificationSettings.getState().soundKinds, kind, on) });
}

export function setBrowserFor(kind: NotificationKind, on: boolean): void {
  save({ browserKinds: toggled(useNotificationSettings.getState().browserKinds, kind, on) });
}

/** The browser's Notification API, when it has one. */
function notificationApi(): typeof Notification | null {
  return typeof globalThis.Notification === 'function' ? globalThis.Notification : null;
}

/** 'unsupported', or the browser's permission for this site. */
export function browserPermission(): NotificationPermission | 'unsupported' {
  return notificationApi()?.permission ?? 'unsupported';
}

/**
 * Turns browser notifications on or off. On asks the browser's permission (only now, when
 * the user asks for them) and stays off when it is not granted; returns whether it is on.
 */
export async function setBrowserNotifications(on: boolean): Promise<boolean> {
  if (!on) {
    save({ browser: false });
    return false;
  }
  const api = notificationApi();
  if (!api) return false;
  const permission = api.permission === 'default' ? await api.requestPermission() : api.permission;
  const granted = permission === 'granted';
  save({ browser: granted });
  return granted;
}
