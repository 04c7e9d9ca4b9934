import {
  bigint,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/** Bytes (PostgreSQL bytea). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/*
 * Parameter optimisations (modules/optimization). Times are epoch milliseconds.
 */
const epochMs = (name: string) => bigint(name, { mode: 'number' });

/**
 * One optimisation: the request as checked (code, bars' source, space, objective, …), its
 * state and, once complete, its summary (best, walk-forward, overfitting). The bars are
 * kept as the trials saw them (`bars`), so a trial run again after a restart sees the same.
 */
export const optimizations = pgTable(
  'optimizations',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    strategyName: text('strategy_name'),
    code: text('code').notNull(),
    symbol: text('symbol').notNull(),
    period: text('period').notNull(),
    /** The bars of the run, in the sandbox's row format. */
    bars: jsonb('bars').notNull(),
    objective: text('objective').notNull(),
    method: text('method').notNull(),
    /** The request's params, constraint, max_trials, seed, walk_forward (as given). */
    request: jsonb('request').notNull(),
    /** PENDING | PROCESSING | COMPLETED | FAILED | CANCELLED */
    status: text('status').notNull(),
    trialsTotal: integer('trials_total').notNull(),
    trialsDone: integer('trials_done').notNull().default(0),
    /** The summary once complete: best, walk_forward, overfitting. */
    summary: jsonb('summary'),
    error: text('error'),
    createdMs: epochMs('created_ms').notNull(),
    startedMs: epochMs('started_ms'),
    finishedMs: epochMs('finished_ms'),
  },
  (t) => [index('optimizations_user_idx').on(t.userId, t.createdMs)],
);

/**
 * One backtest of an optimisation: `stage` `main` (the whole bars), `is:<fold>` (a fold's
 * in-sample part) or `oos:<fold>` (the fold's chosen parameters out of sample). Written once:
 * the result of a trial run twice (its worker died after running it) is kept once.
 */
export const optimizationTrials = pgTable(
  'optimization_trials',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    optimizationId: text('optimization_id')
      .notNull()
      .references(() => optimizations.id, { onDelete: 'cascade' }),
    stage: text('stage').notNull(),
    index: integer('index').notNull(),
    params: jsonb('params').notNull(),
    /** queued | done | failed | cancelled */
    status: text('status').notNull(),
    /** { net_profit, trade_count, win_rate, sharpe, max_drawdown, profit_factor, sqn } */
    performance: jsonb('performance'),
    /** The value of the objective (higher is better; max_drawdown negated). */
    score: doublePrecision('score'),
    /** Per-bar returns of the equity curve as JSON (trials kept before `returns_f64`). */
    returns: jsonb('returns'),
    /**
     * Per-bar returns of the equity curve (for PBO and the deflated Sharpe ratio) as float64
     * little-endian, 8 bytes each: a trial's 2,147 returns are 17 KB instead of ~40 KB of JSON.
     */
    returnsF64: bytea('returns_f64'),
    /** The full performance of the run (for walk-forward parts: their equity). */
    detail: jsonb('detail'),
    error: text('error'),
    runs: integer('runs').notNull().default(0),
    finishedMs: epochMs('finished_ms'),
  },
  (t) => [
    uniqueIndex('optimization_trials_key').on(t.optimizationId, t.stage, t.index),
    index('optimization_trials_done_idx').on(t.optimizationId, t.status),
  ],
);

export type OptimizationRow = typeof optimizations.$inferSelect;
export type OptimizationTrialRow = typeof optimizationTrials.$inferSelect;
