import { IllegalTransition, type PendingView, type PositionView } from '@ct/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { movePendingOrder } from './order-events.ts';
import { listOrderEvents, listOrderLogs } from './store/history.ts';
import { findPending } from './store/pendings.ts';
import {
  createTradingTestApp,
  post,
  traderSession,
  type Answer,
  type TraderSession,
  type TradingTestApp,
} from './test-support.ts';

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
        movePendingOrder(tx, stored, 'Filled', { transactTime: t.clock.now(), message: '' }),
      ),
    ).rejects.toThrow(IllegalTransition);
    expect(await events(s)).toEqual(before);
  });
});
