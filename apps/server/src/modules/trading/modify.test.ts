import {
  asPrice,
  orderLogSchema,
  pendingModifyResponseSchema,
  pendingSchema,
  positionSchema,
  type OrderLogView,
  type PendingView,
  type PositionView,
} from '@ct/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillPending } from './fill-pending.ts';
import { projectOrderLog } from './order-events.ts';
import { readAccount } from './store/accounts.ts';
import { listOrderEvents, listOrderLogs, listSettlements } from './store/history.ts';
import { listWorkingPendings } from './store/pendings.ts';
import { listOpenPositions } from './store/positions.ts';
import {
  get,
  listPendings,
  placeOrder,
  placePending,
  post,
  traderSession,
  useTradingTestApp,
  type Answer,
  type TradingTestApp,
  type TraderSession,
} from '../../test/trading.ts';

/*
 * Changes of what is already working: a position's TP/SL (POST /trading/order/tpsl) and a
 * pending order's price (POST /trading/order/pending/modify, ours). Each success logs one
 * Modify row (actionType 3) in its transaction; every refusal changes nothing; a pending
 * order triggers at its new price exactly once and never at its old one.
 */

// XAUUSD: tick 0.01, 100 oz a lot, 5 % margin, 5 USD commission a lot
let t: TradingTestApp;
const events = useTradingTestApp((app) => (t = app), { accountEvents: true });

async function open(s: TraderSession, body: Record<string, unknown> = {}): Promise<PositionView> {
  const res = await placeOrder(t, s, body);
  return positionSchema.parse(res.json<Answer<{ order: PositionView }>>().data.order);
}

async function pend(s: TraderSession, body: Record<string, unknown> = {}): Promise<PendingView> {
  const res = await placePending(t, s, body);
  return pendingSchema.parse(res.json<Answer<{ pending: PendingView }>>().data.pending);
}

function modify(s: TraderSession, body: Record<string, unknown>) {
  return post(t, s, '/trading/order/pending/modify', { ...s.creds, ...body });
}

async function logs(s: TraderSession): Promise<OrderLogView[]> {
  const rows = (await get(t, s, '/trading/order/logs', s.creds)).json<
    Answer<{ orders: unknown[] }>
  >().data.orders;
  return rows.map((r) => orderLogSchema.parse(r));
}

const pendings = (s: TraderSession) => listPendings(t, s);

/** Everything of an account, read straight from the database. */
async function snapshot(s: TraderSession): Promise<string> {
  return JSON.stringify({
    positions: await listOpenPositions(t.db, s.uuid),
    pendings: await listWorkingPendings(t.db, s.uuid),
    logs: await listOrderLogs(t.db, s.uuid, -1, 500),
    events: await listOrderEvents(t.db, s.uuid),
    settles: await listSettlements(t.db, s.uuid, -1, 500),
    account: await readAccount(t.db, s.uuid, { startingBalance: 100_000, nowMs: t.clock.now() }),
  });
}

