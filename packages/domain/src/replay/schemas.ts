import { z } from 'zod';
import { identifierSchema, integerInputSchema } from '../api/text.ts';
import { strategyNameSchema } from '../backtest/schemas.ts';
import { backtestFeedsSchema } from '../backtest/feeds.ts';
import { periodInputSchema } from '../live-runs/schemas.ts';
import { PERIODS } from '../market/periods.ts';
import {
  closeRequestSchema,
  openOrderRequestSchema,
  pendingDelRequestSchema,
  pendingModifyRequestSchema,
  pendingOrderRequestSchema,
  tpslRequestSchema,
} from '../trading/schemas.ts';

/*
 * Bar replay sessions (docs/api.md, "Bar replay"): one schema per body and answer. Times are
 * epoch seconds (a bar's open time), money in the instrument's currency with 2 decimals.
 */

/** Most bars one step call moves the cursor (either way). */
export const MAX_REPLAY_STEP = 1000;
/** Sessions one user keeps at most. */
export const MAX_REPLAYS_PER_USER = 20;
/** Balance of a replay account when the start call names none. */
export const DEFAULT_REPLAY_BALANCE = 100_000;
/** Strategy evaluations a session answer carries (the newest). */
export const REPLAY_EVALUATIONS_SHOWN = 50;

/** Body of POST /api/replays. */
export const startReplayRequestSchema = z.object({
  symbol_id: identifierSchema(64),
  period: periodInputSchema,
  /** Open time of the bar to start from (the first visible bar's cursor), epoch seconds. */
  start: integerInputSchema('start').pipe(z.number().int().min(1, 'start must be a bar time')),
  /** A saved strategy of the user that runs at every replayed bar close. */
  strategy_name: strategyNameSchema.nullish(),
  balance: integerInputSchema('balance')
    .pipe(
      z
        .number()
        .int()
        .min(100, 'balance must be at least 100')
        .max(1_000_000_000, 'balance must be at most 1000000000'),
    )
    .optional(),
  /**
   * More feeds the strategy's `main(data_array)` receives besides the replay's own (the
   * backtest's `feeds`, without `historical_data`): each feed's bars closed by the replayed
   * close. The strategy trades the replay's own instrument.
   */
  feeds: backtestFeedsSchema.optional(),
});
export type StartReplayRequest = z.infer<typeof startReplayRequestSchema>;

/** Path parameters of /api/replays/{id}: a session id (a UUID). */
export const replayParamsSchema = z.object({ id: z.uuid('id must be a replay id') });

/** Body of POST /api/replays/{id}/step: bars to move, negative steps back. */
export const replayStepRequestSchema = z.object({
  bars: integerInputSchema('bars').pipe(
    z
      .number()
      .int()
      .min(-MAX_REPLAY_STEP, `bars must be between -${MAX_REPLAY_STEP} and ${MAX_REPLAY_STEP}`)
      .max(MAX_REPLAY_STEP, `bars must be between -${MAX_REPLAY_STEP} and ${MAX_REPLAY_STEP}`)
      .refine((n) => n !== 0, 'bars must not be 0'),
  ),
});
export type ReplayStepRequest = z.infer<typeof replayStepRequestSchema>;

const account = { uuid: true, token: true, clientOrderId: true } as const;

/**
 * Body of POST /api/replays/{id}/orders: the trading calls' bodies (docs/api.md, "Order
 * calls") without the account, tagged by `type`: `market` (open), `limit` (pending add),
 * `close` (orderId is the position), `cancel` (pId), `tpsl`, `modify` (a pending order's
 * new price and TP/SL, pId).
 */
export const replayOrderRequestSchema = z.discriminatedUnion(
  'type',
  [
    openOrderRequestSchema.omit({ ...account, symbol: true }).extend({ type: z.literal('market') }),
    pendingOrderRequestSchema
      .omit({ ...account, symbol: true, expireType: true })
      .extend({ type: z.literal('limit') }),
    closeRequestSchema.omit(account).extend({ type: z.literal('close') }),
    pendingDelRequestSchema.omit(account).extend({ type: z.literal('cancel') }),
    tpslRequestSchema.omit(account).extend({ type: z.literal('tpsl') }),
    pendingModifyRequestSchema.omit(account).extend({ type: z.literal('modify') }),
  ],
  { error: 'type must be one of market, limit, close, cancel, tpsl, modify' },
);
export type ReplayOrderRequest = z.infer<typeof replayOrderRequestSchema>;

