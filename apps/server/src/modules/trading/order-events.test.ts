import {
  IllegalTransition,
  type AccountEvent,
  type PendingView,
  type PositionView,
} from '@ct/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { movePendingOrder, projectOrderLog } from './order-events.ts';
import { listOrderEvents, listOrderLogs } from './store/history.ts';
import { findPending } from './store/pendings.ts';
import {
  createTradingTestApp,
  post,
  traderSession,
  type Answer,
  type TraderSession,
  type TradingTestApp,
} from '../../test/trading.ts';

let t: TradingTestApp;
beforeAll(async () => {
  t = await createTradingTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.market.setQuote('XAUUSD', 2000, 2000.5);
});

async function pend(s: TraderSession, pendPrice: number): Promise<PendingView> {
  const res = await post(t, s, '/trading/order/pending/add', {
    ...s.creds,
    symbol: 'XAUUSD',
    cmd: 1,
    volume: 0.1,
    pendPrice,
  });
  return res.json<Answer<{ pending: PendingView }>>().data.pending;
}

async function events(s: TraderSession) {
  return (await listOrderEvents(t.db, s.uuid)).map((e) => [e.type, e.state, e.price]);
}

describe('the order event log', () => {
  it('appends an event for every change of an order, in the same transaction', async () => {
    const s = await traderSession(t);
    const order = (
      await post(t, s, '/trading/order/open', { ...s.creds, symbol: 'XAUUSD', cmd: 1, volume: 0.1 })
    ).json<Answer<{ order: PositionView }>>().data.order;
    await post(t, s, '/trading/order/close', { ...s.creds, orderId: order.orderId, volume: 0.1 });
    const canceled = await pend(s, 1990);
    await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: canceled.pId });
    await pend(s, 1980);
    await t.tick('XAUUSD', 1979.5, 1980);
    t.market.setTrading('XAUUSD', false);
    await post(t, s, '/trading/order/open', { ...s.creds, symbol: 'XAUUSD', cmd: 1, volume: 0.1 });
    t.market.setTrading('XAUUSD', true);

    expect(await events(s)).toEqual([
      ['OrderFilled', 'filled', 2000.5],
      ['OrderFilled', 'filled', 2000],
      ['OrderAccepted', 'working', null],
      ['OrderCanceled', 'canceled', null],
      ['OrderAccepted', 'working', null],
      ['OrderFilled', 'filled', 1980],
      ['OrderRejected', 'rejected', null],
    ]);
    // Each event belongs to an order of the log, and the pending order's events to its row.
    const logs = await listOrderLogs(t.db, s.uuid, -1, 50);
    const ids = new Set(logs.map((l) => l.id));
    const stored = await listOrderEvents(t.db, s.uuid);
    expect(stored.every((e) => ids.has(e.orderId))).toBe(true);
    expect(stored[2]?.orderId).toBe(stored[3]?.orderId);
  });

  it('refuses an illegal move from the stored status and writes nothing', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, 1990);
    await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: pending.pId });
    const stored = await findPending(t.db, Number(pending.pId));
    if (!stored) throw new Error('pending order not stored');
    expect(stored.status).toBe('canceled');
    const before = await events(s);
    await expect(
      t.db.transaction((tx) =>
        movePendingOrder({ tx, record: () => undefined }, stored, 'Filled', {
          transactTime: t.clock.now(),
          message: '',
        }),
      ),
    ).rejects.toThrow(IllegalTransition);
    expect(await events(s)).toEqual(before);
  });

  it('refuses every move of a finished pending order from its stored state and writes nothing', async () => {
    const s = await traderSession(t);
    const filled = await pend(s, 1985);
    await t.tick('XAUUSD', 1984.5, 1985);
    const canceled = await pend(s, 1990);
    await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: canceled.pId });
    const before = await events(s);
    const logsBefore = await listOrderLogs(t.db, s.uuid, -1, 50);
    for (const pending of [filled, canceled]) {
      const stored = await findPending(t.db, Number(pending.pId));
      if (!stored) throw new Error('pending order not stored');
      expect(stored.status).not.toBe('working');
      for (const move of ['Filled', 'Canceled', 'Expired', 'Rejected'] as const) {
        await expect(
          t.db.transaction((tx) =>
            movePendingOrder({ tx, record: () => undefined }, stored, move, {
              transactTime: t.clock.now(),
              message: '',
            }),
          ),
        ).rejects.toThrow(IllegalTransition);
      }
    }
    // Through the API: canceling the filled order is a 409, and nothing is written.
    const res = await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: filled.pId });
    expect(res.statusCode).toBe(409);
    expect(await events(s)).toEqual(before);
    expect(await listOrderLogs(t.db, s.uuid, -1, 50)).toEqual(logsBefore);
  });

  it('rebuilds the stored order log from the events of a mixed history', async () => {
    const s = await traderSession(t);
    const heard: AccountEvent[] = [];
    const stop = t.app.services.broker.listen(({ data }) => {
      const e = data as AccountEvent;
      if (e.uuid === s.uuid) heard.push(e);
    });
    const open = async (body: Record<string, unknown>) =>
      (
        await post(t, s, '/trading/order/open', {
          ...s.creds,
          symbol: 'XAUUSD',
          cmd: 1,
          volume: 0.1,
          ...body,
        })
      ).json<Answer<{ order: PositionView }>>().data.order;
    // A market order closed in two parts, one whose TP the market hits, a pending order that
    // fills, one canceled, one expired (GFD) and a market order refused (market closed).
    const market = await open({ clientOrderId: 'mixed-1' });
    await post(t, s, '/trading/order/close', { ...s.creds, orderId: market.orderId, volume: 0.05 });
    await post(t, s, '/trading/order/close', { ...s.creds, orderId: market.orderId, volume: 0.05 });
    await open({ tp: 2010 });
    await t.tick('XAUUSD', 2011, 2011.5);
    t.market.setQuote('XAUUSD', 2000, 2000.5);
    await pend(s, 1990);
    await t.tick('XAUUSD', 1989.5, 1990);
    t.market.setQuote('XAUUSD', 2000, 2000.5);
    const canceled = await pend(s, 1980);
    await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: canceled.pId });
    t.market.setTrading('XAUUSD', false);
    const refused = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 0.1,
    });
    expect(refused.json<Answer>().code).not.toBe(0);
    t.market.setTrading('XAUUSD', true);
    const gfd = (
      await post(t, s, '/trading/order/pending/add', {
        ...s.creds,
        symbol: 'XAUUSD',
        cmd: 1,
        volume: 0.1,
        pendPrice: 1970,
        expireType: 'GFD',
      })
    ).json<Answer<{ pending: PendingView }>>().data.pending;
    t.clock.advance(24 * 3600 * 1000);
    await t.engine.sweepExpired();
    await t.engine.whenIdle();
    stop();

    const stored = await listOrderLogs(t.db, s.uuid, -1, 100);
    expect(stored.map((l) => l.orderStatus)).toEqual([4, 1, 4, 2, 2, 2, 2, 2, 2]);
    expect(projectOrderLog(await listOrderEvents(t.db, s.uuid))).toEqual(stored);
    // The live events were derived from the same order events and position changes.
    expect(heard.map((e) => e.type)).toEqual([
      'position_opened',
      'position_closed',
      'position_closed',
      'position_opened',
      'position_closed',
      'pending_added',
      'pending_filled',
      'pending_added',
      'pending_canceled',
      'pending_added',
      'pending_expired',
    ]);
    expect(heard[2]).toMatchObject({ orderId: market.orderId, full: true, closeReason: 0 });
    expect(heard[4]).toMatchObject({ full: true, closeReason: 1 });
    expect(heard.at(-1)).toEqual({
      type: 'pending_expired',
      uuid: s.uuid,
      symbol: 'XAUUSD',
      at: expect.any(Number),
      pId: gfd.pId,
    });
  });
});
