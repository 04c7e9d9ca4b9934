import {
  accountSummarySchema,
  closeRequestSchema,
  ok,
  openOrderRequestSchema,
  pendingDelRequestSchema,
  type OrderLogsPage,
  type SettlesPage,
  pendingOrderRequestSchema,
  tpslRequestSchema,
  tradingAccountSchema,
  tradingPageQuerySchema,
} from '@ct/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import { cancelPendingOrder } from './cancel-pending-order.ts';
import { closePosition } from './close-position.ts';
import type { TradingContext } from './context.ts';
import { editTpsl } from './edit-tpsl.ts';
import { mintLiveToken } from './live-token.ts';
import { placeMarketOrder } from './place-market-order.ts';
import { placePendingOrder } from './place-pending-order.ts';
import { accountSummary, DEFAULT_MARGIN_WARNING_LEVEL } from './account-summary.ts';
import { listLogs, listPendings, listPositions, listSettles } from './queries.ts';

/**
 * The mutations answer `{ code, msg, data }` and also `success` and `message` (the spec's
 * order helpers read those), on success and failure alike.
 */
function withHelperFields(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) return payload;
  const { code, msg } = payload as { code?: unknown; msg?: unknown };
  if (typeof code !== 'number' || typeof msg !== 'string') return payload;
  return { ...payload, success: code === 0, message: msg };
}

/** Lists change with every order: no cache on the way may keep them. */
function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store');
}

/**
 * The trading calls of the spec's trading table (docs/api.md, Trading). Each route checks
 * the session and the account's token, validates with the schema from @ct/domain and
 * calls one use case.
 */
export function tradingRoutes(
  app: FastifyInstance,
  ctx: TradingContext,
  options: { liveTokenSecret: string; marginWarningLevel?: number },
): void {
  const marginWarningLevel = options.marginWarningLevel ?? DEFAULT_MARGIN_WARNING_LEVEL;
  const guarded = { preHandler: app.requireSession };
  // The account and its token are checked before the rest of the input is validated, so a
  // caller without the account learns nothing about it.
  const traderOf = (request: FastifyRequest, input: unknown) =>
    app.requireTrader(request, parseInput(tradingAccountSchema, input));

  app.get('/trading/order/position', guarded, async (request, reply) => {
    const trader = await traderOf(request, request.query);
    noStore(reply);
    return ok({ orders: await listPositions(ctx, trader) });
  });

  app.get('/trading/order/pending', guarded, async (request, reply) => {
    const trader = await traderOf(request, request.query);
    noStore(reply);
    return ok({ pendings: await listPendings(ctx, trader) });
  });

  app.get('/trading/order/settles', guarded, async (request, reply) => {
    const trader = await traderOf(request, request.query);
    const query = parseInput(tradingPageQuerySchema, request.query);
    const page = await listSettles(ctx, trader, query);
    noStore(reply);
    return ok({
      settles: page.rows,
      lastSortId: page.lastSortId,
      total: page.total,
    } satisfies SettlesPage);
  });

  app.get('/trading/order/logs', guarded, async (request, reply) => {
    const trader = await traderOf(request, request.query);
    const query = parseInput(tradingPageQuerySchema, request.query);
    const page = await listLogs(ctx, trader, query);
    noStore(reply);
    return ok({
      orders: page.rows,
      lastSortId: page.lastSortId,
      total: page.total,
    } satisfies OrderLogsPage);
  });

  app.get('/trading/account/summary', guarded, async (request, reply) => {
    const trader = await traderOf(request, request.query);
    noStore(reply);
    return ok(
      accountSummarySchema.parse(await accountSummary(ctx, trader, { marginWarningLevel })),
    );
  });

  app.get('/api/live/token', guarded, async (request, reply) => {
    const trader = await traderOf(request, request.query);
    noStore(reply);
    return mintLiveToken(
      options.liveTokenSecret,
      sessionOf(request).userId,
      trader.uuid,
      ctx.now(),
    );
  });

  // The mutations, in their own scope for the helper fields.
  void app.register(async (scope) => {
    scope.addHook('preSerialization', async (_request, _reply, payload) =>
      withHelperFields(payload),
    );

    scope.post('/trading/order/open', guarded, async (request) => {
      const trader = await traderOf(request, request.body);
      const body = parseInput(openOrderRequestSchema, request.body);
      const { msg, data } = await placeMarketOrder(ctx, trader, body);
      return ok(data, msg);
    });

    scope.post('/trading/order/pending/add', guarded, async (request) => {
      const trader = await traderOf(request, request.body);
      const body = parseInput(pendingOrderRequestSchema, request.body);
      const { msg, data } = await placePendingOrder(ctx, trader, body);
      return ok(data, msg);
    });

    scope.post('/trading/order/tpsl', guarded, async (request) => {
      const trader = await traderOf(request, request.body);
      const body = parseInput(tpslRequestSchema, request.body);
      const { msg, data } = await editTpsl(ctx, trader, body);
      return ok(data, msg);
    });

    scope.post('/trading/order/close', guarded, async (request) => {
      const trader = await traderOf(request, request.body);
      const body = parseInput(closeRequestSchema, request.body);
      const { msg, data } = await closePosition(ctx, trader, body);
      return ok(data, msg);
    });

    scope.post('/trading/order/pending/del', guarded, async (request) => {
      const trader = await traderOf(request, request.body);
      const body = parseInput(pendingDelRequestSchema, request.body);
      const { msg, data } = await cancelPendingOrder(ctx, trader, body);
      return ok(data, msg);
    });
  });
}
