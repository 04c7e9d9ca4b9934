import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { traders, users } from './identity.ts';

/*
 * Forward tests on paper (issue 19, modules/live-runs). Times are epoch milliseconds (the
 * API shows epoch seconds): the runner works at bar closes and measures fill delays.
 */
const epochMs = (name: string) => bigint(name, { mode: 'number' });

/**
 * A strategy running on a paper account. A running run has a job of the `live-run` queue
 * (modules/jobs, batch key `live-run:<id>`) that one runner holds at a time under a lease,
 * so a run whose runner died is taken over once its lease runs out. `last_bar_time` is the
 * last bar evaluated: an evaluation is written with a conditional update on it, so no bar
 * is counted twice.
 */
export const liveRuns = pgTable(
  'live_runs',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    traderUuid: text('trader_uuid')
      .notNull()
      .references(() => traders.uuid, { onDelete: 'cascade' }),
    strategyName: text('strategy_name').notNull(),
    /** The AI task whose code runs; null for a saved strategy. */
    taskId: integer('task_id'),
    /** The code as it was when the run started (later edits do not change a running test). */
    code: text('code').notNull(),
    symbol: text('symbol').notNull(),
    period: text('period').notNull(),
    lots: doublePrecision('lots').notNull(),
    maxPositions: integer('max_positions').notNull(),
    /** running | stopped | failed */
    status: text('status').notNull(),
    /** Start of the bar in progress when the run started: older entries are not chased. */
    startBarTime: epochMs('start_bar_time').notNull(),
    startedAt: epochMs('started_at').notNull(),
    stoppedAt: epochMs('stopped_at'),
    evaluations: integer('evaluations').notNull().default(0),
    orders: integer('orders').notNull().default(0),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    maxFailures: integer('max_failures').notNull(),
    error: text('error'),
    /** Feeds `main` receives besides the run's own; null: its own only. */
    feeds: jsonb('feeds').$type<{ symbol_id: string; period: string }[] | null>(),
    /** Start of the last bar evaluated; null before the first evaluation. */
    lastBarTime: epochMs('last_bar_time'),
    lastEvaluationAt: epochMs('last_evaluation_at'),
  },
  (t) => [
    index('live_runs_user_idx').on(t.userId, t.startedAt),
    index('live_runs_running_idx')
      .on(t.status)
      .where(sql`${t.status} = 'running'`),
    check('live_runs_status', sql`${t.status} in ('running', 'stopped', 'failed')`),
  ],
);

export type LiveRunRow = typeof liveRuns.$inferSelect;

/** Kept evaluations of a run: the newest `LIVE_RUN_KEEP_EVALUATIONS` of each run. */
export const liveRunEvaluations = pgTable(
  'live_run_evaluations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text('run_id')
      .notNull()
      .references(() => liveRuns.id, { onDelete: 'cascade' }),
    /** Start of the bar that closed. */
    barTime: epochMs('bar_time').notNull(),
    /** The bar close the evaluation ran at. */
    at: epochMs('at').notNull(),
    bars: integer('bars').notNull(),
    wanted: jsonb('wanted').$type<unknown[]>().notNull(),
    orders: jsonb('orders').$type<unknown[]>().notNull(),
    error: text('error'),
    printed: jsonb('printed').$type<string[]>().notNull(),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [uniqueIndex('live_run_evaluations_bar_idx').on(t.runId, t.barTime)],
);

export type LiveRunEvaluationRow = typeof liveRunEvaluations.$inferSelect;

/**
 * Every order a run sent (not bounded like the evaluations: the comparison reads the whole
 * run), keyed by its idempotency key. `wanted_key` names the strategy record an open order
 * was for; `position_id` is the position it opened or closed.
 */
export const liveRunOrders = pgTable(
  'live_run_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text('run_id')
      .notNull()
      .references(() => liveRuns.id, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    barTime: epochMs('bar_time').notNull(),
    /** open | close */
    action: text('action').notNull(),
    cmd: integer('cmd').notNull(),
    volume: doublePrecision('volume').notNull(),
    wantedKey: text('wanted_key'),
    positionId: text('position_id'),
    /** filled | rejected */
    status: text('status').notNull(),
    price: doublePrecision('price'),
    /** The bars' price (bid) when it filled. */
    reference: doublePrecision('reference'),
    strategyPrice: doublePrecision('strategy_price').notNull(),
    commission: doublePrecision('commission').notNull().default(0),
    message: text('message').notNull().default(''),
    at: epochMs('at').notNull(),
  },
  (t) => [
    uniqueIndex('live_run_orders_key_idx').on(t.runId, t.clientOrderId),
    index('live_run_orders_position_idx').on(t.runId, t.positionId),
  ],
);

export type LiveRunOrderRow = typeof liveRunOrders.$inferSelect;
