import {
  accountSummarySchema,
  closeRequestSchema,
  closeResponseSchema,
  envelopeSchema,
  liveTokenQuerySchema,
  liveTokenSchema,
  openOrderResponseSchema,
  orderLogsPageSchema,
  pendingDelResponseSchema,
  pendingModifyResponseSchema,
  pendingOrderResponseSchema,
  pendingSchema,
  positionSchema,
  settlesPageSchema,
  tpslResponseSchema,
  tradingListQuerySchema,
  ok,
  openOrderRequestSchema,
  pendingDelRequestSchema,
  pendingModifyRequestSchema,
  type OrderLogsPage,
  type SettlesPage,
  pendingOrderRequestSchema,
  tpslRequestSchema,
  tradingAccountSchema,
  tradingPageQuerySchema,
} from '@ct/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { z } from 'zod';
import type { TraderRow } from '../../db/schema.ts';
import { AuthFailedError } from '../../http/errors.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { parseInput } from '../../http/validate.ts';
import { sessionOf } from '../auth/guard.ts';
import { cancelPendingOrder } from './cancel-pending-order.ts';
import { closePosition } from './close-position.ts';
import type { TradingContext } from './context.ts';
import { editTpsl } from './edit-tpsl.ts';
import { mintLiveToken } from './live-token.ts';
import { modifyPendingOrder } from './modify-pending.ts';
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
  root: FastifyInstance,
  ctx: TradingContext,
  options: { liveTokenSecret: string; marginWarningLevel?: number },
): void {
  const marginWarningLevel = options.marginWarningLevel ?? DEFAULT_MARGIN_WARNING_LEVEL;
  const app = root.withTypeProvider<ZodTypeProvider>();
  const traders = new WeakMap<FastifyRequest, TraderRow>();
  // The session, then the account and its token, are checked before the rest of the input
  // is refused (http/route-schemas.ts), so a caller without the account learns nothing about it.
  const onAccount = <S extends FastifySchema>(from: 'query' | 'body', schema: S) => ({
    schema,
    preHandler: [
      app.requireSession,
      async (request: FastifyRequest) => {
        const credentials = parseInput(tradingAccountSchema, request[from]);
        traders.set(request, await app.requireTrader(request, credentials));
      },
    ],
  });
  const traderOf = (request: FastifyRequest): TraderRow => {
    const trader = traders.get(request);
    if (!trader) throw new AuthFailedError();
    return trader;
  };
  const listOf = <K extends string, T extends z.ZodType>(key: K, row: T) =>
    envelopeSchema(z.object({ [key]: z.array(row) } as Record<K, z.ZodArray<T>>));

  const positions = {
    querystring: tradingListQuerySchema,
    response: { 200: listOf('orders', positionSchema) },
  };
  app.get('/trading/order/position', onAccount('query', positions), async (request, reply) => {
    const trader = traderOf(request);
    noStore(reply);
    return ok({ orders: await listPositions(ctx, trader) });
  });

  const pendings = {
    querystring: tradingListQuerySchema,
    response: { 200: listOf('pendings', pendingSchema) },
  };
  app.get('/trading/order/pending', onAccount('query', pendings), async (request, reply) => {
    const trader = traderOf(request);
    noStore(reply);
    return ok({ pendings: await listPendings(ctx, trader) });
  });

  const settles = {
    querystring: tradingPageQuerySchema,
    response: { 200: envelopeSchema(settlesPageSchema) },
  };
  app.get('/trading/order/settles', onAccount('query', settles), async (request, reply) => {
    const trader = traderOf(request);
    const query = request.query;
    const page = await listSettles(ctx, trader, query);
    noStore(reply);
    return ok({
      settles: page.rows,
      lastSortId: page.lastSortId,
      total: page.total,
    } satisfies SettlesPage);
  });

  const logs = {
    querystring: tradingPageQuerySchema,
    response: { 200: envelopeSchema(orderLogsPageSchema) },
  };
  app.get('/trading/order/logs', onAccount('query', logs), async (request, reply) => {
    const trader = traderOf(request);
    const query = request.query;
    const page = await listLogs(ctx, trader, query);
    noStore(reply);
    return ok({
      orders: page.rows,
      lastSortId: page.lastSortId,
      total: page.total,
    } satisfies OrderLogsPage);
  });

  const summary = {
    querystring: tradingListQuerySchema,
    response: { 200: envelopeSchema(accountSummarySchema) },
  };
  app.get('/trading/account/summary', onAccount('query', summary), async (request, reply) => {
    const trader = traderOf(request);
    noStore(reply);
    return ok(
      accountSummarySchema.parse(await accountSummary(ctx, trader, { marginWarningLevel })),
    );
  });

  const liveToken = { querystring: liveTokenQuerySchema, response: { 200: liveTokenSchema } };
  app.get('/api/live/token', onAccount('query', liveToken), async (request, reply) => {
    const trader = traderOf(request);
    noStore(reply);
    return mintLiveToken(options.liveTokenSecret, sessionOf(request), trader.uuid, ctx.now());
  });

  // The mutations, in their own scope for the helper fields.
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addHook('preSerialization', (_request, _reply, payload, done) => {
      done(null, withHelperFields(payload));
    });

    scope.post(
      '/trading/order/open',
      onAccount('body', {
        body: openOrderRequestSchema,
        response: { 200: openOrderResponseSchema },
      }),
      async (request) => {
        const trader = traderOf(request);
        const body = request.body;
        const { msg, data } = await placeMarketOrder(ctx, trader, body);
        return ok(data, msg);
      },
    );

    scope.post(
      '/trading/order/pending/add',
      onAccount('body', {
        body: pendingOrderRequestSchema,
        response: { 200: pendingOrderResponseSchema },
      }),
      async (request) => {
        const trader = traderOf(request);
        const body = request.body;
        const { msg, data } = await placePendingOrder(ctx, trader, body);
        return ok(data, msg);
      },
    );

    scope.post(
      '/trading/order/tpsl',
      onAccount('body', { body: tpslRequestSchema, response: { 200: tpslResponseSchema } }),
      async (request) => {
        const trader = traderOf(request);
        const body = request.body;
        const { msg, data } = await editTpsl(ctx, trader, body);
        return ok(data, msg);
      },
    );

    scope.post(
      '/trading/order/close',
      onAccount('body', { body: closeRequestSchema, response: { 200: closeResponseSchema } }),
      async (request) => {
        const trader = traderOf(request);
        const body = request.body;
        const { msg, data } = await closePosition(ctx, trader, body);
        return ok(data, msg);
      },
    );

    scope.post(
      '/trading/order/pending/del',
      onAccount('body', {
        body: pendingDelRequestSchema,
        response: { 200: pendingDelResponseSchema },
      }),
      async (request) => {
        const trader = traderOf(request);
        const body = request.body;
        const { msg, data } = await cancelPendingOrder(ctx, trader, body);
        return ok(data, msg);
      },
    );

    // Ours (the spec has no call to change a pending order): the chart drags its line.
    scope.post(
      '/trading/order/pending/modify',
      onAccount('body', {
        body: pendingModifyRequestSchema,
        response: { 200: pendingModifyResponseSchema },
      }),
      async (request) => {
        const trader = traderOf(request);
        const body = request.body;
        const { msg, data } = await modifyPendingOrder(ctx, trader, body);
        return ok(data, msg);
      },
    );
  });
}
