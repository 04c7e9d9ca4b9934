import { describe, expect, it } from 'vitest';
import { notificationsEnv, notificationsKeepFromEnv } from './settings.ts';

describe('notification settings from the environment', () => {
  it('keeps the newest 200 per user by default, at least 10', () => {
    expect(notificationsKeepFromEnv(notificationsEnv.parse({}))).toBe(200);
    expect(notificationsKeepFromEnv(notificationsEnv.parse({ NOTIFICATIONS_KEEP: '50' }))).toBe(50);
    expect(notificationsEnv.safeParse({ NOTIFICATIONS_KEEP: '5' }).success).toBe(false);
  });
});
