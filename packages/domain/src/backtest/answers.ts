import { z } from 'zod';
import type { Deal, Performance } from './metrics.ts';
import type { StrategyView } from './schemas.ts';

// Schemas of the strategy and backtest answers the web reads. Objects are loose: the
// server may add fields a client does not read yet.

/** A trade of a run's answer or of a saved result (see `Deal`). */
export const dealSchema: z.ZodType<Deal> = z
  .object({
    open_date: z.string(),
    close_date: z.string().nullable(),
    open_price: z.number(),
    close_price: z.number(),
    lots: z.number(),
    status: z.enum(['YES', 'NOT']),
    profit: z.number(),
    commission: z.number(),
    start: z.number(),
    end: z.number().nullable(),
    qty: z.number(),
  })
  .loose();

/** The performance figures of a run (see `Performance`); keys as the spec names them. */
export const performanceSchema: z.ZodType<Performance> = z
  .object({
    合约: z.string(),
    周期: z.string(),
    开始时间: z.string(),
    结束时间: z.string(),
    交易次数: z.number(),
    胜率: z.number(),
    盈亏比: z.number().nullable(),
    总盈利: z.number(),
    总亏损: z.number(),
    净利润: z.number(),
    最大持仓: z.number(),
    平均每笔盈利: z.number(),
    profit_rate: z.number(),
    annual_return: z.number().nullable(),
    max_drawdown: z.number(),
    max_drawdown_amount: z.number(),
    win_rate: z.number(),
    sharpe_ratio: z.number().nullable(),
    profit_factor: z.number().nullable(),
    expectancy: z.number(),
    winning_trades: z.number(),
    losing_trades: z.number(),
    open_trades: z.number(),
    commission_total: z.number(),
    initial_capital: z.number(),
    final_equity: z.number(),
    bar_count: z.number(),
    equity_curve: z.array(z.tuple([z.string(), z.number()])),
    conventions: z
      .object({
        initial_capital: z.number(),
        contract_multiplier: z.number(),
        commission_per_lot: z.number(),
        risk_free_rate: z.number(),
        days_per_year: z.number(),
        min_annualise_days: z.number(),
        currency: z.string(),
        bars_per_year: z.number().nullable(),
        open_trades_valued_at: z.literal('last_close'),
      })
      .loose(),
  })
  .loose();

/** A saved strategy (GET /api/strategies/ rows); times in epoch seconds. */
export const strategyViewSchema: z.ZodType<StrategyView> = z
  .object({ name: z.string(), code: z.string(), created_at: z.number(), updated_at: z.number() })
  .loose();

/** GET /api/strategy/template: the built-in Default strategy's code. */
export const strategyTemplateSchema = z.object({ code: z.string() }).loose();

/** GET /api/strategies/: the user's saved strategies. */
export const strategyListSchema = z.object({ strategies: z.array(strategyViewSchema) }).loose();
export type StrategyList = z.infer<typeof strategyListSchema>;

/** POST /api/strategies/: the saved strategy; `created` when the save made it. */
export const savedStrategySchema = z
  .object({
    name: z.string(),
    code: z.string(),
    created_at: z.number(),
    updated_at: z.number(),
    created: z.boolean(),
  })
  .loose();
export type SavedStrategyAnswer = z.infer<typeof savedStrategySchema>;

/** The feeds of a run on several feeds, in order, with their bars (a result saved from the
 * browser's figures may leave the count out). */
export const runFeedsSchema = z.array(
  z.object({ symbol_id: z.string(), period: z.string(), bar_count: z.number().optional() }).loose(),
);
export type RunFeeds = z.infer<typeof runFeedsSchema>;

/** A run's answer (POST /api/backtest/code, `data` of POST /api/backtest/run). */
export const backtestAnswerSchema = z
  .object({
    run_id: z.string().nullable(),
    deals: z.array(dealSchema),
    performance: performanceSchema.nullable(),
    error: z.string().nullable(),
    error_kind: z.string().nullable(),
    logs: z.array(z.string()),
    symbol: z.string().optional(),
    period: z.string().optional(),
    bar_count: z.number().optional(),
    /** A run on several feeds: each instrument's figures (`performance` is the portfolio's). */
    per_symbol: z.record(z.string(), performanceSchema).optional(),
    /** A run on several feeds: the feeds, in order, with their bars. */
    feeds: runFeedsSchema.optional(),
  })
  .loose();
