import { z } from 'zod';
import { pageQuerySchema } from '../api/paging.ts';
import { identifierSchema, integerInputSchema, opaqueTextSchema } from '../api/text.ts';
import { parsePeriod, PERIODS, type Period } from '../market/periods.ts';
import { strategyNameSchema } from '../backtest/schemas.ts';
import { backtestFeedsSchema } from '../backtest/feeds.ts';

/*
 * Forward tests on paper (issue 19): a saved strategy, or a completed AI task's code, runs at
 * every bar close of one instrument and period and trades a paper account through the same
 * engine as a person. The calls of docs/api.md "Live runs", one schema per body and answer.
 * Times are epoch seconds, money in the instrument's currency with 2 decimals.
 */

/** Statuses of a run: running until stopped by the user, or failed (too many failures). */
export const LIVE_RUN_STATUSES = ['running', 'stopped', 'failed'] as const;
export type LiveRunStatus = (typeof LIVE_RUN_STATUSES)[number];
export const liveRunStatusSchema = z.enum(LIVE_RUN_STATUSES);

/** Largest lots multiplier of a run (the strategy's lots are multiplied by it). */
export const MAX_LIVE_RUN_LOTS = 1000;
/** Largest `max_positions` of a run. */
export const MAX_LIVE_RUN_POSITIONS = 100;
/** Largest page of GET /api/live-runs/{id}/evaluations. */
export const MAX_LIVE_RUN_EVALUATIONS_PAGE = 200;
/** Default page of GET /api/live-runs/{id}/evaluations. */
export const DEFAULT_LIVE_RUN_EVALUATIONS_PAGE = 20;

/** The comment every order of a run carries: `live:<run id>` (tags it in the order tables). */
export function liveRunComment(runId: string): string {
  return `live:${runId}`;
}

/** The run id of an order comment written by `liveRunComment`, or null for any other comment. */
export function liveRunIdOfComment(comment: string | null | undefined): string | null {
  if (typeof comment !== 'string' || !comment.startsWith('live:')) return null;
  const id = comment.slice('live:'.length);
  return /^[0-9a-f-]{36}$/.test(id) ? id : null;
}

/**
 * The client id of the log socket `/ws/{clientId}` that streams a run's printed lines while
 * somebody watches: `live-<run id>` (fits CLIENT_ID_PATTERN).
 */
export function liveRunLogClientId(runId: string): string {
  return `live-${runId}`;
}

