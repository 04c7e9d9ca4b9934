import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { NotificationParams } from '@ct/domain';
import { users } from './identity.ts';

/**
 * What happened to a user's accounts and work (modules/notifications), newest kept per user.
 * `ref` names what it is about (`pending:12`, `ai_task:3`): unique per user, so an event
 * recorded twice keeps one row. `read_at` is null while unread. Times are epoch ms.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<NotificationParams>().notNull(),
    ref: text('ref'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    readAt: bigint('read_at', { mode: 'number' }),
  },
  (t) => [
    index('notifications_user_id_idx').on(t.userId, t.id),
    uniqueIndex('notifications_user_ref_key')
      .on(t.userId, t.ref)
      .where(sql`${t.ref} is not null`),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