const sideSchema = z.enum(['buy', 'sell']);
const sourceSchema = z.enum(['user', 'strategy']);
const reasonSchema = z.enum(['manual', 'strategy', 'tp', 'sl']);

/** Answer of POST /api/replays (201). */
export const replayStartedSchema = z.object({ id: z.string(), cursor: z.number().int() });
export type ReplayStarted = z.infer<typeof replayStartedSchema>;

export const replayPositionSchema = z.object({
  id: z.number().int(),
  side: sideSchema,
  volume: z.number(),
  open_price: z.number(),
  tp: z.number(),
  sl: z.number(),
  open_time: z.number().int(),
  /** Unrealised P&L at the cursor's close. */
  profit: z.number(),
  source: sourceSchema,
});

export const replayPendingSchema = z.object({
  id: z.number().int(),
  side: sideSchema,
  trigger: z.enum(['limit', 'stop']),
  price: z.number(),
  volume: z.number(),
  tp: z.number(),
  sl: z.number(),
  placed_at: z.number().int(),
  source: sourceSchema,
});

export const replayTradeSchema = z.object({
  position_id: z.number().int(),
  open_time: z.number().int(),
  close_time: z.number().int(),
  side: sideSchema,
  volume: z.number(),
  open_price: z.number(),
  close_price: z.number(),
  profit: z.number(),
  commission: z.number(),
  reason: reasonSchema,
  source: sourceSchema,
});
export type ReplayTradeView = z.infer<typeof replayTradeSchema>;

export const replayFillSchema = z.object({
  time: z.number().int(),
  position_id: z.number().int(),
  action: z.enum(['open', 'close']),
  side: sideSchema,
  volume: z.number(),
  price: z.number(),
  source: sourceSchema,
  reason: reasonSchema.nullable(),
});
export type ReplayFillView = z.infer<typeof replayFillSchema>;

/** What the strategy did at one replayed bar close. */
export const replayEvaluationSchema = z.object({
  bar_time: z.number().int(),
  wanted: z.array(z.object({ side: sideSchema, lots: z.number(), open_time: z.number().int() })),
  /** The orders it sent at this close, in order. */
  orders: z.array(
    z.object({
      action: z.enum(['open', 'close']),
      side: sideSchema,
      volume: z.number(),
      /** The fill price (a pending order's price while it waits); null when refused. */
      price: z.number().nullable(),
      /** Filled at the close, waiting as a pending order, or refused (`error` says why). */
      status: z.enum(['filled', 'pending', 'refused']),
      error: z.string().nullable(),
    }),
  ),
  /** Every line it printed at this close (the first 200). */
  printed: z.array(z.string()),
  error: z.string().nullable(),
});
export type ReplayEvaluationView = z.infer<typeof replayEvaluationSchema>;

/** One session of GET /api/replays. */
export const replaySummarySchema = z.object({
  id: z.string(),
  symbol_id: z.string(),
  period: z.enum(PERIODS),
  start: z.number().int(),
  cursor: z.number().int(),
  strategy_name: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  /** The feeds the strategy receives besides the replay's own (absent: its own only). */
  feeds: z.array(z.object({ symbol_id: z.string(), period: z.enum(PERIODS) })).optional(),
});
export type ReplaySummary = z.infer<typeof replaySummarySchema>;

export const replayListSchema = z.object({ replays: z.array(replaySummarySchema) });
export type ReplayList = z.infer<typeof replayListSchema>;

/** GET /api/replays/{id}, and the answer of a step or an order. */
export const replayViewSchema = replaySummarySchema.extend({
  account: z.object({
    initial_balance: z.number(),
    balance: z.number(),
    floating: z.number(),
    equity: z.number(),
    margin: z.number(),
    free_margin: z.number(),
    currency: z.string(),
  }),
  positions: z.array(replayPositionSchema),
  pending: z.array(replayPendingSchema),
  trades: z.array(replayTradeSchema),
  fills: z.array(replayFillSchema),
  /** Equity at every replayed bar's close, from the start bar on. */
  equity: z.array(z.object({ time: z.number().int(), equity: z.number() })),
  /** The strategy's newest evaluations, newest last (empty without a strategy). */
  evaluations: z.array(replayEvaluationSchema),
  /** The last bar that may be replayed (the newest closed bar), epoch seconds. */
  last_bar: z.number().int(),
  /** The quote orders are checked and market orders filled at: the cursor bar's close (bid) and the ask (bid + spread). */
  quote: z.object({ bid: z.number(), ask: z.number() }),
});
export type ReplayView = z.infer<typeof replayViewSchema>;

export const replayDeletedSchema = z.object({ id: z.string() });
