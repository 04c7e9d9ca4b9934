import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/** A feed of a run on several feeds, as its answer names it. */
export type RunFeed = { symbol_id: string; period: string; bar_count?: number | undefined };

// Times are epoch seconds, like the rest of the schema.
const epochSeconds = (name: string) => bigint(name, { mode: 'number' });

/** A user's saved Python strategies; the built-in Default strategy is never stored. */
export const strategies = pgTable(
  'strategies',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    createdAt: epochSeconds('created_at').notNull(),
    updatedAt: epochSeconds('updated_at').notNull(),
  },
  (t) => [uniqueIndex('strategies_user_name_key').on(t.userId, t.name)],
);

/**
 * Earlier codes of a saved strategy: a save that changes the code keeps the replaced code here
 * (the last 20 per strategy; older ones are pruned in the same transaction).
 */
export const strategyVersions = pgTable(
  'strategy_versions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    strategyId: integer('strategy_id')
      .notNull()
      .references(() => strategies.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    /** When this code was saved (the strategy's updated_at then). */
    createdAt: epochSeconds('created_at').notNull(),
  },
  (t) => [index('strategy_versions_strategy_idx').on(t.strategyId, t.id)],
);

/**
 * Every backtest run with its full log (kept per user, newest first; older runs are pruned).
 * `performance` and the deals (backtest_run_deals) are what our code computed from the
 * strategy's records.
 */
export const backtestRuns = pgTable(
  'backtest_runs',
  {
    id: serial('id').primaryKey(),
    runId: uuid('run_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id'),
    strategyName: text('strategy_name'),
    filename: text('filename').notNull(),
    symbol: text('symbol').notNull(),
    period: text('period').notNull(),
    code: text('code').notNull(),
    /** 'ok' or 'error'. */
    status: text('status').notNull(),
    error: text('error'),
    /** What kind of failure: strategy, contract, limit, unavailable, busy (null when ok). */
    errorKind: text('error_kind'),
    /** The lines the strategy printed, in order. */
    logs: jsonb('logs').$type<string[]>().notNull(),
    /** Entries of the run's deals (kept in backtest_run_deals). */
    dealCount: integer('deal_count').notNull().default(0),
    performance: jsonb('performance').$type<Record<string, unknown> | null>(),
    /** A run on several feeds: each instrument's figures (`performance` is the portfolio's). */
    perSymbol: jsonb('per_symbol').$type<Record<string, unknown> | null>(),
    /** A run on several feeds: the feeds it ran on, in order. */
    feeds: jsonb('feeds').$type<RunFeed[] | null>(),
    barCount: integer('bar_count').notNull(),
    elapsedMs: doublePrecision('elapsed_ms').notNull(),
    createdAt: epochSeconds('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('backtest_runs_run_id_key').on(t.runId),
    index('backtest_runs_user_idx').on(t.userId, t.id),
  ],
);

/**
 * A kept run's deals in order, in pieces of at most DEALS_PER_CHUNK (modules/backtest/store.ts):
 * each piece is written, read and sent on its own, so no step holds the event loop for a
 * whole large run. The pieces are written before their run's row, which makes the run
 * visible; they go with the run (pruning deletes them) and with the user.
 */
export const backtestRunDeals = pgTable(
  'backtest_run_deals',
  {
    runId: uuid('run_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 0, 1, 2, ... in the order of the deals. */
    seq: integer('seq').notNull(),
    deals: jsonb('deals').$type<unknown[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * A strategy's run history; the results go with the strategy. A user's saved results
 * (Save Results) and the runs kept automatically (`automatic`: every backtest of a saved
 * strategy, the newest 50 per strategy, pruned first when a save needs room).
 */
export const strategyResults = pgTable(
  'strategy_results',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    strategyId: integer('strategy_id')
      .notNull()
      .references(() => strategies.id, { onDelete: 'cascade' }),
    symbolId: text('symbol_id').notNull(),
    deals: jsonb('deals').$type<unknown[]>().notNull(),
    performance: jsonb('performance').$type<Record<string, unknown> | null>(),
    error: text('error'),
    /** A run on several feeds: each instrument's figures (`performance` is the portfolio's). */
    perSymbol: jsonb('per_symbol').$type<Record<string, unknown> | null>(),
    /** A run on several feeds: the feeds it ran on, in order. */
    feeds: jsonb('feeds').$type<RunFeed[] | null>(),
    /** The run's printed lines when the result was saved from a kept run. */
    logs: jsonb('logs').$type<string[] | null>(),
    runId: uuid('run_id'),
    createdAt: epochSeconds('created_at').notNull(),
    /** Bytes of the result as JSON (deals, figures, error, log): counts towards the quota. */
    sizeBytes: integer('size_bytes').notNull().default(0),
    /** Entries of `deals`, so that a listing need not read them. */
    dealCount: integer('deal_count').notNull().default(0),
    /** Kept by itself after a run (not saved by the user): pruned, never refused. */
    automatic: boolean('automatic').notNull().default(false),
  },
  (t) => [
    index('strategy_results_strategy_idx').on(t.strategyId, t.symbolId, t.id),
    index('strategy_results_user_idx').on(t.userId),
  ],
);

export type StrategyRow = typeof strategies.$inferSelect;
export type BacktestRunRow = typeof backtestRuns.$inferSelect;
export type BacktestRunDealsRow = typeof backtestRunDeals.$inferSelect;
export type StrategyResultRow = typeof strategyResults.$inferSelect;
export type StrategyVersionRow = typeof strategyVersions.$inferSelect;
