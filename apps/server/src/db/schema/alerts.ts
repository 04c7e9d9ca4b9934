import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import type { IndicatorCondition, WebhookAttempt } from '@ct/domain';
import { chartDrawings } from './charts.ts';
import { users } from './identity.ts';

/**
 * A user's alerts (modules/alerts). `side` is the side of its level (or channel zone) the
 * price was last strictly on, as the feed's alert engine judged it: every change is written
 * with a conditional update on the side it replaces, so a crossing fires once whichever
 * feed judges it (docs/architecture.md, "Alerts"). Times are epoch milliseconds.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    kind: text('kind').notNull(),
    condition: text('condition').notNull(),
    level: doublePrecision('level'),
    upper: doublePrecision('upper'),
    lower: doublePrecision('lower'),
    drawingId: integer('drawing_id').references(() => chartDrawings.id, { onDelete: 'cascade' }),
    indicator: jsonb('indicator').$type<IndicatorCondition>(),
    period: text('period').notNull(),
    frequency: text('frequency').notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }),
    message: text('message').notNull(),
    webhookUrl: text('webhook_url'),
    status: text('status').notNull(),
    side: smallint('side'),
    firedCount: integer('fired_count').notNull().default(0),
    lastFiredAt: bigint('last_fired_at', { mode: 'number' }),
    lastFiredBar: bigint('last_fired_bar', { mode: 'number' }),
    version: integer('version').notNull().default(0),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('alerts_user_idx').on(t.userId, t.id), index('alerts_status_idx').on(t.status)],
);
export type AlertRow = typeof alerts.$inferSelect;

/**
 * Fired alerts, newest last: the tick's price and time, the message as sent, and the
 * webhook's attempts. Kept when the alert is deleted (no foreign key to it).
 */
export const alertLog = pgTable(
  'alert_log',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    alertId: integer('alert_id').notNull(),
    symbol: text('symbol').notNull(),
    kind: text('kind').notNull(),
    condition: text('condition').notNull(),
    price: doublePrecision('price').notNull(),
    tickTime: bigint('tick_time', { mode: 'number' }).notNull(),
    firedAt: bigint('fired_at', { mode: 'number' }).notNull(),
    message: text('message').notNull(),
    webhookUrl: text('webhook_url'),
    webhookState: text('webhook_state'),
    webhookAttempts: jsonb('webhook_attempts').$type<WebhookAttempt[]>().notNull().default([]),
  },
  (t) => [index('alert_log_user_idx').on(t.userId, t.id)],
);
export type AlertLogRow = typeof alertLog.$inferSelect;

/** The per-user secret webhook bodies are signed with (HMAC-SHA256). */
export const alertWebhookSecrets = pgTable('alert_webhook_secrets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});