describe('a TP/SL change is a Modify row of the order log', () => {
  it('logs the position’s side, open volume and price, the quote and the new levels', async () => {
    const s = await traderSession(t);
    const position = await open(s, { volume: 1, tp: 2100, sl: 1950 });
    await post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: position.orderId,
      volume: 0.4,
    });
    const before = await logs(s);
    const balance = (await readAccount(t.db, s.uuid, { startingBalance: 100_000, nowMs: 0 }))
      .balance;
    events.length = 0;

    t.clock.advance(5000);
    const res = await post(t, s, '/trading/order/tpsl', {
      ...s.creds,
      orderId: position.orderId,
      tp: 2050.25,
      sl: 1960,
    });
    expect(res.json()).toMatchObject({ code: 0, data: { order: { tp: 2050.25, sl: 1960 } } });

    const after = await logs(s);
    expect(after).toHaveLength(before.length + 1);
    const at = Math.floor(t.clock.now() / 1000);
    expect(after[0]).toEqual({
      sortId: expect.any(Number),
      symbol: 'XAUUSD',
      cmd: 1,
      actionType: 3,
      orderType: 1,
      // what is still open of the 1 lot after closing 0.4
      volume: 0.6,
      price: position.price,
      // a buy closes at the bid
      marketPrice: 2000,
      orderStatus: 2,
      createdAt: at,
      transactTime: at,
      commissionFee: 0,
      currency: 'USD',
      tp: 2050.25,
      sl: 1960,
      orderId: position.orderId,
      pId: null,
      message: '',
      clientOrderId: null,
    });
    // the older rows are as they were, the balance too (no commission), and the page's event
    // is the TP/SL change alone (the row opens no position)
    expect(after.slice(1)).toEqual(before);
    expect((await readAccount(t.db, s.uuid, { startingBalance: 100_000, nowMs: 0 })).balance).toBe(
      balance,
    );
    expect(events.map((e) => e.type)).toEqual(['tpsl_changed']);
    // the stored log is still the projection of the order events
    expect(projectOrderLog(await listOrderEvents(t.db, s.uuid))).toEqual(
      await listOrderLogs(t.db, s.uuid, -1, 100),
    );
  });

  it('logs a removed level as 0, and nothing for a call that changes no level', async () => {
    const s = await traderSession(t);
    const position = await open(s, { tp: 2100 });
    await post(t, s, '/trading/order/tpsl', { ...s.creds, orderId: position.orderId });
    const [removed] = await logs(s);
    expect(removed).toMatchObject({ actionType: 3, tp: 0, sl: 0 });
    const count = (await logs(s)).length;
    const again = await post(t, s, '/trading/order/tpsl', {
      ...s.creds,
      orderId: position.orderId,
    });
    expect(again.json()).toMatchObject({ code: 0 });
    expect(await logs(s)).toHaveLength(count);
  });

  it('logs nothing for a refused change, and once for a retried one', async () => {
    const s = await traderSession(t);
    const position = await open(s);
    const before = await snapshot(s);
    const refused = await post(t, s, '/trading/order/tpsl', {
      ...s.creds,
      orderId: position.orderId,
      tp: 1990,
    });
    expect(refused.statusCode).toBe(400);
    expect(await snapshot(s)).toBe(before);

    const edit = { ...s.creds, orderId: position.orderId, tp: 2100, clientOrderId: 'tp-once' };
    const first = (await post(t, s, '/trading/order/tpsl', edit)).json();
    expect((await post(t, s, '/trading/order/tpsl', edit)).json()).toEqual(first);
    const rows = await logs(s);
    expect(rows.filter((r) => r.actionType === 3)).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actionType: 3, clientOrderId: 'tp-once', tp: 2100 });
  });
});

describe('POST /trading/order/pending/modify changes a working pending order', () => {
  it('sets its price and levels, logs a Modify row and tells the account’s pages', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { tp: 2000, sl: 1980 });
    events.length = 0;
    const res = await modify(s, { pId: pending.pId, pendPrice: 1985, tp: 1995, sl: 1975 });
    expect(res.statusCode).toBe(200);
    const answer = pendingModifyResponseSchema.parse(res.json());
    expect(answer).toMatchObject({
      code: 0,
      success: true,
      msg: 'Pending order updated successfully',
      message: 'Pending order updated successfully',
      data: {
        pending: {
          pId: pending.pId,
          pendPrice: 1985,
          tp: 1995,
          sl: 1975,
          triggerType: 'limit',
          status: 'working',
          volume: 0.5,
          expireType: 'GTC',
          createdAt: pending.createdAt,
        },
      },
    });
    expect(await pendings(s)).toEqual([answer.data?.pending]);

    const [row, placed] = await logs(s);
    expect(row).toMatchObject({
      symbol: 'XAUUSD',
      cmd: 1,
      actionType: 3,
      orderType: 2,
      volume: 0.5,
      price: 1985,
      // a buy is measured against the ask
      marketPrice: 2000.5,
      orderStatus: 2,
      commissionFee: 0,
      tp: 1995,
      sl: 1975,
      orderId: null,
      pId: pending.pId,
    });
    // the order's own row still tells how it was placed, and still waits
    expect(placed).toMatchObject({ actionType: 1, orderStatus: 0, price: 1990, pId: pending.pId });
    expect(events).toEqual([
      {
        type: 'pending_modified',
        uuid: s.uuid,
        symbol: 'XAUUSD',
        at: t.clock.now(),
        pId: pending.pId,
        pendPrice: 1985,
        tp: 1995,
        sl: 1975,
      },
    ]);
    expect(projectOrderLog(await listOrderEvents(t.db, s.uuid))).toEqual(
      await listOrderLogs(t.db, s.uuid, -1, 100),
    );
  });

  it('turns a buy limit moved above the ask into a stop order; a level left out is removed', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { tp: 2000 });
    const res = await modify(s, { pId: Number(pending.pId), pendPrice: '2010.5' });
    expect(res.json()).toMatchObject({
      code: 0,
      data: { pending: { pendPrice: 2010.5, triggerType: 'stop', tp: 0, sl: 0 } },
    });
  });

  it('answers a call that changes nothing without logging it', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { sl: 1980 });
    const count = (await logs(s)).length;
    const res = await modify(s, { pId: pending.pId, pendPrice: 1990, sl: 1980 });
    expect(res.json()).toMatchObject({ code: 0, data: { pending: { pendPrice: 1990 } } });
    expect(await logs(s)).toHaveLength(count);
  });

  it('answers a retried clientOrderId with the first answer and logs once', async () => {
    const s = await traderSession(t);
    const pending = await pend(s);
    const body = { pId: pending.pId, pendPrice: 1984, clientOrderId: 'move-once' };
    const first = (await modify(s, body)).json();
    expect(first).toMatchObject({ code: 0 });
    expect((await modify(s, body)).json()).toEqual(first);
    expect((await logs(s)).filter((r) => r.actionType === 3)).toHaveLength(1);
    // the same key for another price is a conflict
    const reused = await modify(s, { ...body, pendPrice: 1983 });
    expect(reused.statusCode).toBe(409);
  });
});

