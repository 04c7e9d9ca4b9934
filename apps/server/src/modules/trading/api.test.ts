import {
  accountSummarySchema,
  closeResponseSchema,
  envelopeSchema,
  liveTokenSchema,
  openOrderResponseSchema,
  orderLogSchema,
  orderLogsPageSchema,
  pendingDelResponseSchema,
  pendingOrderResponseSchema,
  pendingSchema,
  positionSchema,
  quantityRule,
  settleSchema,
  settlesPageSchema,
  tpslResponseSchema,
  type PendingView,
  type PositionView,
} from '@ct/domain';
import { Centrifuge } from 'centrifuge';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { waitFor } from '../../test/wait-for.ts';
import { createGatewayPolicy } from '../gateway/policy.ts';
import { readAccount } from './store/accounts.ts';
import { listOrderLogs, listSettlements } from './store/history.ts';
import { listWorkingPendings } from './store/pendings.ts';
import { listOpenPositions } from './store/positions.ts';
import {
  get,
  placeOrder,
  placePending,
  post,
  traderSession,
  useTradingTestApp,
  type Answer,
  type TradingTestApp,
  type TraderSession,
} from '../../test/trading.ts';

let t: TradingTestApp;
useTradingTestApp((app) => (t = app));

const AUTH_FAILED = { code: 50002, msg: 'Token验证失败', data: null };

/** The rows of a list answer, each checked strictly against its schema, and the paging key. */
function list<T extends z.ZodObject>(
  res: LightMyRequestResponse,
  key: string,
  row: T,
): { rows: z.infer<T>[]; lastSortId: number | undefined; total: number | undefined } {
  const body = envelopeSchema(z.record(z.string(), z.unknown())).parse(res.json());
  return {
    rows: z.array(row.strict()).parse(body.data[key]) as z.infer<T>[],
    lastSortId: z.number().int().optional().parse(body.data.lastSortId),
    total: z.number().int().optional().parse(body.data.total),
  };
}

async function openOrder(s: TraderSession, body: Record<string, unknown> = {}) {
  return (await placeOrder(t, s, body)).json<Answer<{ order: PositionView }>>();
}

async function addPending(s: TraderSession, body: Record<string, unknown> = {}) {
  return (await placePending(t, s, body)).json<Answer<{ pending: PendingView }>>();
}

/** Everything of an account, read straight from the database. */
async function snapshot(s: TraderSession) {
  const nowMs = t.clock.now();
  return JSON.stringify({
    positions: await listOpenPositions(t.db, s.uuid),
    pendings: await listWorkingPendings(t.db, s.uuid),
    logs: await listOrderLogs(t.db, s.uuid, -1, 500),
    settles: await listSettlements(t.db, s.uuid, -1, 500),
    account: await readAccount(t.db, s.uuid, { startingBalance: 100_000, nowMs }),
  });
}