export type BacktestAnswer = z.infer<typeof backtestAnswerSchema>;

/** POST /api/backtest/run: the run helper's answer; `reason` when it did not succeed. */
export const backtestRunAnswerSchema = z
  .object({
    success: z.boolean(),
    reason: z.string().nullable(),
    data: backtestAnswerSchema.nullable(),
  })
  .loose();
export type BacktestRunAnswer = z.infer<typeof backtestRunAnswerSchema>;

/** A saved result (POST /api/strategy-results/, rows of GET /api/strategy-results/{name}). */
export const strategyResultSchema = z
  .object({
    id: z.number(),
    strategy_name: z.string(),
    symbol_id: z.string(),
    deals: z.array(dealSchema),
    performance: performanceSchema.nullable(),
    error: z.string().nullable(),
    run_id: z.string().nullable(),
    has_logs: z.boolean(),
    created_at: z.number(),
    /** A run on several feeds: each instrument's figures and the feeds. */
    per_symbol: z.record(z.string(), performanceSchema).optional(),
    feeds: runFeedsSchema.optional(),
  })
  .loose();
export type StrategyResult = z.infer<typeof strategyResultSchema>;

/** GET /api/strategy-results/{strategy}: one page of saved results and their total. */
export const strategyResultsPageSchema = z
  .object({ results: z.array(strategyResultSchema), total: z.number() })
  .loose();
export type StrategyResultsPage = z.infer<typeof strategyResultsPageSchema>;

/**
 * A saved result as listed (GET /api/strategy-results/{strategy}) and as a save answers:
 * no deals (GET …/{id}/deals pages them) and its figures without the equity curve (GET …/{id}
 * has it), so that a listing stays small whatever was saved.
 */
export const strategyResultSummarySchema = z
  .object({
    id: z.number(),
    strategy_name: z.string(),
    symbol_id: z.string(),
    deal_count: z.number(),
    /** The performance figures without `equity_curve`. */
    performance: z
      .object({ 净利润: z.number(), 胜率: z.number(), 交易次数: z.number() })
      .loose()
      .nullable(),
    error: z.string().nullable(),
    run_id: z.string().nullable(),
    has_logs: z.boolean(),
    /** Bytes the result takes of the user's quota. */
    size_bytes: z.number(),
    /** Kept by itself after the run (the newest 50 per strategy) rather than saved. */
    automatic: z.boolean(),
    created_at: z.number(),
    /** A run on several feeds: the feeds it ran on (GET …/{id} adds `per_symbol`). */
    feeds: runFeedsSchema.optional(),
  })
  .loose();
export type StrategyResultSummary = z.infer<typeof strategyResultSummarySchema>;

/** GET /api/strategy-results/{strategy}: one page of saved results (summaries) and their total. */
export const strategyResultSummaryPageSchema = z
  .object({ results: z.array(strategyResultSummarySchema), total: z.number() })
  .loose();
export type StrategyResultSummaryPage = z.infer<typeof strategyResultSummaryPageSchema>;

/** GET /api/strategy-results/{strategy}/{id}: a saved result's figures (with the curve) and log. */
export const strategyResultDetailSchema = strategyResultSummarySchema
  .extend({
    performance: performanceSchema.nullable(),
    logs: z.array(z.string()).nullable(),
    /** A run on several feeds: each instrument's figures (`performance` is the portfolio's). */
    per_symbol: z.record(z.string(), performanceSchema).optional(),
  })
  .loose();
export type StrategyResultDetail = z.infer<typeof strategyResultDetailSchema>;

/** GET /api/strategy-results/{strategy}/{id}/deals: one page of a saved result's deals. */
export const resultDealsPageSchema = z
  .object({ deals: z.array(dealSchema), total: z.number() })
  .loose();
export type ResultDealsPage = z.infer<typeof resultDealsPageSchema>;