describe('pending/modify refusals change nothing', () => {
  let s: TraderSession;
  let pending: PendingView;
  let before: string;
  beforeAll(async () => {
    t.market.setQuote('XAUUSD', 2000, 2000.5);
    s = await traderSession(t);
    await open(s, { tp: 2100 });
    pending = await pend(s, { tp: 2000, sl: 1980 });
    before = await snapshot(s);
  });

  it.each([
    // the ticket's band against the ask 2000.50: 1600.40–1998.49 below, 2002.51–2400.60 above
    [
      'inside the band’s gap',
      { pendPrice: 1999 },
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    ],
    [
      'at the ask',
      { pendPrice: 2000.5 },
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    ],
    [
      'too far below',
      { pendPrice: 1500 },
      'Limit price must be between 1600.40 and 1998.49 (below the market) or between 2002.51 and 2400.60 (above the market)',
    ],
    [
      'off the tick',
      { pendPrice: 1985.005 },
      'Limit price must be a multiple of the tick size 0.01',
    ],
    ['zero', { pendPrice: 0 }, 'Limit order price must be greater than 0'],
    ['not a number', { pendPrice: 'abc' }, 'Limit order price must be greater than 0'],
    // TP/SL measured from the new price 1985: TP 1986.99–2382.00
    [
      'a TP below the new price',
      { pendPrice: 1985, tp: 1985.5 },
      'TP price must be between 1986.99 and 2382.00',
    ],
    [
      'an SL above it',
      { pendPrice: 1985, sl: 1986 },
      'SL price must be between 1588.00 and 1983.01',
    ],
  ] as const)('%s: 400 with the rule’s message', async (_, body, msg) => {
    const res = await modify(s, { pId: pending.pId, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 40000,
      msg,
      data: null,
      success: false,
      message: msg,
    });
    expect(await snapshot(s)).toBe(before);
  });

  it('malformed ids and a missing price: 400, never a 500', async () => {
    for (const body of [
      { pId: 'x', pendPrice: 1985 },
      { pId: 0, pendPrice: 1985 },
      { pId: pending.pId },
    ]) {
      const res = await modify(s, body);
      expect(res.statusCode).toBe(400);
      expect(res.json<Answer>().code).toBe(40000);
    }
    expect(await snapshot(s)).toBe(before);
  });

  it('another user’s pending order: 404 with their own account, 50002 with the victim’s', async () => {
    const attacker = await traderSession(t);
    const mine = await modify(attacker, { pId: pending.pId, pendPrice: 1985 });
    expect(mine.statusCode).toBe(404);
    expect(mine.json()).toMatchObject({
      code: 40400,
      msg: `Pending order not found: ${pending.pId}`,
    });
    const theirs = await post(t, attacker, '/trading/order/pending/modify', {
      ...s.creds,
      pId: pending.pId,
      pendPrice: 1985,
    });
    expect(theirs.statusCode).toBe(401);
    expect(theirs.json()).toMatchObject({ code: 50002, msg: 'Token验证失败', data: null });
    expect(await snapshot(s)).toBe(before);
  });

  it('a closed market: 422 and no log row', async () => {
    t.market.setTrading('XAUUSD', false);
    try {
      const res = await modify(s, { pId: pending.pId, pendPrice: 1985 });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 42200, msg: 'The market for XAUUSD is closed' });
    } finally {
      t.market.setTrading('XAUUSD', true);
    }
    expect(await snapshot(s)).toBe(before);
  });

  it('an order no longer working: 409', async () => {
    const other = await pend(s, { pendPrice: 1970 });
    await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: other.pId });
    const canceled = await snapshot(s);
    const res = await modify(s, { pId: other.pId, pendPrice: 1975 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 40900,
      msg: `Pending order ${other.pId} is already canceled`,
    });
    expect(await snapshot(s)).toBe(canceled);
  });
});