describe('the calls and their answers', () => {
  it('places a market order (the market order helper) and lists it', async () => {
    const s = await traderSession(t);
    const res = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 0.5,
      tp: 2100,
      sl: 1950,
      comment: 'first',
      channel: 1,
      device: 1,
    });
    expect(res.statusCode).toBe(200);
    const answer = openOrderResponseSchema.parse(res.json());
    expect(answer).toMatchObject({
      code: 0,
      success: true,
      msg: 'Order filled',
      message: 'Order filled',
    });
    expect(answer.data?.order).toMatchObject({
      orderId: expect.stringMatching(/^\d+$/),
      uuid: s.uuid,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 0.5,
      settledVol: 0,
      price: 2000.5,
      marketPrice: 2000,
      tp: 2100,
      sl: 1950,
      floatProfit: -25,
      currency: 'USD',
      commissionFee: 2.5,
      storage: 0,
      createdAt: Math.floor(t.clock.now() / 1000),
      closeType: 0,
      status: 'open',
      comment: 'first',
    });

    const positions = await get(t, s, '/trading/order/position', {
      ...s.creds,
      channel: '1',
      device: '1',
    });
    expect(positions.headers['cache-control']).toBe('no-store');
    expect(list(positions, 'orders', positionSchema).rows).toEqual([answer.data?.order]);
  });

  it('places, lists and cancels a pending order (the pending order helper)', async () => {
    const s = await traderSession(t);
    const res = await post(t, s, '/trading/order/pending/add', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 2,
      volume: '0.25',
      pendPrice: '2010.5',
      expireType: 'GFD',
      tp: 2000,
      sl: 2020,
    });
    const answer = pendingOrderResponseSchema.parse(res.json());
    expect(answer).toMatchObject({ code: 0, success: true, message: 'Pending order placed' });
    const pending = answer.data?.pending;
    expect(pending).toMatchObject({
      pId: expect.stringMatching(/^\d+$/),
      symbol: 'XAUUSD',
      cmd: 2,
      volume: 0.25,
      pendPrice: 2010.5,
      tp: 2000,
      sl: 2020,
      expireType: 'GFD',
      triggerType: 'limit',
      status: 'working',
    });
    const listed = list(
      await get(t, s, '/trading/order/pending', { ...s.creds, _t: '1' }),
      'pendings',
      pendingSchema,
    );
    expect(listed.rows).toEqual([pending]);

    const [placedLog] = (await get(t, s, '/trading/order/logs', s.creds)).json<
      Answer<{ orders: { orderStatus: number; pId: string }[] }>
    >().data.orders;
    expect(placedLog).toMatchObject({ orderStatus: 0, pId: pending?.pId, orderType: 2 });

    const del = await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: pending?.pId });
    expect(pendingDelResponseSchema.parse(del.json())).toMatchObject({
      code: 0,
      success: true,
      msg: 'Pending order canceled successfully',
      data: { pending: { pId: pending?.pId, status: 'canceled' } },
    });
    expect((await get(t, s, '/trading/order/pending', s.creds)).json()).toMatchObject({
      data: { pendings: [] },
    });
    const [canceledLog] = (await get(t, s, '/trading/order/logs', s.creds)).json<
      Answer<{ orders: { orderStatus: number }[] }>
    >().data.orders;
    expect(canceledLog).toMatchObject({ orderStatus: 4, message: 'Canceled by user' });
  });

  it('edits TP/SL (the edit TP/SL helper): a level left out is removed', async () => {
    const s = await traderSession(t);
    const { data } = await openOrder(s, { tp: 2100, sl: 1950 });
    const res = await post(t, s, '/trading/order/tpsl', {
      ...s.creds,
      orderId: data.order.orderId,
      tp: 2050.25,
    });
    const answer = tpslResponseSchema.parse(res.json());
    expect(answer).toMatchObject({
      code: 0,
      success: true,
      message: 'Take Profit / Stop Loss updated successfully',
      data: { order: { orderId: data.order.orderId, tp: 2050.25, sl: 0 } },
    });
  });

  it('closes a position partly and fully (success when code is 0)', async () => {
    const s = await traderSession(t);
    const { data } = await openOrder(s, { volume: 1 });
    const partial = await post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: data.order.orderId,
      volume: 0.4,
      closeTypeYT: 0,
      channel: 1,
      device: 1,
    });
    expect(closeResponseSchema.parse(partial.json())).toMatchObject({
      code: 0,
      success: true,
      msg: 'Position closed successfully',
      data: { order: { settledVol: 0.4, status: 'open' }, settle: { isSettled: 1 } },
    });
    const full = await post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: Number(data.order.orderId),
      volume: 0.6,
      closeTypeYT: 2,
    });
    expect(full.json()).toMatchObject({
      code: 0,
      data: { order: { settledVol: 1, status: 'closed', closeType: 2 }, settle: { isSettled: 2 } },
    });
    expect((await get(t, s, '/trading/order/position', s.creds)).json()).toMatchObject({
      data: { orders: [] },
    });
  });

  it('a settlement carries its position’s comment, in the close answer and in the list', async () => {
    const s = await traderSession(t);
    const { data } = await openOrder(s, { volume: 1, comment: 'live:run-7' });
    const plain = await openOrder(s, { volume: 1 });
    const closed = await post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: data.order.orderId,
      volume: 1,
    });
    expect(closeResponseSchema.parse(closed.json()).data?.settle.comment).toBe('live:run-7');
    await post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: plain.data.order.orderId,
      volume: 0.5,
    });
    const page = settlesPageSchema.parse(
      (await get(t, s, '/trading/order/settles', s.creds)).json().data,
    );
    expect(page.settles.map((r) => [r.orderId, r.comment])).toEqual([
      [plain.data.order.orderId, ''],
      [data.order.orderId, 'live:run-7'],
    ]);
  });

  it('pages settlements and logs from the newest by lastSortId', async () => {
    const s = await traderSession(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { data } = await openOrder(s, { volume: 0.1 });
      await post(t, s, '/trading/order/close', {
        ...s.creds,
        orderId: data.order.orderId,
        volume: 0.1,
      });
      ids.push(data.order.orderId);
    }
    const page1 = list(
      await get(t, s, '/trading/order/settles', {
        ...s.creds,
        lastSortId: '-1',
        limit: '2',
        _t: '5',
      }),
      'settles',
      settleSchema,
    );
    expect(page1.rows.map((r) => r.orderId)).toEqual([ids[2], ids[1]]);
    // every page counts all of the account's rows
    expect(page1.total).toBe(3);
    const next = String(page1.lastSortId);
    const page2 = list(
      await get(t, s, '/trading/order/settles', { ...s.creds, lastSortId: next, limit: '2' }),
      'settles',
      settleSchema,
    );
    expect(page2.rows.map((r) => r.orderId)).toEqual([ids[0]]);
    expect(page2.lastSortId).toBe(-1);
    expect(page2.total).toBe(3);

    const logs = list(
      await get(t, s, '/trading/order/logs', { ...s.creds, limit: '4' }),
      'orders',
      orderLogSchema,
    );
    expect(logs.rows.map((l) => [l.actionType, l.orderStatus])).toEqual([
      [2, 2],
      [1, 2],
      [2, 2],
      [1, 2],
    ]);
    expect(logs.total).toBe(6);
    const rest = list(
      await get(t, s, '/trading/order/logs', {
        ...s.creds,
        lastSortId: String(logs.lastSortId),
      }),
      'orders',
      orderLogSchema,
    );
    expect(rest.rows).toHaveLength(2);
    expect(rest.total).toBe(6);
    // the page answers match the shared schemas exactly, and another account counts its own
    const other = await traderSession(t);
    expect(
      settlesPageSchema
        .strict()
        .parse((await get(t, other, '/trading/order/settles', other.creds)).json().data),
    ).toEqual({ settles: [], lastSortId: -1, total: 0 });
    expect(
      orderLogsPageSchema
        .strict()
        .parse((await get(t, other, '/trading/order/logs', other.creds)).json().data),
    ).toEqual({ orders: [], lastSortId: -1, total: 0 });
  });

  it('answers the account summary, starting by account level', async () => {
    const s = await traderSession(t, 3);
    const balances = [];
    for (const trader of s.login.traders) {
      const res = await get(t, s, '/trading/account/summary', {
        uuid: trader.uuid,
        token: trader.token,
      });
      const body = envelopeSchema(accountSummarySchema.strict()).parse(res.json());
      balances.push(body.data.startingBalance);
      expect(body.data).toMatchObject({
        uuid: trader.uuid,
        currency: 'USD',
        balance: body.data.startingBalance,
        equity: body.data.startingBalance,
        usedMargin: 0,
        freeMargin: body.data.startingBalance,
        marginLevel: null,
        realizedPnl: 0,
        unrealizedPnl: 0,
        commissionPaid: 0,
        openPositions: 0,
        pendingOrders: 0,
      });
    }
    expect(balances).toEqual([100_000, 250_000, 1_000_000]);

    await openOrder(s, { volume: 1 }); // 1 lot at 2000.5: margin 10002.5, commission 5
    await addPending(s);
    t.market.setQuote('XAUUSD', 2010, 2010.5);
    const res = await get(t, s, '/trading/account/summary', s.creds);
    expect(res.json()).toMatchObject({
      data: {
        balance: 99_995,
        unrealizedPnl: 950,
        equity: 100_945,
        usedMargin: 10_002.5,
        freeMargin: 90_942.5,
        marginLevel: 1009.1977,
        commissionPaid: 5,
        openPositions: 1,
        pendingOrders: 1,
      },
    });
  });

  it("mints live tokens for the account's private channel only", async () => {
    const s = await traderSession(t);
    const res = await get(t, s, '/api/live/token', s.creds);
    expect(res.statusCode).toBe(200);
    const token = liveTokenSchema.strict().parse(res.json());
    expect(token.channel).toBe(`account:${s.uuid}`);
    const policy = createGatewayPolicy({
      secret: t.config.liveTokenSecret,
      now: t.clock.now,
      isKnownSymbol: () => true,
    });
    const identity = await policy.authenticate(token.connectToken);
    // both tokens name the login session that minted them (they end with it)
    const sessionId = expect.any(Number) as unknown as number;
    expect(identity).toEqual({ userId: s.user.user.id, expiresAt: token.expiresAt, sessionId });
    expect(
      await policy.authorize({ userId: s.user.user.id }, token.channel, token.subscriptionToken),
    ).toEqual({ expiresAt: token.expiresAt, sessionId });
    // the token is bound to its channel and its user
    const other = await traderSession(t);
    expect(
      await policy.authorize(
        { userId: s.user.user.id },
        `account:${other.uuid}`,
        token.subscriptionToken,
      ),
    ).toMatchObject({ code: 103 });
    expect(
      await policy.authorize(
        { userId: other.user.user.id },
        token.channel,
        token.subscriptionToken,
      ),
    ).toMatchObject({ code: 103 });
    const theirs = await get(t, s, '/api/live/token', other.creds);
    expect(theirs.statusCode).toBe(401);
    expect(theirs.json()).toEqual({ code: 50002, msg: 'Token验证失败', detail: 'Token验证失败' });
  });

  it('pushes changes to the open page over the live gateway at once', async () => {
    const s = await traderSession(t);
    const token = (await get(t, s, '/api/live/token', s.creds)).json<{
      connectToken: string;
      channel: string;
      subscriptionToken: string;
    }>();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Centrifuge(`${address.replace('http', 'ws')}/connection/websocket`, {
      websocket: WebSocket,
      data: { type: 1 },
      token: token.connectToken,
    });
    try {
      const received: unknown[] = [];
      const sub = client.newSubscription(token.channel, { token: token.subscriptionToken });
      sub.on('publication', (ctx) => received.push(ctx.data));
      const subscribed = new Promise((resolve) => sub.once('subscribed', resolve));
      sub.subscribe();
      client.connect();
      await subscribed;
      const { data } = await openOrder(s, { volume: 0.1, tp: 2010 });
      await t.tick('XAUUSD', 2010, 2010.5);
      await waitFor(() => received.length >= 2);
      expect(received).toMatchObject([
        { type: 'position_opened', orderId: data.order.orderId, uuid: s.uuid, pId: null },
        { type: 'position_closed', orderId: data.order.orderId, closeReason: 1, full: true },
      ]);
    } finally {
      client.disconnect();
    }
  });
});

