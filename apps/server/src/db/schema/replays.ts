import type { ReplayAction, ReplayEvaluationView } from '@ct/domain';
import { bigint, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/*
 * Bar replay sessions (modules/replays). Times are epoch milliseconds (the API shows epoch
 * seconds). The account is never stored: it is recomputed from the replayed bars and the
 * actions (packages/domain/src/replay), so a step back only moves the cursor and drops the
 * actions and evaluations after it.
 */
const epochMs = (name: string) => bigint(name, { mode: 'number' });

/**
 * A user's replay session: instrument, period, the start bar and the cursor (the last
 * visible bar), the strategy's code copied at the start (null without one), the actions
 * sent so far (ids from 1, `next_id` the next), and the strategy's evaluations. Every change
 * is a conditional update on `version`, so two steps at once cannot both apply.
 */
export const replays = pgTable(
  'replays',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    period: text('period').notNull(),
    startTime: epochMs('start_time').notNull(),
    cursorTime: epochMs('cursor_time').notNull(),
    /** Bars replayed after the start bar (the cursor's distance from the start). */
    steps: integer('steps').notNull().default(0),
    strategyName: text('strategy_name'),
    code: text('code'),
    initialBalance: doublePrecision('initial_balance').notNull(),
    /** Feeds the strategy receives besides the replay's own; null: its own only. */
    feeds: jsonb('feeds').$type<{ symbol_id: string; period: string }[] | null>(),
    actions: jsonb('actions').$type<ReplayAction[]>().notNull(),
    evaluations: jsonb('evaluations').$type<(ReplayEvaluationView & { at: number })[]>().notNull(),
    nextId: integer('next_id').notNull().default(1),
    version: integer('version').notNull().default(0),
    createdAt: epochMs('created_at').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [index('replays_user_idx').on(t.userId, t.updatedAt)],
);
export type ReplayRow = typeof replays.$inferSelect;
