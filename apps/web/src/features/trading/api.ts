import {
  accountSummarySchema,
  CHANNEL_DEFAULT,
  closeResponseSchema,
  DEVICE_DEFAULT,
  envelopeSchema,
  liveTokenSchema,
  MSG_TOKEN_INVALID,
  openOrderResponseSchema,
  orderLogsPageSchema,
  pendingDelResponseSchema,
  pendingModifyResponseSchema,
  pendingOrderResponseSchema,
  pendingSchema,
  positionSchema,
  settlesPageSchema,
  tpslResponseSchema,
  type AccountSummary,
  type closeRequestSchema,
  type ExpireType,
  type LiveToken,
  type openOrderRequestSchema,
  type pendingDelRequestSchema,
  type pendingModifyRequestSchema,
  type pendingOrderRequestSchema,
  type tpslRequestSchema,
  type OrderLogView,
  type PendingView,
  type PositionView,
  type SettleView,
  type Trader,
} from '@ct/domain';
import { z } from 'zod';
import { ApiError, http, serverText } from '../../api/client';
import { trading as messages } from '../../i18n/defaults/trading';
import { useAuthStore } from '../auth';

const t = messages.trading;

/** What every trading call answers (spec section 7): success with data, or a message. */
export type TradingResult<T> =
  { success: true; message: string; data: T } | { success: false; message: string };

function failure(message: string): { success: false; message: string } {
  return { success: false, message };
}

/** The current trading account, or null (trading calls then fail, spec section 5). */
export function currentTrader(): Trader | null {
  return useAuthStore.getState().currentTrader;
}

const account = (trader: Trader) => ({
  channel: CHANNEL_DEFAULT,
  device: DEVICE_DEFAULT,
  uuid: trader.uuid,
  token: trader.token,
});

// ---- Lists ----

const listAnswer = <K extends string, T extends z.ZodType>(key: K, row: T) =>
  envelopeSchema(
    z
      .object({ [key]: z.array(row) } as Record<K, z.ZodArray<T>>)
      .loose()
      .nullable(),
  );

async function list<T>(
  path: string,
  key: string,
  row: z.ZodType<T>,
  fallback: string,
  trader: Trader | null,
  extra: Record<string, string | number> = {},
  noCache = false,
): Promise<TradingResult<T[]>> {
  if (!trader) return failure(t.noCurrentTrader);
  try {
    const answer = await http.get(path, {
      params: { ...account(trader), ...extra },
      noCache,
      schema: listAnswer(key, row),
    });
    const rows = answer.data?.[key] as T[] | undefined;
    if (answer.code !== 0 || !rows) return failure(serverText(answer.msg) || fallback);
    return { success: true, message: serverText(answer.msg), data: rows };
  } catch (error) {
    // A thrown error uses its own message (spec section 8).
    return failure(error instanceof Error && error.message ? error.message : fallback);
  }
}

/** GET /trading/order/position: open positions (`data.orders`). */
export function fetchPositions(trader = currentTrader()): Promise<TradingResult<PositionView[]>> {
  return list('/trading/order/position', 'orders', positionSchema, t.positionsFailed, trader);
}

/** The paging of GET /trading/order/settles and /logs: older than `lastSortId` (-1 newest). */
export type PageRequest = { lastSortId: number; limit: number };

/** One page of a paged list: its rows, the key of the next older page (-1: none) and the total. */
export type ListPage<T> = { rows: T[]; lastSortId: number; total: number };

async function page<K extends string, T>(
  path: string,
  key: K,
  schema: z.ZodType<Record<K, T[]> & { lastSortId: number; total: number }>,
  fallback: string,
  trader: Trader | null,
  request: PageRequest,
): Promise<TradingResult<ListPage<T>>> {
  if (!trader) return failure(t.noCurrentTrader);
  try {
    const answer = await http.get(path, {
      params: { ...account(trader), _t: Date.now(), ...request },
      noCache: true,
      schema: envelopeSchema(schema.nullable()),
    });
    if (answer.code !== 0 || !answer.data) return failure(serverText(answer.msg) || fallback);
    const { lastSortId, total } = answer.data;
    return {
      success: true,
      message: serverText(answer.msg),
      data: { rows: answer.data[key], lastSortId, total },
    };
  } catch (error) {
    // A thrown error uses its own message (spec section 8).
    return failure(error instanceof Error && error.message ? error.message : fallback);
  }
}

/** GET /trading/order/logs with a timestamp and no-cache headers (`data.orders`), a page. */
export function fetchOrderLogs(
  trader: Trader | null,
  request: PageRequest,
): Promise<TradingResult<ListPage<OrderLogView>>> {
  return page(
    '/trading/order/logs',
    'orders',
    orderLogsPageSchema,
    t.orderLogsFailed,
    trader,
    request,
  );
}

/** GET /trading/order/settles from `lastSortId` (-1 the newest), no-cache (`data.settles`). */
export function fetchSettles(
  trader: Trader | null,
  request: PageRequest,
): Promise<TradingResult<ListPage<SettleView>>> {
  return page(
    '/trading/order/settles',
    'settles',
    settlesPageSchema,
    t.settlesFailed,
    trader,
    request,
  );
}

/** GET /trading/order/pending with a timestamp and no-cache headers (`data.pendings`). */
export function fetchPendings(trader = currentTrader()): Promise<TradingResult<PendingView[]>> {
  return list(
    '/trading/order/pending',
    'pendings',
    pendingSchema,
    t.pendingsFailed,
    trader,
    { _t: Date.now() },
    true,
  );
}