/** A positive decimal (number or plain decimal string) up to `max`, named in the message. */
function positiveDecimal(name: string, max: number) {
  return z.union([z.number(), z.string().max(32)]).transform((value, ctx) => {
    const n =
      typeof value === 'number'
        ? value
        : /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value.trim())
          ? Number(value.trim())
          : Number.NaN;
    if (!Number.isFinite(n) || n <= 0 || n > max) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a number above 0 and at most ${max}`,
      });
      return z.NEVER;
    }
    return n;
  });
}

/** A kline period id or a client period name (oneDay …), as the kline call takes it. */
export const periodInputSchema = z
  .string()
  .max(32)
  .transform((value, ctx): Period => {
    const period = parsePeriod(value.trim());
    if (period === null) {
      ctx.addIssue({ code: 'custom', message: `period must be one of ${PERIODS.join(', ')}` });
      return z.NEVER;
    }
    return period;
  });

/** An AI task id: a positive PostgreSQL integer, as a number or a string of digits. */
const taskIdSchema = z.union([z.number(), z.string().max(16)]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
    ctx.addIssue({ code: 'custom', message: 'task_id must be a task id' });
    return z.NEVER;
  }
  return n;
});

/**
 * Body of POST /api/live-runs. `strategy_name` names a saved strategy of the user (its code
 * is copied when the run starts; 'Default' / 'Default Strategy' is the built-in template).
 * With `task_id`, the code of that completed AI task of the user runs and `strategy_name` is
 * only the run's label. `uuid`/`token` are the trading account and its token, as in every
 * trading call. `lots` multiplies the strategy's lots; `max_positions` caps the positions
 * the run holds at once.
 */
export const startLiveRunRequestSchema = z.object({
  strategy_name: strategyNameSchema,
  task_id: taskIdSchema.nullish(),
  uuid: identifierSchema(64),
  token: opaqueTextSchema(1, 256),
  symbol_id: identifierSchema(64),
  period: periodInputSchema,
  lots: positiveDecimal('lots', MAX_LIVE_RUN_LOTS).optional().default(1),
  max_positions: integerInputSchema('max_positions')
    .pipe(
      z
        .number()
        .int()
        .min(1, 'max_positions must be at least 1')
        .max(MAX_LIVE_RUN_POSITIONS, `max_positions must be at most ${MAX_LIVE_RUN_POSITIONS}`),
    )
    .optional()
    .default(1),
  /**
   * More feeds `main(data_array)` receives besides the run's own (the backtest's `feeds`,
   * without `historical_data`: a live run reads each feed's bars as they close); the run
   * trades its own instrument.
   */
  feeds: backtestFeedsSchema.optional(),
});
export type StartLiveRunRequest = z.infer<typeof startLiveRunRequestSchema>;

/** Answer of POST /api/live-runs (201) and of POST /api/live-runs/{id}/stop (200). */
export const liveRunStartedSchema = z.object({ id: z.string(), status: liveRunStatusSchema });
export type LiveRunStarted = z.infer<typeof liveRunStartedSchema>;

/** Path parameters of /api/live-runs/{id}/…: a run id (a UUID). */
export const liveRunParamsSchema = z.object({ id: z.uuid('id must be a run id') });

/** One run of GET /api/live-runs. */
export const liveRunSchema = z.object({
  id: z.string(),
  strategy_name: z.string(),
  /** The AI task whose code runs; null for a saved strategy. */
  task_id: z.number().int().nullable(),
  /** The trading account it trades. */
  uuid: z.string(),
  symbol_id: z.string(),
  period: z.enum(PERIODS),
  lots: z.number(),
  max_positions: z.number().int(),
  status: liveRunStatusSchema,
  started_at: z.number().int(),
  /** null while running. */
  stopped_at: z.number().int().nullable(),
  /** Evaluations done (all, also those no longer kept). */
  evaluations: z.number().int().nonnegative(),
  /** Orders sent (filled or refused). */
  orders: z.number().int().nonnegative(),
  /** Realized P&L of the run's closed positions, commissions included, plus unrealized P&L of its open ones at the last quote. */
  net_profit: z.number(),
  /** Positions of the run open now. */
  open_positions: z.number().int().nonnegative(),
  /** Bar close of the last evaluation; null before the first. */
  last_evaluation_at: z.number().int().nullable(),
  /** Failures in a row now (the run stops at `max_failures`). */
  consecutive_failures: z.number().int().nonnegative(),
  max_failures: z.number().int().positive(),
  /** The last error (of an evaluation, or why the run stopped); null when none. */
  error: z.string().nullable(),
  /** The feeds `main` receives besides the run's own (absent: its own only). */
  feeds: z.array(z.object({ symbol_id: z.string(), period: z.enum(PERIODS) })).optional(),
});
export type LiveRunView = z.infer<typeof liveRunSchema>;

/** Answer of GET /api/live-runs: the user's runs, newest first. */
export const liveRunListSchema = z.object({ runs: z.array(liveRunSchema) });
export type LiveRunList = z.infer<typeof liveRunListSchema>;

/** A position the strategy wants open: one of its records with status 'NOT'. */
export const wantedPositionSchema = z.object({
  /** Positive buy, negative sell (the strategy's lots, before the run's multiplier). */
  lots: z.number(),
  open_date: z.string(),
  open_price: z.number(),
});
export type WantedPositionView = z.infer<typeof wantedPositionSchema>;

/** One order an evaluation sent, and what became of it. */
export const liveRunOrderSchema = z.object({
  /** open: a new position; close: a position the strategy no longer holds. */
  action: z.enum(['open', 'close']),
  /** 1 buy, 2 sell (of the order, so closing a buy is 2). */
  cmd: z.union([z.literal(1), z.literal(2)]),
  volume: z.number(),
  /**
   * The idempotency key (one per strategy record for an open, one per position for a
   * close): a retry after a restart sends the same one and gets the first answer.
   */
  client_order_id: z.string(),
  /** The position (orderId of the trading calls); null when refused before one existed. */
  order_id: z.string().nullable(),
  status: z.enum(['filled', 'rejected']),
  /** Fill price; null when refused. */
  price: z.number().nullable(),
  /** The strategy's price for it (the record's open price; the bar close when closing). */
  strategy_price: z.number(),
  /** Why it was refused ('' when filled). */
  message: z.string(),
  /** Milliseconds from the bar close until the order was filled (and kept); null when refused. */
  fill_delay_ms: z.number().int().nonnegative().nullable().optional(),
});
export type LiveRunOrderView = z.infer<typeof liveRunOrderSchema>;

/** One kept evaluation of GET /api/live-runs/{id}/evaluations. */
export const liveRunEvaluationSchema = z.object({
  /** Bar close the evaluation ran at. */
  at: z.number().int(),
  /** Start of the bar that closed. */
  bar_time: z.number().int(),
  /** Bars main(data_array) saw. */
  bars: z.number().int().nonnegative(),
  wanted: z.array(wantedPositionSchema),
  orders: z.array(liveRunOrderSchema),
  /** What failed (the strategy, a timeout, the contract, a refused order); null when nothing. */
  error: z.string().nullable(),
  /** Lines the strategy printed (bounded). */
  printed: z.array(z.string()),
  /** Milliseconds from the bar close to the end of the evaluation. */
  duration_ms: z.number().int().nonnegative(),
});
export type LiveRunEvaluationView = z.infer<typeof liveRunEvaluationSchema>;

/** Query of GET /api/live-runs/{id}/evaluations: newest first. */
export const liveRunEvaluationsQuerySchema = pageQuerySchema({
  max: MAX_LIVE_RUN_EVALUATIONS_PAGE,
  default: DEFAULT_LIVE_RUN_EVALUATIONS_PAGE,
});
export type LiveRunEvaluationsQuery = z.infer<typeof liveRunEvaluationsQuerySchema>;

/** Answer of GET /api/live-runs/{id}/evaluations: a page, newest first; `total` kept. */
export const liveRunEvaluationsSchema = z.object({
  evaluations: z.array(liveRunEvaluationSchema),
  total: z.number().int().nonnegative(),
});
export type LiveRunEvaluations = z.infer<typeof liveRunEvaluationsSchema>;

/** Query of GET /api/live-runs/{id}/comparison: a stretch of the run (epoch seconds). */
export const liveRunComparisonQuerySchema = z.object({
  from: integerInputSchema('from').pipe(z.number().int().min(0)).optional(),
  to: integerInputSchema('to').pipe(z.number().int().min(0)).optional(),
});
export type LiveRunComparisonQuery = z.infer<typeof liveRunComparisonQuerySchema>;

/** A trade of one side of the comparison. Times are bar starts (epoch s). */
export const comparedTradeSchema = z.object({
  /** 1 buy, 2 sell. */
  cmd: z.union([z.literal(1), z.literal(2)]),
  volume: z.number(),
  open_time: z.number().int(),
  open_price: z.number(),
  /** null while open (valued at the last bar close). */
  close_time: z.number().int().nullable(),
  close_price: z.number().nullable(),
  /** P&L with commission, 2 decimals. */
  profit: z.number(),
  commission: z.number(),
});
export type ComparedTradeView = z.infer<typeof comparedTradeSchema>;

/** A backtest trade and the forward trade matched to it, and how they differ. */
export const matchedTradeSchema = z.object({
  backtest: comparedTradeSchema,
  forward: comparedTradeSchema,
  /** Forward − backtest open price (4 decimals): what the fill cost beyond the strategy's price. */
  open_price_diff: z.number(),
  /** Forward − backtest close price; null while either is open. */
  close_price_diff: z.number().nullable(),
  /** Forward − backtest open time, seconds (0: the same bar). */
  open_delay: z.number().int(),
  /** Forward − backtest close time, seconds; null while either is open. */
  close_delay: z.number().int().nullable(),
  /** Forward − backtest profit. */
  profit_diff: z.number(),
});
export type MatchedTradeView = z.infer<typeof matchedTradeSchema>;

/**
 * The P&L gap (forward − backtest) split into causes that sum to it (2 decimals each); a
 * cost of the forward test is negative. spread: the fill at bid/ask instead of the price the
 * bars are built from; commission: the engine's commission minus the backtest's; slippage:
 * the price moving between the bar close and the fill; missed_bars: trades entered or left
 * at other bars, or found in one list only; other: what remains (rounding, volumes).
 */
export const pnlCausesSchema = z.object({
  spread: z.number(),
  commission: z.number(),
  slippage: z.number(),
  missed_bars: z.number(),
  other: z.number(),
});
export type PnlCauses = z.infer<typeof pnlCausesSchema>;

/** Answer of GET /api/live-runs/{id}/comparison. */
export const liveRunComparisonSchema = z.object({
  /** The stretch compared (bar starts, epoch s) and its bars; null bounds: no bars yet. */
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
  bars: z.number().int().nonnegative(),
  matched: z.array(matchedTradeSchema),
  only_backtest: z.array(comparedTradeSchema),
  only_forward: z.array(comparedTradeSchema),
  pnl_backtest: z.number(),
  pnl_forward: z.number(),
  causes: pnlCausesSchema,
  /** Cumulative P&L of each side at every trade close, [epoch s, P&L] (the equity chart). */
  curve_backtest: z.array(z.tuple([z.number().int(), z.number()])),
  curve_forward: z.array(z.tuple([z.number().int(), z.number()])),
  /** The backtest's error when the code failed on these bars; null otherwise. */
  backtest_error: z.string().nullable(),
});
export type LiveRunComparison = z.infer<typeof liveRunComparisonSchema>;