describe("authorization: only the session user's own accounts, and nothing changes otherwise", () => {
  const CALLS: [string, 'GET' | 'POST', Record<string, unknown>][] = [
    ['/trading/order/position', 'GET', {}],
    ['/trading/order/pending', 'GET', {}],
    ['/trading/order/settles', 'GET', { lastSortId: '-1' }],
    ['/trading/order/logs', 'GET', {}],
    ['/trading/account/summary', 'GET', {}],
    ['/api/live/token', 'GET', {}],
    ['/trading/order/open', 'POST', { symbol: 'XAUUSD', cmd: 1, volume: 0.1 }],
    [
      '/trading/order/pending/add',
      'POST',
      { symbol: 'XAUUSD', cmd: 1, volume: 0.1, pendPrice: 1990 },
    ],
    ['/trading/order/tpsl', 'POST', { orderId: 'ORDER', tp: 2100 }],
    ['/trading/order/close', 'POST', { orderId: 'ORDER', volume: 0.1 }],
    ['/trading/order/pending/del', 'POST', { pId: 'PENDING' }],
  ];

  let victim: TraderSession;
  let attacker: TraderSession;
  let orderId: string;
  let pId: string;
  let before: string;
  beforeAll(async () => {
    victim = await traderSession(t);
    attacker = await traderSession(t);
    orderId = (await openOrder(victim)).data.order.orderId;
    pId = (await addPending(victim)).data.pending.pId;
    before = await snapshot(victim);
  });

  function send(
    url: string,
    method: 'GET' | 'POST',
    params: Record<string, unknown>,
    options: { cookie?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse> {
    const filled = Object.fromEntries(
      Object.entries(params).map(([k, v]) => [
        k,
        v === 'ORDER' ? orderId : v === 'PENDING' ? pId : v,
      ]),
    );
    return t.app.inject({
      method,
      url,
      ...(options.cookie ? { cookies: { ct_sid: options.cookie } } : {}),
      headers: options.headers ?? {},
      ...(method === 'GET'
        ? { query: Object.fromEntries(Object.entries(filled).map(([k, v]) => [k, String(v)])) }
        : { payload: filled }),
    });
  }

  const expectAuthFailed = (res: LightMyRequestResponse, url: string) => {
    expect(res.statusCode).toBe(401);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ code: 50002, msg: 'Token验证失败' });
    if (!url.startsWith('/api')) expect(body.data).toBeNull();
  };

  it.each(CALLS)(
    "%s (%s): another user's account with their own valid token",
    async (url, method, params) => {
      const res = await send(
        url,
        method,
        { ...victim.creds, ...params },
        { cookie: attacker.cookie },
      );
      expectAuthFailed(res, url);
    },
  );

  it.each(CALLS)(
    '%s (%s): the account with a token of another account',
    async (url, method, params) => {
      const res = await send(
        url,
        method,
        { uuid: victim.uuid, token: attacker.token, ...params },
        { cookie: victim.cookie },
      );
      expectAuthFailed(res, url);
    },
  );

  it.each(CALLS)('%s (%s): a forged x-user-id header', async (url, method, params) => {
    const res = await send(
      url,
      method,
      { ...victim.creds, ...params },
      {
        cookie: victim.cookie,
        headers: { 'x-user-id': String(attacker.user.user.id) },
      },
    );
    expectAuthFailed(res, url);
  });

  it.each(CALLS)('%s (%s): no session cookie', async (url, method, params) => {
    const res = await send(url, method, { ...victim.creds, ...params }, {});
    expectAuthFailed(res, url);
  });

  it.each(CALLS)('%s (%s): a logged-out session', async (url, method, params) => {
    const session = await traderSession(t);
    await t.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/logout',
      cookies: { ct_sid: session.cookie },
    });
    const res = await send(
      url,
      method,
      { ...session.creds, ...params },
      { cookie: session.cookie },
    );
    expectAuthFailed(res, url);
  });

  it("left the victim's account exactly as it was", async () => {
    expect(await snapshot(victim)).toBe(before);
    // an attacker's own account cannot close the victim's order either: it is not found
    const res = await post(t, attacker, '/trading/order/close', {
      ...attacker.creds,
      orderId,
      volume: 0.1,
    });
    expect(res.json()).toMatchObject({ code: 40400, msg: `Order not found: ${orderId}` });
    const del = await post(t, attacker, '/trading/order/pending/del', { ...attacker.creds, pId });
    expect(del.json()).toMatchObject({ code: 40400, msg: `Pending order not found: ${pId}` });
    expect(await snapshot(victim)).toBe(before);
  });
});

