import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// Times are epoch seconds (the spec's unit), stored as bigint and read as JS numbers.
const epochSeconds = (name: string) => bigint(name, { mode: 'number' });

/** People who log in. `email` is the login name, stored lower-cased. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    nickName: text('nick_name'),
    phone: text('phone'),
    country: text('country'),
    channel: integer('channel').notNull().default(1),
    auditStatus: integer('audit_status').notNull().default(0),
    auditRemark: text('audit_remark'),
    auditAt: epochSeconds('audit_at'),
    createdAt: epochSeconds('created_at').notNull(),
    updatedAt: epochSeconds('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_email_lower_case', sql`${t.email} = lower(${t.email})`),
  ],
);

/** Trading accounts ("traders" in the spec); a user holds one or more. */
export const traders = pgTable(
  'traders',
  {
    uuid: text('uuid').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    level: integer('level').notNull(),
    type: integer('type').notNull(),
    channel: integer('channel').notNull().default(1),
    createdAt: epochSeconds('created_at').notNull(),
  },
  (t) => [index('traders_user_id_idx').on(t.userId)],
);

/** Login sessions; the cookie value is stored only as its SHA-256 hash. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: epochSeconds('created_at').notNull(),
    expiresAt: epochSeconds('expires_at').notNull(),
    revokedAt: epochSeconds('revoked_at'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_id_idx').on(t.userId),
  ],
);

/** Per-session tokens of trading accounts, stored hashed, living as long as their session. */
export const traderTokens = pgTable(
  'trader_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    traderUuid: text('trader_uuid')
      .notNull()
      .references(() => traders.uuid, { onDelete: 'cascade' }),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: epochSeconds('expires_at').notNull(),
  },
  (t) => [uniqueIndex('trader_tokens_session_trader_key').on(t.sessionId, t.traderUuid)],
);

export type UserRow = typeof users.$inferSelect;
export type TraderRow = typeof traders.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
