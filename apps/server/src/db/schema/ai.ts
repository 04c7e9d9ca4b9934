import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/**
 * Each user's AI API settings (spec section 4). `api_key_enc` is the key encrypted with the
 * server's key (modules/ai/key-box.ts); null when no key is stored.
 */
export const aiSettings = pgTable('ai_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  baseUrl: text('base_url').notNull(),
  model: text('model').notNull(),
  apiKeyEnc: text('api_key_enc'),
  /** Epoch seconds, like the rest of the schema. */
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

export type AiSettingsRow = typeof aiSettings.$inferSelect;