describe('bad input: the rule’s message, a non-zero code, nothing changed, never a 500', () => {
  let s: TraderSession;
  let orderId: string;
  let sellId: string;
  beforeAll(async () => {
    s = await traderSession(t);
    t.market.setQuote('XAUUSD', 2000, 2000.5);
    orderId = (await openOrder(s, { volume: 0.5 })).data.order.orderId;
    sellId = (await openOrder(s, { cmd: 2, volume: 0.5 })).data.order.orderId;
    await addPending(s); // a working pending order the snapshot watches too
  });

  const CASES: [string, string, Record<string, unknown>, number, string | RegExp][] = [
    // market orders (fill at 2000.5 for a buy, 2000 for a sell)
    ['zero volume', '/trading/order/open', { volume: 0 }, 40000, '数量必须大于0'],
    ['negative volume', '/trading/order/open', { volume: -1 }, 40000, '数量必须大于0'],
    ['non-numeric volume', '/trading/order/open', { volume: 'abc' }, 40000, 'Invalid quantity'],
    ['empty volume', '/trading/order/open', { volume: '' }, 40000, 'Invalid quantity'],
    [
      'off-step volume',
      '/trading/order/open',
      { volume: 0.015 },
      40000,
      'Quantity must be a multiple of 0.01, for example 0.01, 0.02, 0.03',
    ],
    [
      'volume below the minimum',
      '/trading/order/open',
      { volume: 0.001 },
      40000,
      'Quantity must be at least 0.01 and a multiple of 0.01',
    ],
    [
      'volume above the maximum',
      '/trading/order/open',
      { volume: 101 },
      40000,
      'Quantity cannot exceed 100 and must be a multiple of 0.01',
    ],
    ['volume of a wrong type', '/trading/order/open', { volume: true }, 40000, /^volume: /],
    ['no volume', '/trading/order/open', { volume: undefined }, 40000, /^volume: /],
    ['unknown symbol', '/trading/order/open', { symbol: 'NOPE' }, 40400, 'Unknown symbol: NOPE'],
    ['bad cmd', '/trading/order/open', { cmd: 3 }, 40000, 'cmd: cmd must be 1 (buy) or 2 (sell)'],
    [
      'buy TP below the price',
      '/trading/order/open',
      { tp: 1990 },
      40000,
      'TP price must be between 2002.51 and 2400.60',
    ],
    [
      'buy SL above the price',
      '/trading/order/open',
      { sl: 2010 },
      40000,
      'SL price must be between 1600.40 and 1998.49',
    ],
    [
      'sell TP above the price',
      '/trading/order/open',
      { cmd: 2, tp: 2010 },
      40000,
      'TP price must be between 1600.00 and 1998.00',
    ],
    [
      'sell SL below the price',
      '/trading/order/open',
      { cmd: 2, sl: 1990 },
      40000,
      'SL price must be between 2002.00 and 2400.00',
    ],
    [
      'TP off the tick',
      '/trading/order/open',
      { tp: 2100.005 },
      40000,
      'TP price difference from the order price must be a multiple of the tick size',
    ],
    [
      'SL off the tick',
      '/trading/order/open',
      { sl: 1950.001 },
      40000,
      'SL price difference from the order price must be a multiple of the tick size',
    ],
    [
      'non-numeric TP',
      '/trading/order/open',
      { tp: 'high' },
      40000,
      'TP price must be between 2002.51 and 2400.60',
    ],
    [
      'clientOrderId too long',
      '/trading/order/open',
      { clientOrderId: 'x'.repeat(65) },
      40000,
      /^clientOrderId: /,
    ],
    // pending orders (reference: ask 2000.5 for a buy)
    [
      'zero pending price',
      '/trading/order/pending/add',
      { pendPrice: 0 },
      40000,
      'Limit order price must be greater than 0',
    ],
    [
      'non-numeric pending price',
      '/trading/order/pending/add',
      { pendPrice: 'x' },
      40000,
      'Limit order price must be greater than 0',
    ],
    [
      'price just under the ask',
      '/trading/order/pending/add',
      { pendPrice: 1999 },
      40000,
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    ],
    [
      'price far below',
      '/trading/order/pending/add',
      { pendPrice: 1500 },
      40000,
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    ],
    [
      'price far above',
      '/trading/order/pending/add',
      { pendPrice: 2500 },
      40000,
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    ],
    [
      'sell price against the bid',
      '/trading/order/pending/add',
      { cmd: 2, pendPrice: 2001 },
      40000,
      'Limit price must be between 1600.00 and 1998.00 (below the market) or between 2002.00 and 2400.00 (above the market)',
    ],
    [
      'price off the tick',
      '/trading/order/pending/add',
      { pendPrice: 1990.005 },
      40000,
      'Limit price must be a multiple of the tick size 0.01',
    ],
    [
      'pending TP on the wrong side',
      '/trading/order/pending/add',
      { tp: 1980 },
      40000,
      'TP price must be between 1991.99 and 2388.00',
    ],
    [
      'pending off-step volume',
      '/trading/order/pending/add',
      { volume: 0.333 },
      40000,
      'Quantity must be a multiple of 0.01, for example 0.33, 0.34, 0.35',
    ],
    [
      'unknown time in force',
      '/trading/order/pending/add',
      { expireType: 'IOC' },
      40000,
      'expireType: expireType must be GFD or GTC',
    ],
    [
      'pending unknown symbol',
      '/trading/order/pending/add',
      { symbol: 'NOPE' },
      40400,
      'Unknown symbol: NOPE',
    ],
    // TP/SL edits of the buy at 2000.5 (bid 2000) and the sell at 2000 (ask 2000.5)
    [
      'TP of an unknown order',
      '/trading/order/tpsl',
      { orderId: 999999, tp: 2100 },
      40400,
      'Order not found: 999999',
    ],
    [
      'TP with a bad order id',
      '/trading/order/tpsl',
      { orderId: 'abc', tp: 2100 },
      40000,
      'orderId: orderId must be a positive integer id',
    ],
    [
      'edit TP below a buy',
      '/trading/order/tpsl',
      { orderId: 'BUY', tp: 1995 },
      40000,
      'TP price must be between 2002.51 and 2400.60',
    ],
    [
      'edit SL above a buy',
      '/trading/order/tpsl',
      { orderId: 'BUY', sl: 2005 },
      40000,
      'SL price must be between 1600.40 and 1998.49',
    ],
    [
      'edit SL off the tick',
      '/trading/order/tpsl',
      { orderId: 'BUY', sl: 1990.555 },
      40000,
      'SL price difference from the order price must be a multiple of the tick size',
    ],
    [
      'edit TP above a sell',
      '/trading/order/tpsl',
      { orderId: 'SELL', tp: 2005 },
      40000,
      'TP price must be between 1600.00 and 1998.00',
    ],
    // closes of the buy (0.5 lots open)
    [
      'closing more than available',
      '/trading/order/close',
      { orderId: 'BUY', volume: 0.6 },
      40000,
      'Quantity cannot exceed 0.5 and must be a multiple of 0.01',
    ],
    ['closing zero', '/trading/order/close', { orderId: 'BUY', volume: 0 }, 40000, '数量必须大于0'],
    [
      'closing off-step',
      '/trading/order/close',
      { orderId: 'BUY', volume: 0.255 },
      40000,
      'Quantity must be a multiple of 0.01, for example 0.25, 0.26, 0.27',
    ],
    [
      'closing a non-number',
      '/trading/order/close',
      { orderId: 'BUY', volume: 'all' },
      40000,
      'Invalid quantity',
    ],
    [
      'closing an unknown order',
      '/trading/order/close',
      { orderId: 424242, volume: 0.1 },
      40400,
      'Order not found: 424242',
    ],
    [
      'bad close type',
      '/trading/order/close',
      { orderId: 'BUY', volume: 0.1, closeTypeYT: 9 },
      40000,
      /^closeTypeYT: /,
    ],
    // cancels
    [
      'cancel an unknown pending order',
      '/trading/order/pending/del',
      { pId: 999999 },
      40400,
      'Pending order not found: 999999',
    ],
    [
      'cancel with a bad pId',
      '/trading/order/pending/del',
      { pId: 'x' },
      40000,
      'pId: pId must be a positive integer id',
    ],
  ];

  it.each(CASES)('%s', async (_, url, change, code, message) => {
    const before = await snapshot(s);
    const payload = Object.fromEntries(
      Object.entries({
        ...s.creds,
        symbol: 'XAUUSD',
        cmd: 1,
        volume: 0.5,
        pendPrice: 1990,
        ...change,
      })
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, v === 'BUY' ? orderId : v === 'SELL' ? sellId : v]),
    );
    const res = await post(t, s, url, payload);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const body = res.json<Answer>();
    expect(body.code).toBe(code);
    expect(body.data).toBeNull();
    expect(body.success).toBe(false);
    expect(body.message).toBe(body.msg);
    if (typeof message === 'string') expect(body.msg).toBe(message);
    else expect(body.msg).toMatch(message);
    expect(await snapshot(s)).toBe(before);
  });

  it.each([
    ['/trading/order/open', '{"uuid": ', 'Malformed JSON body'],
    ['/trading/order/close', 'not json', 'Malformed JSON body'],
    ['/trading/order/pending/add', '[1,2]', /^body: /],
    ['/trading/order/tpsl', '"text"', /^body: /],
  ])('%s with the body %s', async (url, payload, message) => {
    const before = await snapshot(s);
    const res = await t.app.inject({
      method: 'POST',
      url,
      cookies: { ct_sid: s.cookie },
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Answer>().code).toBe(40000);
    if (typeof message === 'string') expect(res.json<Answer>().msg).toBe(message);
    else expect(res.json<Answer>().msg).toMatch(message);
    expect(await snapshot(s)).toBe(before);
  });

  it('refuses paging values out of range', async () => {
    const res = await get(t, s, '/trading/order/settles', { ...s.creds, limit: '0' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 40000, msg: expect.stringMatching(/^limit: /) });
    const logs = await get(t, s, '/trading/order/logs', { ...s.creds, lastSortId: 'newest' });
    expect(logs.json()).toMatchObject({
      code: 40000,
      msg: 'lastSortId: lastSortId must be an integer',
    });
  });

  it('refuses a TP or SL the market has already passed', async () => {
    const before = await snapshot(s);
    t.market.setQuote('XAUUSD', 2005, 2005.5);
    const res = await post(t, s, '/trading/order/tpsl', { ...s.creds, orderId, tp: 2003 });
    expect(res.json()).toMatchObject({
      code: 40000,
      msg: 'TP price must be above the current price 2005.00',
    });
    const sl = await post(t, s, '/trading/order/tpsl', { ...s.creds, orderId: sellId, sl: 2005 });
    expect(sl.json()).toMatchObject({
      code: 40000,
      msg: 'SL price must be above the current price 2005.50',
    });
    expect(await snapshot(s)).toBe(before);
  });

  it('answers 409 for a closed order and a canceled pending order', async () => {
    const own = await traderSession(t);
    const { data } = await openOrder(own, { volume: 0.1 });
    await post(t, own, '/trading/order/close', {
      ...own.creds,
      orderId: data.order.orderId,
      volume: 0.1,
    });
    const pending = (await addPending(own)).data.pending;
    await post(t, own, '/trading/order/pending/del', { ...own.creds, pId: pending.pId });
    const before = await snapshot(own);
    for (const [url, body, msg] of [
      [
        '/trading/order/close',
        { orderId: data.order.orderId, volume: 0.1 },
        `Order ${data.order.orderId} is already closed`,
      ],
      [
        '/trading/order/tpsl',
        { orderId: data.order.orderId, tp: 2100 },
        `Order ${data.order.orderId} is already closed`,
      ],
      [
        '/trading/order/pending/del',
        { pId: pending.pId },
        `Pending order ${pending.pId} is already canceled`,
      ],
    ] as const) {
      const res = await post(t, own, url, { ...own.creds, ...body });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 40900, msg, success: false });
    }
    expect(await snapshot(own)).toBe(before);
  });
});

