import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

// Times are epoch seconds, like the rest of the schema (the lease is in milliseconds).
const epochSeconds = (name: string) => bigint(name, { mode: 'number' });

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

/**
 * AI strategy tasks (spec sections 3 and 4): a description in, tested code out. Each task
 * waiting or running has a job of the `ai-task` queue (modules/jobs, batch key
 * `ai-task:<id>`): the job holds the claim, the lease and the count of claims.
 */
export const aiTasks = pgTable(
  'ai_tasks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** PENDING, PROCESSING, COMPLETED, FAILED. */
    status: text('status').notNull(),
    taskType: text('task_type').notNull(),
    /** The user's description of the strategy. */
    prompt: text('prompt').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    baseUrl: text('base_url').notNull(),
    /** A key sent with the task, sealed like the settings' key; null: the saved key is used. */
    apiKeyEnc: text('api_key_enc'),
    symbolId: text('symbol_id').notNull(),
    period: text('period').notNull(),
    /** More feeds the task backtests on besides symbol_id/period (`feeds` of the body). */
    feeds: jsonb('feeds').$type<{ symbol_id: string; period: string }[] | null>(),
    clientId: text('client_id'),
    /** The final code (COMPLETED only). */
    code: text('code'),
    backtestResult: jsonb('backtest_result').$type<Record<string, unknown> | null>(),
    errorMessage: text('error_message'),
    retryCount: integer('retry_count').notNull().default(0),
    maxRetries: integer('max_retries').notNull(),
    createdAt: epochSeconds('created_at').notNull(),
    updatedAt: epochSeconds('updated_at').notNull(),
    startedAt: epochSeconds('started_at'),
    finishedAt: epochSeconds('finished_at'),
  },
  (t) => [
    index('ai_tasks_user_idx').on(t.userId, t.id),
    index('ai_tasks_open_idx')
      .on(t.status, t.id)
      .where(sql`${t.status} in ('PENDING', 'PROCESSING')`),
  ],
);

/** Every step of a task's loop, in order (spec section 3, AI conversation message). */
export const aiTaskMessages = pgTable(
  'ai_task_messages',
  {
    id: serial('id').primaryKey(),
    taskId: integer('task_id')
      .notNull()
      .references(() => aiTasks.id, { onDelete: 'cascade' }),
    /** 'user' (what was sent to the model) or 'ai' (the model's answers and our checks). */
    role: text('role').notNull(),
    content: text('content').notNull(),
    stepType: text('step_type').notNull(),
    /** 0 for the first attempt, n after the n-th retry. */
    retryNumber: integer('retry_number').notNull(),
    extraData: jsonb('extra_data').$type<Record<string, unknown> | null>(),
    createdAt: epochSeconds('created_at').notNull(),
  },
  (t) => [index('ai_task_messages_task_idx').on(t.taskId, t.id)],
);

export type AiTaskRow = typeof aiTasks.$inferSelect;
export type AiTaskMessageRow = typeof aiTaskMessages.$inferSelect;