/** GET /trading/account/summary: the account's money and what it was figured from. */
export async function fetchAccountSummary(
  trader: Trader | null = currentTrader(),
): Promise<TradingResult<AccountSummary>> {
  if (!trader) return failure(t.noCurrentTrader);
  try {
    const answer = await http.get('/trading/account/summary', {
      params: account(trader),
      noCache: true,
      schema: envelopeSchema(accountSummarySchema.nullable()),
    });
    if (answer.code !== 0 || !answer.data)
      return failure(serverText(answer.msg) || messages.accountMoney.summaryFailed);
    return { success: true, message: serverText(answer.msg), data: answer.data };
  } catch (error) {
    return failure(
      error instanceof Error && error.message ? error.message : messages.accountMoney.summaryFailed,
    );
  }
}

// ---- Mutations (the order helpers) ----

/**
 * A refused call answers non-2xx with the server's `msg`: that is a failure with its
 * message. A refusal inside a 200 answer (`code` not 0, `success` false) is one too; the
 * server's texts of both are shown in the chosen language (`serverText`). A call that never got an answer (network) is thrown, so each action can show
 * its own 'request failed' text.
 */
async function mutate<T>(
  path: string,
  body: Record<string, unknown>,
  schema: z.ZodType<{ code: number; msg: string; success: boolean; message: string; data: T }>,
  fallback: string,
): Promise<TradingResult<T>> {
  try {
    const answer = await http.post(path, body, { schema });
    if (answer.code !== 0 || !answer.success || answer.data === null) {
      return failure(serverText(answer.message || answer.msg) || fallback);
    }
    return { success: true, message: serverText(answer.message || answer.msg), data: answer.data };
  } catch (error) {
    if (error instanceof ApiError) return failure(error.message || fallback);
    if (error instanceof Error && error.message === MSG_TOKEN_INVALID)
      return failure(error.message);
    throw error;
  }
}

export type MarketOrderRequest = {
  symbol: string;
  cmd: 1 | 2;
  volume: number;
  tp?: number;
  sl?: number;
  clientOrderId?: string;
};

/** The market order helper (POST /trading/order/open): `data.order.orderId`. */
export function placeMarketOrderRequest(
  trader: Trader,
  order: MarketOrderRequest,
): Promise<TradingResult<{ order: PositionView } | null>> {
  return mutate(
    '/trading/order/open',
    { ...account(trader), comment: '', ...order } satisfies z.input<typeof openOrderRequestSchema>,
    openOrderResponseSchema,
    t.orderFailedDefault,
  );
}

export type PendingOrderRequest = MarketOrderRequest & {
  pendPrice: number;
  expireType: ExpireType;
};

/** The pending order helper (POST /trading/order/pending/add): `data.pending.pId`. */
export function placePendingOrderRequest(
  trader: Trader,
  order: PendingOrderRequest,
): Promise<TradingResult<{ pending: PendingView } | null>> {
  return mutate(
    '/trading/order/pending/add',
    { ...account(trader), ...order } satisfies z.input<typeof pendingOrderRequestSchema>,
    pendingOrderResponseSchema,
    t.pendingFailedDefault,
  );
}

/** The edit TP/SL helper (POST /trading/order/tpsl): tp and sl only when enabled. */
export function editTpslRequest(
  trader: Trader,
  edit: { orderId: string; tp?: number; sl?: number },
): Promise<TradingResult<{ order: PositionView } | null>> {
  return mutate(
    '/trading/order/tpsl',
    { token: trader.token, uuid: trader.uuid, ...edit } satisfies z.input<typeof tpslRequestSchema>,
    tpslResponseSchema,
    t.tpslFailedDefault,
  );
}

/** POST /trading/order/close: `volume` of position `orderId`, close type 0. */
export function closePositionRequest(
  trader: Trader,
  close: { orderId: string; volume: number; closeTypeYT?: number; clientOrderId?: string },
): Promise<TradingResult<{ order: PositionView; settle: SettleView } | null>> {
  return mutate(
    '/trading/order/close',
    { ...account(trader), closeTypeYT: 0, ...close } satisfies z.input<typeof closeRequestSchema>,
    closeResponseSchema,
    t.closeFailedDefault,
  );
}

/** POST /trading/order/pending/del: cancels pending order `pId`. */
export function cancelPendingRequest(
  trader: Trader,
  pId: string,
): Promise<TradingResult<{ pending: PendingView } | null>> {
  return mutate(
    '/trading/order/pending/del',
    { ...account(trader), pId } satisfies z.input<typeof pendingDelRequestSchema>,
    pendingDelResponseSchema,
    t.cancelFailedDefault,
  );
}

/**
 * POST /trading/order/pending/modify (ours): a working pending order's new price with its TP
 * and SL (each left out is removed, like the edit TP/SL helper).
 */
export function modifyPendingRequest(
  trader: Trader,
  change: { pId: string; pendPrice: number; tp?: number; sl?: number; clientOrderId?: string },
): Promise<TradingResult<{ pending: PendingView } | null>> {
  return mutate(
    '/trading/order/pending/modify',
    { ...account(trader), ...change } satisfies z.input<typeof pendingModifyRequestSchema>,
    pendingModifyResponseSchema,
    messages.pendingModify.failed,
  );
}

/** GET /api/live/token: the tokens of the account's private live channel. */
export function fetchLiveToken(trader: Trader): Promise<LiveToken> {
  return http.get('/api/live/token', {
    params: { uuid: trader.uuid, token: trader.token },
    noCache: true,
    schema: liveTokenSchema,
  });
}