describe('the venue refuses orders it cannot fill, and logs the refusal', () => {
  it('logs a refusal whose TP, SL or price no price column holds with them unset', async () => {
    const s = await traderSession(t);
    t.market.setTrading('XAUUSD', false);
    try {
      for (const [url, body] of [
        ['/trading/order/open', { symbol: 'XAUUSD', cmd: 1, volume: 0.1, tp: 1e20, sl: 1000 }],
        [
          '/trading/order/pending/add',
          { symbol: 'XAUUSD', cmd: 1, volume: 0.1, pendPrice: 1e300, tp: -1e308 },
        ],
      ] as const) {
        const res = await post(t, s, url, { ...s.creds, ...body });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({ msg: 'The market for XAUUSD is closed' });
      }
    } finally {
      t.market.setTrading('XAUUSD', true);
    }
    const logs = (await get(t, s, '/trading/order/logs', s.creds)).json<
      Answer<{ orders: { orderStatus: number; price: number; tp: number; sl: number }[] }>
    >().data.orders;
    expect(logs.map((l) => [l.orderStatus, l.price, l.tp, l.sl])).toEqual([
      [1, 0, 0, 0],
      [1, 0, 0, 1000],
    ]);
  });

  it('refuses orders and closes while the market is closed', async () => {
    const s = await traderSession(t);
    const { data } = await openOrder(s, { volume: 0.1 });
    t.market.setTrading('XAUUSD', false);
    try {
      for (const [url, body] of [
        ['/trading/order/open', { symbol: 'XAUUSD', cmd: 1, volume: 0.1 }],
        ['/trading/order/pending/add', { symbol: 'XAUUSD', cmd: 1, volume: 0.1, pendPrice: 1990 }],
        ['/trading/order/close', { orderId: data.order.orderId, volume: 0.1 }],
      ] as const) {
        const res = await post(t, s, url, { ...s.creds, ...body });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({
          code: 42200,
          msg: 'The market for XAUUSD is closed',
          data: null,
          success: false,
          message: 'The market for XAUUSD is closed',
        });
      }
    } finally {
      t.market.setTrading('XAUUSD', true);
    }
    const logs = (await get(t, s, '/trading/order/logs', s.creds)).json<
      Answer<{ orders: { orderStatus: number; actionType: number; message: string }[] }>
    >().data.orders;
    expect(logs.slice(0, 3).map((l) => [l.actionType, l.orderStatus, l.message])).toEqual([
      [2, 1, 'The market for XAUUSD is closed'],
      [1, 1, 'The market for XAUUSD is closed'],
      [1, 1, 'The market for XAUUSD is closed'],
    ]);
    expect((await get(t, s, '/trading/order/position', s.creds)).json()).toMatchObject({
      data: { orders: [{ orderId: data.order.orderId, settledVol: 0 }] },
    });
    // a simulated instrument outside its session: US shares at 09:00 UTC
    const goog = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'GOOG',
      cmd: 1,
      volume: 1,
    });
    expect(goog.json()).toMatchObject({ code: 42200, msg: 'The market for GOOG is closed' });
  });

  it('refuses an order that needs more than the free margin', async () => {
    const s = await traderSession(t);
    const res = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 20,
    });
    // 20 lots × 100 oz × 2000.5 × 5 % = 200050 margin + 100 commission
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 42200,
      msg: 'Insufficient margin: the order needs 200150.00 USD (margin and commission), free margin is 100000.00 USD',
    });
    const ok = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 9,
    });
    expect(ok.json()).toMatchObject({ code: 0 });
    const second = await post(t, s, '/trading/order/pending/add', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 1,
      pendPrice: 1990,
    });
    expect(second.json()).toMatchObject({
      code: 42200,
      msg: expect.stringMatching(/^Insufficient margin: /),
    });
  });
});