describe('pending/modify checks the free margin at the new price', () => {
  it('refuses with 422 and changes nothing when the new price needs more than is free', async () => {
    const s = await traderSession(t);
    // 1 lot at 1990 needs 100 × 1990 × 5 % = 9950 + 5 commission: placed
    const pending = await pend(s, { volume: 1 });
    // 9 lots at 2000.50: margin 90022.50, equity 100000 − 45 commission − 450 spread
    await open(s, { volume: 9 });
    const before = await snapshot(s);
    // free margin 99505 − 90022.50 = 9482.50; 1 lot at 1985 needs 9925 + 5
    const res = await modify(s, { pId: pending.pId, pendPrice: 1985 });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 42200,
      msg: 'Insufficient margin: the order needs 9930.00 USD (margin and commission), free margin is 9482.50 USD',
    });
    expect(await snapshot(s)).toBe(before);
  });
});

describe('a modified pending order triggers at its new price exactly once, never at its old', () => {
  it('a buy limit moved from 1990 down to 1980', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { pendPrice: 1990, tp: 2000 });
    const moved = await modify(s, { pId: pending.pId, pendPrice: 1980, tp: 1990 });
    expect(moved.json()).toMatchObject({ code: 0 });
    events.length = 0;

    // the old price is reached: nothing fills
    await t.tick('XAUUSD', 1989.5, 1990);
    await t.tick('XAUUSD', 1985, 1985.5);
    expect(await listOpenPositions(t.db, s.uuid)).toEqual([]);
    expect(await pendings(s)).toMatchObject([{ pId: pending.pId, status: 'working' }]);

    // the new one is: it fills once, at the ask, with the TP moved along
    await t.tick('XAUUSD', 1979.5, 1980);
    await t.tick('XAUUSD', 1979, 1979.5);
    await t.tick('XAUUSD', 1978, 1978.5);
    const open = await listOpenPositions(t.db, s.uuid);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      price: 1980,
      volume: 0.5,
      tp: 1990,
      pendingId: Number(pending.pId),
    });
    expect(await pendings(s)).toEqual([]);
    expect(events.filter((e) => e.type === 'pending_filled' && e.pId === pending.pId)).toHaveLength(
      1,
    );
    expect(t.app.services.trading.context.index.hasPending('XAUUSD', Number(pending.pId))).toBe(
      false,
    );
  });

  it('a trigger queued with the old price before the change fills nothing', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { pendPrice: 1990 });
    await modify(s, { pId: pending.pId, pendPrice: 1980 });
    // the engine acts on what it saw at the old price: the locked row says 1980 now
    await fillPending(t.app.services.trading.context, Number(pending.pId), {
      time: t.clock.now(),
      bid: 1989.5,
      ask: 1990,
      size: 1,
    });
    expect(await listOpenPositions(t.db, s.uuid)).toEqual([]);
    expect(await pendings(s)).toMatchObject([{ pendPrice: 1980, status: 'working' }]);
  });

  it('a reload of the index takes a price changed elsewhere (another node)', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { pendPrice: 1990 });
    const { index } = t.app.services.trading.context;
    await modify(s, { pId: pending.pId, pendPrice: 1980 });
    // this node's index as another node's change would leave it: the old price
    index.trackPending({
      ...(await listWorkingPendings(t.db, s.uuid))[0]!,
      pendPrice: asPrice(1990),
      version: 0,
    });
    expect(index.pendingsOf('XAUUSD').find((p) => p.id === Number(pending.pId))?.price).toBe(1990);
    await t.engine.refresh();
    expect(index.pendingsOf('XAUUSD').find((p) => p.id === Number(pending.pId))?.price).toBe(1980);
  });
});
