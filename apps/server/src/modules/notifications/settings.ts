import { z } from 'zod';

/** NOTIFICATIONS_KEEP: the environment this module reads (composed by config.ts). */
export const notificationsEnv = z.object({
  NOTIFICATIONS_KEEP: z.coerce.number().int().min(10).max(100_000).default(200),
});

/** Notifications kept per user, the newest. */
export function notificationsKeepFromEnv(e: z.output<typeof notificationsEnv>): number {
  return e.NOTIFICATIONS_KEEP;
}