describe('orders fill at the quote the clients were sent', () => {
  it('fills a market order placed between two published ticks at the published one', async () => {
    const s = await traderSession(t);
    const symbol = 'ETHUSDT'; // simulated, not scripted: it moves with the clock
    const instrument = t.market.instrument(symbol);
    if (!instrument) throw new Error(`${symbol} is not in the catalogue`);
    const volume = quantityRule(instrument, 'market').min;
    const feed = t.app.services.feed;
    const startedAt = t.clock.now();
    try {
      feed.pollSymbol(symbol);
      const shown = feed.latestQuote(symbol);
      if (!shown) throw new Error(`${symbol} published no quote`);
      // The simulator moves on to a new tick; the feed has not published it yet.
      let unseen = t.market.quoteAt(symbol, t.clock.now());
      for (let i = 0; i < 3600 && unseen?.ask === shown.ask; i++) {
        t.clock.advance(1000);
        unseen = t.market.quoteAt(symbol, t.clock.now());
      }
      if (!unseen) throw new Error(`${symbol} has no quote`);
      expect(unseen.ask).not.toBe(shown.ask);

      const between = await openOrder(s, { symbol, cmd: 1, volume });
      expect(between.data.order.price).toBe(shown.ask);

      feed.pollSymbol(symbol);
      const after = await openOrder(s, { symbol, cmd: 1, volume });
      expect(after.data.order.price).toBe(unseen.ask);
    } finally {
      t.clock.set(startedAt);
    }
  });
});

