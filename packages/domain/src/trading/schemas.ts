import { z } from 'zod';
import {
  decimalInputSchema,
  freeTextSchema,
  identifierSchema,
  integerInputSchema,
  opaqueTextSchema,
} from '../api/text.ts';
import { liveRunStatusSchema } from '../live-runs/schemas.ts';
import { EXPIRE_TYPES } from './calendar.ts';

/*
 * Requests and responses of the trading calls (spec section 7, docs/api.md "Trading").
 * Requests accept numbers also as numeric strings (forms send text); a value that is not a
 * number becomes NaN so the domain rule answers with its own message (e.g. 'Invalid
 * quantity'). Unknown fields (channel, device, _t, comment…) are accepted and ignored.
 */

/**
 * A number, or a string holding one in plain decimal notation ('1', '0.5'); other strings
 * ('0b1', '+1', '1e3') become NaN, which the rules reject with their own message.
 */
const lenientNumber = decimalInputSchema();

/** An optional TP or SL price: absent, null or 0 means not set. */
const optionalExitPrice = z
  .union([lenientNumber, z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined ? 0 : value));

/** An order id or pending id: a positive integer, as a number or a string of digits. */
const recordId = (name: string) =>
  z.union([z.number(), z.string().max(32)]).transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    if (!/^\d{1,15}$/.test(text) || /^0+$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a positive integer id` });
      return z.NEVER;
    }
    return BigInt(text).toString();
  });

/** Side of an order: 1 buy, 2 sell (also '1' / '2'). */
const cmdSchema = z
  .union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')], {
    error: 'cmd must be 1 (buy) or 2 (sell)',
  })
  .transform((value) => Number(value) as 1 | 2);

/** The caller's idempotency key: a retry with the same key returns the first answer. */
const clientOrderIdSchema = identifierSchema(64).optional();

/** A whole number within the safe-integer range (numbers or decimal digit strings). */
const integerQuery = integerInputSchema;

/** The trading account a call acts on and its token (query or body of every trading call). */
export const tradingAccountSchema = z.object({
  uuid: identifierSchema(64),
  token: opaqueTextSchema(1, 256),
});

/** Query of GET /trading/order/position and /trading/order/pending. */
export const tradingListQuerySchema = tradingAccountSchema;

/** Most rows one page of settles or logs returns. */
export const TRADING_PAGE_MAX = 500;
export const TRADING_PAGE_DEFAULT = 100;

/** Query of GET /trading/order/settles and /trading/order/logs: newest first, paged by sortId. */
export const tradingPageQuerySchema = tradingAccountSchema.extend({
  /** Rows with a smaller sortId than this; -1 (the default) starts at the newest. */
  lastSortId: integerQuery('lastSortId').optional().default(-1),
  limit: integerQuery('limit')
    .pipe(z.number().int().min(1).max(TRADING_PAGE_MAX))
    .optional()
    .default(TRADING_PAGE_DEFAULT),
});
export type TradingPageQuery = z.infer<typeof tradingPageQuerySchema>;

/** Body of POST /trading/order/open (the market order helper). */
export const openOrderRequestSchema = tradingAccountSchema.extend({
  symbol: identifierSchema(64),
  cmd: cmdSchema,
  volume: lenientNumber,
  tp: optionalExitPrice,
  sl: optionalExitPrice,
  comment: freeTextSchema(256).optional(),
  clientOrderId: clientOrderIdSchema,
});
export type OpenOrderRequest = z.infer<typeof openOrderRequestSchema>;

/** Body of POST /trading/order/pending/add (the pending order helper). */
export const pendingOrderRequestSchema = openOrderRequestSchema.extend({
  pendPrice: lenientNumber,
  expireType: z
    .string()
    .max(16)
    .transform((value) => value.trim().toUpperCase())
    .pipe(z.enum(EXPIRE_TYPES, { error: 'expireType must be GFD or GTC' }))
    .optional()
    .default('GTC'),
});
export type PendingOrderRequest = z.infer<typeof pendingOrderRequestSchema>;

/** Body of POST /trading/order/tpsl (the edit TP/SL helper): absent or 0 removes a level. */
export const tpslRequestSchema = tradingAccountSchema.extend({
  orderId: recordId('orderId'),
  tp: optionalExitPrice,
  sl: optionalExitPrice,
  clientOrderId: clientOrderIdSchema,
});
export type TpslRequest = z.infer<typeof tpslRequestSchema>;

/** Close type of a close call: 0 (default), 1 close-yesterday, 2 close-today. Recorded only. */
export const CLOSE_TYPES = [0, 1, 2] as const;

/** Body of POST /trading/order/close. */
export const closeRequestSchema = tradingAccountSchema.extend({
  orderId: recordId('orderId'),
  volume: lenientNumber,
  closeTypeYT: integerQuery('closeTypeYT')
    .pipe(z.number().int().min(0).max(2))
    .optional()
    .default(0),
  clientOrderId: clientOrderIdSchema,
});
export type CloseRequest = z.infer<typeof closeRequestSchema>;

/** Body of POST /trading/order/pending/del. */
export const pendingDelRequestSchema = tradingAccountSchema.extend({
  pId: recordId('pId'),
  clientOrderId: clientOrderIdSchema,
});
export type PendingDelRequest = z.infer<typeof pendingDelRequestSchema>;

/**
 * Body of POST /trading/order/pending/modify (our extension; the spec has no such call): a
 * working pending order's new price and its TP and SL, set like the edit TP/SL helper sets
 * them (absent or 0 removes a level).
 */
export const pendingModifyRequestSchema = tradingAccountSchema.extend({
  pId: recordId('pId'),
  pendPrice: lenientNumber,
  tp: optionalExitPrice,
  sl: optionalExitPrice,
  clientOrderId: clientOrderIdSchema,
});
export type PendingModifyRequest = z.infer<typeof pendingModifyRequestSchema>;

/** Query of GET /api/live/token. */
export const liveTokenQuerySchema = tradingAccountSchema;

// ---------------------------------------------------------------------------------------
// Responses. Times are epoch seconds; ids are strings of digits; prices, volumes and money
// are numbers (money in 2 decimals). tp or sl 0 means not set.

/** An open (or, in a close answer, just closed) position: spec section 3, Position. */
export const positionSchema = z.object({
  orderId: z.string(),
  uuid: z.string(),
  symbol: z.string(),
  /** 1 Buy, 2 Sell. */
  cmd: z.number().int(),
  volume: z.number(),
  settledVol: z.number(),
  /** Open price. */
  price: z.number(),
  /** The price the position would close at now: bid for a buy, ask for a sell. */
  marketPrice: z.number(),
  tp: z.number(),
  sl: z.number(),
  /** Unrealized profit of the open part at marketPrice, in `currency`. */
  floatProfit: z.number(),
  /** The instrument currency (profit and commission are in it). */
  currency: z.string(),
  /** Commission charged at open, for the whole volume. */
  commissionFee: z.number(),
  /** Overnight financing; the paper venue charges none (always 0). */
  storage: z.number(),
  createdAt: z.number().int(),
  /** closeTypeYT of the last close (0 when never closed). */
  closeType: z.number().int(),
  status: z.enum(['open', 'closed']),
  comment: z.string(),
  clientOrderId: z.string().nullable(),
  /** The pending order this position came from, if any. */
  pId: z.string().nullable(),
});
export type PositionView = z.infer<typeof positionSchema>;

/** A settled (closed) part of a position: spec section 3, Settled order. */
export const settleSchema = z.object({
  /** This settlement's id; unique per row and the paging key (lastSortId). */
  tradeId: z.string(),
  sortId: z.number().int(),
  /** The position that was closed. */
  orderId: z.string(),
  symbol: z.string(),
  openCmd: z.number().int(),
  closeCmd: z.number().int(),
  openPrice: z.number(),
  closePrice: z.number(),
  settleVolume: z.number(),
  /** 1 Partial, 2 Full (the position is closed by it). */
  isSettled: z.number().int(),
  /** UTC day of the close as yyyymmdd. */
  settleDate: z.number().int(),
  /** Gross profit in `currency` (before commissions). */
  settleProfit: z.number(),
  openAt: z.number().int(),
  closeAt: z.number().int(),
  /** The share of the open commission that belongs to the settled volume. */
  openCommission: z.number(),
  closeCommission: z.number(),
  currency: z.string(),
  /** 0 manual, 1 take-profit, 2 stop-loss, 3 stop-out, 4 a live run's strategy (closeReasonLabel). */
  closeReason: z.number().int(),
  closeType: z.number().int(),
  /** The closed position's comment: a live run's orders carry `live:<run id>`. */
  comment: z.string(),
});
export type SettleView = z.infer<typeof settleSchema>;

/** A working pending order: spec section 3, Pending order. */
export const pendingSchema = z.object({
  pId: z.string(),
  uuid: z.string(),
  symbol: z.string(),
  cmd: z.number().int(),
  volume: z.number(),
  pendPrice: z.number(),
  tp: z.number(),
  sl: z.number(),
  expireType: z.enum(EXPIRE_TYPES),
  /** When a GFD order expires (epoch s); null for GTC. */
  expiresAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  /** limit: fills when the price comes back to it; stop: when the price runs through it. */
  triggerType: z.enum(['limit', 'stop']),
  status: z.enum(['working', 'filled', 'canceled', 'expired', 'rejected']),
  /** The position it filled into. */
  orderId: z.string().nullable(),
  comment: z.string(),
  clientOrderId: z.string().nullable(),
});
export type PendingView = z.infer<typeof pendingSchema>;

/** An order of the order log: spec section 3, Order log; one row per order. */
export const orderLogSchema = z.object({
  sortId: z.number().int(),
  symbol: z.string(),
  cmd: z.number().int(),
  /** 1 Open, 2 Close; 3 Modify (ours: a TP/SL change of `orderId` or a change of `pId`). */
  actionType: z.number().int(),
  /** 1 market, 2 pending (limit or stop). */
  orderType: z.number().int(),
  volume: z.number(),
  /** Fill price; the pending price while pending; 0 when rejected before a price existed. */
  price: z.number(),
  /** The quote on the order's side when it was placed or filled. */
  marketPrice: z.number(),
  /** 0 Pending, 1 Rejected, 2 Filled, 4 Canceled (also expired). */
  orderStatus: z.number().int(),
  createdAt: z.number().int(),
  /** Time of the last status change (fill, cancel, expiry, rejection). */
  transactTime: z.number().int(),
  commissionFee: z.number(),
  currency: z.string(),
  tp: z.number(),
  sl: z.number(),
  orderId: z.string().nullable(),
  pId: z.string().nullable(),
  /** Why it was rejected, canceled or closed ('' otherwise). */
  message: z.string(),
  clientOrderId: z.string().nullable(),
});
export type OrderLogView = z.infer<typeof orderLogSchema>;

/**
 * A page of settles or logs, newest first: `lastSortId` asks for the next older page (-1:
 * there is none), `total` counts every row of the account.
 */
const pageOf = <K extends string, T extends z.ZodType>(key: K, row: T) =>
  z.object({
    ...({ [key]: z.array(row) } as Record<K, z.ZodArray<T>>),
    lastSortId: z.number().int(),
    total: z.number().int().nonnegative(),
  });

/** `data` of GET /trading/order/settles. */
export const settlesPageSchema = pageOf('settles', settleSchema);
export type SettlesPage = z.infer<typeof settlesPageSchema>;

/** `data` of GET /trading/order/logs. */
export const orderLogsPageSchema = pageOf('orders', orderLogSchema);
export type OrderLogsPage = z.infer<typeof orderLogsPageSchema>;

/**
 * One line of an account's open exposure in its summary: the open lots of one instrument
 * and side, what the figures were taken with, so a browser recomputes them with the same
 * rule (accountFigures) from live quotes.
 */
export const accountExposureSchema = z.object({
  symbol: z.string(),
  /** 1 buy, 2 sell. */
  cmd: z.union([z.literal(1), z.literal(2)]),
  /** Open lots. */
  volume: z.number(),
  /** Σ open lots × open price (average open price = notional / volume). */
  notional: z.number(),
  /** The instrument's currency and contract terms (names as in the instrument list). */
  currency: z.string(),
  volume_multiple: z.number(),
  margin_ratio_by_money: z.number(),
  /** The quote the server valued the line at; null when the instrument never quoted. */
  bid: z.number().nullable(),
  ask: z.number().nullable(),
});
export type AccountExposure = z.infer<typeof accountExposureSchema>;

/** `data` of GET /trading/account/summary: the account in its currency (USD). */
export const accountSummarySchema = z.object({
  uuid: z.string(),
  currency: z.string(),
  startingBalance: z.number(),
  /** Starting balance + realized P&L − commissions. */
  balance: z.number(),
  /** Balance + unrealized P&L. */
  equity: z.number(),
  usedMargin: z.number(),
  /** Equity − used margin. */
  freeMargin: z.number(),
  /** Equity / used margin in percent (4 decimals); null without open positions. */
  marginLevel: z.number().nullable(),
  realizedPnl: z.number(),
  unrealizedPnl: z.number(),
  commissionPaid: z.number(),
  openPositions: z.number().int(),
  pendingOrders: z.number().int(),
  /** The open exposure the figures were taken from, per instrument and side. */
  exposure: z.array(accountExposureSchema),
  /** Mid prices that converted instrument currencies to USD (null: the fixed rate). */
  conversion: z.object({ USDJPY: z.number().nullable(), EURUSD: z.number().nullable() }),
  /** The configured margin level (percent) below which the account is warned. */
  marginWarningLevel: z.number(),
  /** Whether the margin level is below marginWarningLevel now. */
  marginWarning: z.boolean(),
  /** When the figures were taken, epoch ms. */
  at: z.number().int(),
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;

// The live token's answer and the account channel are a module of their own: a page that
// only needs them does not take every trading schema along.
export { accountChannel, liveTokenSchema, type LiveToken } from './live-token.ts';

const eventBase = { uuid: z.string(), symbol: z.string(), at: z.number().int() };

/**
 * Publications on `account:{uuid}`: what changed, with ids, so a page refetches the tables
 * it shows. `at` is epoch milliseconds.
 */
export const accountEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('position_opened'),
    ...eventBase,
    orderId: z.string(),
    pId: z.string().nullable(),
  }),
  z.object({
    type: z.literal('position_closed'),
    ...eventBase,
    orderId: z.string(),
    tradeId: z.string(),
    volume: z.number(),
    full: z.boolean(),
    /** 0 manual, 1 take-profit, 2 stop-loss, 3 stop-out, 4 a live run's strategy. */
    closeReason: z.number().int(),
  }),
  z.object({
    type: z.literal('tpsl_changed'),
    ...eventBase,
    orderId: z.string(),
    tp: z.number(),
    sl: z.number(),
  }),
  z.object({ type: z.literal('pending_added'), ...eventBase, pId: z.string() }),
  z.object({
    type: z.literal('pending_filled'),
    ...eventBase,
    pId: z.string(),
    orderId: z.string(),
  }),
  z.object({ type: z.literal('pending_canceled'), ...eventBase, pId: z.string() }),
  z.object({
    type: z.literal('pending_modified'),
    ...eventBase,
    pId: z.string(),
    pendPrice: z.number(),
    tp: z.number(),
    sl: z.number(),
  }),
  z.object({ type: z.literal('pending_expired'), ...eventBase, pId: z.string() }),
  z.object({
    type: z.literal('pending_rejected'),
    ...eventBase,
    pId: z.string(),
    message: z.string(),
  }),
  /**
   * A live run trading this account evaluated a bar close (its orders, if any, have their
   * own events before it): its status after it ('failed' when it was the last failure
   * allowed), whether the evaluation failed, and its counters.
   */
  z.object({
    type: z.literal('live_run_evaluated'),
    ...eventBase,
    runId: z.string(),
    status: liveRunStatusSchema,
    failed: z.boolean(),
    evaluations: z.number().int(),
    orders: z.number().int(),
  }),
]);
export type AccountEvent = z.infer<typeof accountEventSchema>;

/** The order helper answers carry `success` and `message` besides `code`, `msg` and `data`. */
export const helperEnvelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    code: z.number().int(),
    msg: z.string(),
    success: z.boolean(),
    message: z.string(),
    data,
  });

export const openOrderResponseSchema = helperEnvelopeSchema(
  z.object({ order: positionSchema }).nullable(),
);
export const pendingOrderResponseSchema = helperEnvelopeSchema(
  z.object({ pending: pendingSchema }).nullable(),
);
export const tpslResponseSchema = openOrderResponseSchema;
export const closeResponseSchema = helperEnvelopeSchema(
  z.object({ order: positionSchema, settle: settleSchema }).nullable(),
);
export const pendingDelResponseSchema = pendingOrderResponseSchema;
export const pendingModifyResponseSchema = pendingOrderResponseSchema;
