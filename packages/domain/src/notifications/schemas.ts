import { z } from 'zod';
import { pageQuerySchema } from '../api/paging.ts';
import { identifierSchema } from '../api/text.ts';

/**
 * What a notification tells the user about. The server stores the kind and its parameters;
 * the page words it from its texts (so it follows the page's language).
 */
export const NOTIFICATION_KINDS = [
  'alert_fired',
  'pending_filled',
  'pending_rejected',
  'take_profit',
  'stop_loss',
  'stop_out',
  'margin_warning',
  'ai_task_completed',
  'ai_task_failed',
  'optimization_completed',
  'optimization_failed',
  'live_run_error',
  'live_run_stopped',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** Kept notifications per user (the newest; older ones are deleted as new ones come). */
export const DEFAULT_NOTIFICATIONS_KEPT = 200;
export const DEFAULT_NOTIFICATIONS_PAGE = 50;
export const MAX_NOTIFICATIONS_PAGE = 200;
/** Ids in one mark-read call. */
export const MAX_NOTIFICATION_IDS = 200;

/** A parameter's value: what the text of its kind fills in (symbol, price, name, error…). */
export const notificationParamSchema = z.union([
  z.string().max(500),
  z.number(),
  z.boolean(),
  z.null(),
]);
/** The parameters of a notification: at most 16, short names. */
export const notificationParamsSchema = z
  .record(z.string().max(40), notificationParamSchema)
  .refine((p) => Object.keys(p).length <= 16, 'at most 16 parameters');
export type NotificationParams = z.infer<typeof notificationParamsSchema>;

/**
 * What a module hands the notifications service: the kind, its parameters and `ref`, what
 * it is about (`pending:12`, `ai_task:3`…): one notification per user and ref at most, so
 * recording the same event twice keeps one.
 */
export const newNotificationSchema = z.object({
  kind: notificationKindSchema,
  params: notificationParamsSchema.default({}),
  ref: z.string().min(1).max(200).nullable().default(null),
});
export type NewNotification = z.input<typeof newNotificationSchema>;

/** One notification as the API answers it. `time` is epoch seconds. */
export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  params: notificationParamsSchema,
  ref: z.string().nullable(),
  time: z.number().int(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** Query of GET /api/notifications: a page, newest first. */
export const notificationsQuerySchema = pageQuerySchema({
  max: MAX_NOTIFICATIONS_PAGE,
  default: DEFAULT_NOTIFICATIONS_PAGE,
});
export type NotificationsQuery = z.infer<typeof notificationsQuerySchema>;

/** Answer of GET /api/notifications: a page, newest first, how many are kept and unread. */
export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  total: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** Body of POST /api/notifications/read: these ids, or every notification of the user. */
export const markNotificationsReadSchema = z.union([
  z
    .object({
      ids: z
        .array(identifierSchema(20).regex(/^\d+$/, 'ids must be numeric'))
        .min(1, 'ids must not be empty')
        .max(MAX_NOTIFICATION_IDS, `at most ${MAX_NOTIFICATION_IDS} ids`),
    })
    .strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkNotificationsRead = z.infer<typeof markNotificationsReadSchema>;

/** Answer of POST /api/notifications/read: how many changed, and the unread count now. */
export const markNotificationsReadAnswerSchema = z.object({
  updated: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type MarkNotificationsReadAnswer = z.infer<typeof markNotificationsReadAnswerSchema>;

/** The user's private notifications channel. */
export const notificationsChannel = (userId: number | string) => `notifications:${userId}`;

/**
 * Publications on `notifications:{userId}`: a new notification (whole), or notifications
 * read on another page (their ids, or all) with the unread count after it.
 */
export const notificationEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification'), notification: notificationSchema }),
  z.object({
    type: z.literal('notifications_read'),
    ids: z.array(z.string()).nullable(),
    unread: z.number().int().nonnegative(),
  }),
]);
export type NotificationEvent = z.infer<typeof notificationEventSchema>;