describe('idempotency: a retried clientOrderId is answered, not filled again', () => {
  it('answers a retried market order with the first answer', async () => {
    const s = await traderSession(t);
    const body = { symbol: 'XAUUSD', cmd: 1, volume: 0.1, clientOrderId: 'retry-1' };
    const first = await openOrder(s, body);
    t.market.setQuote('XAUUSD', 2100, 2100.5); // the market moved: the retry still is the first fill
    const again = await openOrder(s, body);
    expect(again).toEqual(first);
    expect(first.data.order.clientOrderId).toBe('retry-1');
    expect((await listOpenPositions(t.db, s.uuid)).length).toBe(1);
  });

  it('answers concurrent duplicates once', async () => {
    const s = await traderSession(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => openOrder(s, { volume: 0.1, clientOrderId: 'burst' })),
    );
    expect(new Set(answers.map((a) => a.data.order.orderId)).size).toBe(1);
    expect((await listOpenPositions(t.db, s.uuid)).length).toBe(1);
    expect((await listOrderLogs(t.db, s.uuid, -1, 50)).length).toBe(1);
  });

  it('replays refusals without logging them twice', async () => {
    const s = await traderSession(t);
    const body = { volume: 50, clientOrderId: 'too-big' };
    const first = await openOrder(s, body);
    const again = await openOrder(s, body);
    expect(first).toMatchObject({ code: 42200 });
    expect(again).toEqual(first);
    expect((await listOrderLogs(t.db, s.uuid, -1, 50)).length).toBe(1);
  });

  it('replays closes, cancels and edits', async () => {
    const s = await traderSession(t);
    const { data } = await openOrder(s, { volume: 1 });
    const close = { ...s.creds, orderId: data.order.orderId, volume: 0.2, clientOrderId: 'c1' };
    const a = (await post(t, s, '/trading/order/close', close)).json();
    const b = (await post(t, s, '/trading/order/close', close)).json();
    expect(b).toEqual(a);
    expect((await listSettlements(t.db, s.uuid, -1, 10)).length).toBe(1);

    const pending = (await addPending(s, { clientOrderId: 'p1' })).data.pending;
    expect((await addPending(s, { clientOrderId: 'p1' })).data.pending.pId).toBe(pending.pId);
    const del = { ...s.creds, pId: pending.pId, clientOrderId: 'd1' };
    const d1 = (await post(t, s, '/trading/order/pending/del', del)).json();
    const d2 = (await post(t, s, '/trading/order/pending/del', del)).json();
    expect(d2).toEqual(d1);
    expect(d1).toMatchObject({ code: 0 });

    const edit = { ...s.creds, orderId: data.order.orderId, tp: 2100, clientOrderId: 'e1' };
    const e1 = (await post(t, s, '/trading/order/tpsl', edit)).json();
    expect((await post(t, s, '/trading/order/tpsl', edit)).json()).toEqual(e1);
  });

  it('refuses a clientOrderId reused for another request', async () => {
    const s = await traderSession(t);
    await openOrder(s, { volume: 0.1, clientOrderId: 'k' });
    const before = await snapshot(s);
    const other = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 0.2,
      clientOrderId: 'k',
    });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({
      code: 40900,
      msg: 'clientOrderId k was already used for a different request',
    });
    const elsewhere = await addPending(s, { clientOrderId: 'k' });
    expect(elsewhere).toMatchObject({ code: 40900 });
    expect(await snapshot(s)).toBe(before);
    // keys belong to an account: another account may use the same one
    const someoneElse = await traderSession(t);
    expect(await openOrder(someoneElse, { volume: 0.2, clientOrderId: 'k' })).toMatchObject({
      code: 0,
    });
  });
});

describe('concurrent closes never close more than the volume', () => {
  it('lets one of two full closes through', async () => {
    const s = await traderSession(t);
    const { data } = await openOrder(s, { volume: 1 });
    const close = () =>
      post(t, s, '/trading/order/close', { ...s.creds, orderId: data.order.orderId, volume: 1 });
    const answers = (await Promise.all([close(), close()])).map((r) => r.json<Answer>());
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    expect(answers.find((a) => a.code !== 0)).toMatchObject({ code: 40900 });
  });

  it('lets exactly five of ten 0.2-lot closes of one lot through', async () => {
    const s = await traderSession(t);
    const { data } = await openOrder(s, { volume: 1 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(t, s, '/trading/order/close', {
          ...s.creds,
          orderId: data.order.orderId,
          volume: 0.2,
        }),
      ),
    );
    const codes = answers.map((r) => r.json<Answer>().code);
    expect(codes.filter((c) => c === 0)).toHaveLength(5);
    expect(answers.every((r) => r.statusCode < 500)).toBe(true);
    const settled = await listSettlements(t.db, s.uuid, -1, 50);
    expect(settled.reduce((sum, r) => sum + r.settleVolume, 0)).toBeCloseTo(1, 8);
    expect(settled.filter((r) => r.isSettled === 2)).toHaveLength(1);
  });
});

describe('sessions expire (last: moves the clock a week)', () => {
  it('answers 50002 with an expired session and changes nothing', async () => {
    const s = await traderSession(t);
    await openOrder(s);
    const before = await snapshot(s);
    t.clock.advance(169 * 3600 * 1000);
    for (const url of ['/trading/order/open', '/trading/order/pending/add']) {
      const res = await post(t, s, url, {
        ...s.creds,
        symbol: 'XAUUSD',
        cmd: 1,
        volume: 0.1,
        pendPrice: 1990,
      });
      expect(res.json()).toMatchObject({ ...AUTH_FAILED, success: false });
    }
    expect((await get(t, s, '/trading/order/position', s.creds)).json()).toEqual(AUTH_FAILED);
    expect(await snapshot(s)).toBe(before);
  });
});
