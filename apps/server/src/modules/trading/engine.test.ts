import {
  pendingSchema,
  positionSchema,
  settleSchema,
  type OrderLogView,
  type PendingView,
  type PositionView,
  type SettleView,
} from '@ct/domain';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { openPglite } from '../../db/connect.ts';
import type { Db } from '../../db/types.ts';
import { buildUser, loginAs } from '../../test/factories.ts';
import { openTestDatabase, testConfig } from '../../test/helpers.ts';
import { ledgerTotal } from './store/accounts.ts';
import {
  get,
  listPendings,
  post,
  traderSession,
  useTradingTestApp,
  type Answer,
  type TradingTestApp,
  type TraderSession,
} from '../../test/trading.ts';

let t: TradingTestApp;
const events = useTradingTestApp((app) => (t = app), { accountEvents: true });

async function open(s: TraderSession, body: Record<string, unknown>): Promise<PositionView> {
  const res = await post(t, s, '/trading/order/open', { ...s.creds, symbol: 'XAUUSD', ...body });
  const answer = res.json<Answer<{ order: PositionView }>>();
  expect(answer.msg).toBe('Order filled');
  return positionSchema.parse(answer.data.order);
}

async function pend(s: TraderSession, body: Record<string, unknown>): Promise<PendingView> {
  const res = await post(t, s, '/trading/order/pending/add', {
    ...s.creds,
    symbol: 'XAUUSD',
    ...body,
  });
  const answer = res.json<Answer<{ pending: PendingView }>>();
  expect(answer.msg).toBe('Pending order placed');
  return pendingSchema.parse(answer.data.pending);
}

async function positions(s: TraderSession): Promise<PositionView[]> {
  return (await get(t, s, '/trading/order/position', s.creds)).json<
    Answer<{ orders: PositionView[] }>
  >().data.orders;
}
const pendings = (s: TraderSession) => listPendings(t, s);
async function settles(s: TraderSession): Promise<SettleView[]> {
  const rows = (await get(t, s, '/trading/order/settles', s.creds)).json<
    Answer<{ settles: SettleView[] }>
  >().data.settles;
  return rows.map((r) => settleSchema.parse(r));
}
async function logs(s: TraderSession): Promise<OrderLogView[]> {
  return (await get(t, s, '/trading/order/logs', s.creds)).json<
    Answer<{ orders: OrderLogView[] }>
  >().data.orders;
}
async function summary(s: TraderSession) {
  return (await get(t, s, '/trading/account/summary', s.creds)).json<
    Answer<{ balance: number; realizedPnl: number; commissionPaid: number; usedMargin: number }>
  >().data;
}

describe('pending orders fill when the quote reaches their price', () => {
  it.each([
    // [description, cmd, pendPrice, trigger, not yet (bid, ask), fills (bid, ask), fill price]
    ['buy limit: ask falls to the price', 1, 1990, 'limit', [1990, 1990.5], [1989.5, 1990], 1990],
    [
      'buy limit gapped through: fills at the better ask',
      1,
      1990,
      'limit',
      [1991, 1991.5],
      [1985, 1985.5],
      1985.5,
    ],
    [
      'sell limit: bid rises to the price',
      2,
      2010,
      'limit',
      [2009.9, 2010.4],
      [2010, 2010.5],
      2010,
    ],
    ['buy stop: ask rises to the price', 1, 2010, 'stop', [2009, 2009.5], [2009.5, 2010], 2010],
    ['sell stop: bid falls to the price', 2, 1990, 'stop', [1990.1, 1990.6], [1990, 1990.5], 1990],
  ] as const)('%s', async (_, cmd, pendPrice, trigger, before, after, fillPrice) => {
    const s = await traderSession(t);
    const pending = await pend(s, { cmd, volume: 0.5, pendPrice, tp: 0, sl: 0 });
    expect(pending.triggerType).toBe(trigger);

    await t.tick('XAUUSD', before[0], before[1]);
    expect(await positions(s)).toEqual([]);
    expect((await pendings(s)).map((p) => p.pId)).toEqual([pending.pId]);

    await t.tick('XAUUSD', after[0], after[1]);
    const [position] = await positions(s);
    expect(position).toMatchObject({ cmd, volume: 0.5, price: fillPrice, pId: pending.pId });
    expect(await pendings(s)).toEqual([]);
    const [log] = await logs(s);
    expect(log).toMatchObject({
      pId: pending.pId,
      orderId: position?.orderId,
      orderType: 2,
      orderStatus: 2,
      price: fillPrice,
      commissionFee: 2.5,
    });
    expect(log?.transactTime).toBeGreaterThan(log?.createdAt ?? Infinity);
    expect(events.map((e) => e.type)).toEqual(['pending_added', 'pending_filled']);
    expect(events[1]).toMatchObject({ pId: pending.pId, orderId: position?.orderId, uuid: s.uuid });
  });

  it('keeps its TP and SL on the position it opens', async () => {
    const s = await traderSession(t);
    await pend(s, { cmd: 1, volume: 1, pendPrice: 1990, tp: 2050, sl: 1950 });
    await t.tick('XAUUSD', 1989.5, 1990);
    expect(await positions(s)).toMatchObject([{ tp: 2050, sl: 1950 }]);
    await t.tick('XAUUSD', 2050, 2050.5);
    expect(await settles(s)).toMatchObject([{ closeReason: 1, closePrice: 2050 }]);
  });
});

describe('TP and SL close at the quote that crosses them', () => {
  it.each([
    // [description, cmd, tp, sl, quiet (bid, ask), crossing (bid, ask), reason, close price]
    ['buy TP at the bid', 1, 2010, 1990, [2009.99, 2010.49], [2010, 2010.5], 1, 2010],
    ['buy SL at the bid', 1, 2010, 1990, [1990.01, 1990.51], [1989, 1989.5], 2, 1989],
    ['sell TP at the ask', 2, 1990, 2010, [1989.6, 1990.1], [1989.5, 1990], 1, 1990],
    ['sell SL at the ask', 2, 1990, 2010, [2009.4, 2009.9], [2009.5, 2010], 2, 2010],
  ] as const)('%s', async (_, cmd, tp, sl, quiet, crossing, reason, closePrice) => {
    const s = await traderSession(t);
    const order = await open(s, { cmd, volume: 0.2, tp, sl });
    await t.tick('XAUUSD', quiet[0], quiet[1]);
    expect(await positions(s)).toHaveLength(1);

    await t.tick('XAUUSD', crossing[0], crossing[1]);
    expect(await positions(s)).toEqual([]);
    const direction = cmd === 1 ? 1 : -1;
    const profit = Math.round(direction * (closePrice - order.price) * 0.2 * 100 * 100) / 100;
    expect(await settles(s)).toMatchObject([
      {
        orderId: order.orderId,
        closeReason: reason,
        closePrice,
        settleVolume: 0.2,
        isSettled: 2,
        settleProfit: profit,
        openCommission: 1,
        closeCommission: 1,
      },
    ]);
    const [closeLog] = await logs(s);
    expect(closeLog).toMatchObject({
      actionType: 2,
      cmd: cmd === 1 ? 2 : 1,
      orderStatus: 2,
      message: reason === 1 ? 'Take profit' : 'Stop loss',
    });
    const closed = events.find((e) => e.type === 'position_closed');
    expect(closed).toMatchObject({ orderId: order.orderId, full: true, closeReason: reason });
  });

  it('follows an edit: the old level no longer fires, the new one does', async () => {
    const s = await traderSession(t);
    const order = await open(s, { cmd: 1, volume: 0.1, tp: 2010 });
    const edit = await post(t, s, '/trading/order/tpsl', {
      ...s.creds,
      orderId: order.orderId,
      tp: 2020,
    });
    expect(edit.json()).toMatchObject({ code: 0 });
    await t.tick('XAUUSD', 2015, 2015.5);
    expect(await positions(s)).toHaveLength(1);
    await t.tick('XAUUSD', 2020, 2020.5);
    expect(await positions(s)).toEqual([]);
  });
});

describe('exactly once', () => {
  it('closes a TP once however many crossing ticks arrive before the engine runs', async () => {
    const s = await traderSession(t);
    await open(s, { cmd: 1, volume: 1, tp: 2010 });
    for (let i = 0; i < 25; i++) {
      t.market.setQuote('XAUUSD', 2011 + i, 2011.5 + i);
      t.clock.advance(200);
      t.app.services.feed.poll();
    }
    await t.engine.whenIdle();
    const rows = await settles(s);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ settleVolume: 1, closePrice: 2011 });
    expect(events.filter((e) => e.type === 'position_closed')).toHaveLength(1);
    const money = await summary(s);
    expect(money.balance).toBe(await ledgerTotal(t.db, s.uuid));
  });

  it('fills a pending order once under a burst of ticks', async () => {
    const s = await traderSession(t);
    await pend(s, { cmd: 1, volume: 1, pendPrice: 1990 });
    for (let i = 0; i < 25; i++) {
      t.market.setQuote('XAUUSD', 1985 - i, 1985.5 - i);
      t.clock.advance(200);
      t.app.services.feed.poll();
    }
    await t.engine.whenIdle();
    expect(await positions(s)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'pending_filled')).toHaveLength(1);
  });

  it('never closes more than the volume when a manual close races a TP', async () => {
    const s = await traderSession(t);
    const order = await open(s, { cmd: 1, volume: 1, tp: 2010 });
    t.market.setQuote('XAUUSD', 2012, 2012.5);
    t.clock.advance(1000);
    t.app.services.feed.poll();
    const manual = post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: order.orderId,
      volume: 1,
    });
    const [res] = await Promise.all([manual, t.engine.whenIdle()]);
    const rows = await settles(s);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.settleVolume).toBe(1);
    const answer = res.json<Answer>();
    if (answer.code === 0) expect(rows[0]?.closeReason).toBe(0);
    else
      expect(answer).toMatchObject({
        code: 40900,
        msg: `Order ${order.orderId} is already closed`,
      });
  });
});

describe('money: commissions, partial closes and currencies', () => {
  it('books commissions per side and splits the open commission over partial closes', async () => {
    const s = await traderSession(t);
    const order = await open(s, { cmd: 1, volume: 1 });
    expect(order).toMatchObject({ price: 2000.5, commissionFee: 5 });
    expect((await summary(s)).balance).toBe(99_995);

    t.market.setQuote('XAUUSD', 2010, 2010.5);
    const first = await post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: order.orderId,
      volume: 0.3,
    });
    expect(first.json<Answer<{ order: PositionView; settle: SettleView }>>().data).toMatchObject({
      order: { settledVol: 0.3, status: 'open', volume: 1 },
      settle: {
        isSettled: 1,
        settleVolume: 0.3,
        settleProfit: 285,
        openCommission: 1.5,
        closeCommission: 1.5,
        settleDate: 20260105,
      },
    });
    t.market.setQuote('XAUUSD', 1995, 1995.5);
    const second = await post(t, s, '/trading/order/close', {
      ...s.creds,
      orderId: order.orderId,
      volume: 0.7,
    });
    expect(second.json<Answer<{ order: PositionView; settle: SettleView }>>().data).toMatchObject({
      order: { settledVol: 1, status: 'closed' },
      settle: { isSettled: 2, settleVolume: 0.7, settleProfit: -385, openCommission: 3.5 },
    });
    const rows = await settles(s);
    expect(rows.reduce((sum, r) => sum + r.openCommission, 0)).toBe(5);
    const money = await summary(s);
    // 100000 − 5 (open) + 285 − 1.5 − 385 − 3.5
    expect(money).toMatchObject({
      balance: 99_890,
      realizedPnl: -100,
      commissionPaid: 10,
      usedMargin: 0,
    });
    expect(await ledgerTotal(t.db, s.uuid)).toBe(99_890);
  });

  it('converts JPY profit with the live USDJPY quote and CNY with the fixed rate', async () => {
    const s = await traderSession(t);
    t.market.setQuote('USDJPY', 150, 150.02);
    const yen = await open(s, { symbol: 'USDJPY', cmd: 1, volume: 0.1 });
    expect(yen).toMatchObject({ currency: 'JPY', price: 150.02, commissionFee: 0.35 });
    t.market.setQuote('USDJPY', 151, 151.02);
    await post(t, s, '/trading/order/close', { ...s.creds, orderId: yen.orderId, volume: 0.1 });
    // (151 − 150.02) × 0.1 × 100000 = 9800 JPY at 151.01 JPY per USD
    expect(await settles(s)).toMatchObject([{ settleProfit: 9800, currency: 'JPY' }]);
    expect((await summary(s)).realizedPnl).toBe(Math.round((9800 / 151.01) * 100) / 100);
    t.market.setQuote('USDJPY', 149.99, 150.01);

    const cny = await traderSession(t);
    t.market.setQuote('RB', 3500, 3501);
    const rebar = await open(cny, { symbol: 'RB', cmd: 1, volume: 1 });
    // margin 3501 × 10 × 0.1 = 3501 CNY at 7.2 CNY per USD
    expect((await summary(cny)).usedMargin).toBe(486.25);
    t.market.setQuote('RB', 3511, 3512);
    await post(t, cny, '/trading/order/close', { ...cny.creds, orderId: rebar.orderId, volume: 1 });
    // 100 CNY of profit, 3 CNY commission per side
    expect(await summary(cny)).toMatchObject({ realizedPnl: 13.89, commissionPaid: 0.84 });
  });

  it('rejects a pending order at fill time when free margin no longer covers it', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { cmd: 1, volume: 5, pendPrice: 1990 });
    await open(s, { cmd: 1, volume: 5 });
    await t.tick('XAUUSD', 1989.5, 1990);
    expect(await pendings(s)).toEqual([]);
    expect(await positions(s)).toHaveLength(1);
    const rejected = events.find((e) => e.type === 'pending_rejected');
    expect(rejected).toMatchObject({ pId: pending.pId });
    const log = (await logs(s)).find((l) => l.pId === pending.pId);
    expect(log).toMatchObject({ orderStatus: 1 });
    expect(log?.message).toMatch(/^Insufficient margin: the order needs 49775\.00 USD/);
  });
});

describe('resuming after a restart', () => {
  it('rebuilds its watch list from the database and fires on the next tick', async () => {
    const testDb = await openTestDatabase();
    const dir = path.join(testDb.dataDir, 'pglite');
    // Each start publishes the current quotes, as a listening server's feed does first.
    const start = async (db: Db) => {
      const app = await buildApp({ db, config: testConfig(), now: t.clock.now, market: t.market });
      app.services.feed.poll();
      return app;
    };
    let database = testDb.database;
    try {
      const before = await start(database.db);
      const user = await buildUser(database.db, { accounts: 1 });
      const { cookie, user: login } = await loginAs(before, user);
      const creds = { uuid: login.traders[0]?.uuid ?? '', token: login.traders[0]?.token ?? '' };
      const call = (app: FastifyInstance, url: string, payload: Record<string, unknown>) =>
        app.inject({
          method: 'POST',
          url,
          cookies: { ct_sid: cookie },
          payload: { ...creds, ...payload },
        });
      const pending = (
        await call(before, '/trading/order/pending/add', {
          symbol: 'XAUUSD',
          cmd: 1,
          volume: 0.1,
          pendPrice: 1990,
        })
      ).json<Answer<{ pending: PendingView }>>().data.pending;
      const order = (
        await call(before, '/trading/order/open', {
          symbol: 'XAUUSD',
          cmd: 1,
          volume: 0.1,
          sl: 1985,
        })
      ).json<Answer<{ order: PositionView }>>().data.order;
      await before.close();
      await database.close();

      database = await openPglite(dir);
      const after = await start(database.db);
      try {
        expect(after.services.trading.context.index.size()).toEqual({ pendings: 1, exits: 1 });
        t.market.setQuote('XAUUSD', 1980, 1980.5);
        t.clock.advance(1000);
        after.services.feed.poll();
        await after.services.trading.engine.whenIdle();
        const list = await after.inject({
          method: 'GET',
          url: '/trading/order/position',
          cookies: { ct_sid: cookie },
          query: creds,
        });
        // the pending order filled (at 1980.5) and the SL of the older position closed it
        expect(list.json<Answer<{ orders: PositionView[] }>>().data.orders).toMatchObject([
          { pId: pending.pId, price: 1980.5 },
        ]);
        const closed = await after.inject({
          method: 'GET',
          url: '/trading/order/settles',
          cookies: { ct_sid: cookie },
          query: creds,
        });
        expect(closed.json<Answer<{ settles: SettleView[] }>>().data.settles).toMatchObject([
          { orderId: order.orderId, closeReason: 2 },
        ]);
      } finally {
        await after.close();
      }
    } finally {
      await database.close();
      fs.rmSync(testDb.dataDir, { recursive: true, force: true });
    }
  });
});

describe('changes made by other server nodes', () => {
  it('picks up pending orders and newer TP/SL from the database on refresh', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { cmd: 1, volume: 0.1, pendPrice: 1990 });
    const order = await open(s, { cmd: 1, volume: 0.1, tp: 2050 });
    const index = t.app.services.trading.context.index;
    // as if another node had placed the order and edited the TP: this index never saw it
    index.untrackPending('XAUUSD', Number(pending.pId));
    const updated = await t.db.execute<{ version: number }>(
      sql`update positions set tp = 2030, version = version + 1 where id = ${Number(order.orderId)} returning version`,
    );
    const row = (updated as unknown as { rows: { version: number }[] }).rows[0];
    expect(index.exitsOf('XAUUSD').find((e) => e.id === Number(order.orderId))?.tp).toBe(2050);

    await t.engine.refresh();
    expect(index.hasPending('XAUUSD', Number(pending.pId))).toBe(true);
    expect(index.exitsOf('XAUUSD').find((e) => e.id === Number(order.orderId))).toMatchObject({
      tp: 2030,
      version: row?.version,
    });
    await t.tick('XAUUSD', 2030, 2030.5);
    expect(await settles(s)).toMatchObject([{ orderId: order.orderId, closeReason: 1 }]);
  });

  it('reads only the rows another node named, and only those still to watch', async () => {
    const s = await traderSession(t);
    const pending = await pend(s, { cmd: 1, volume: 0.1, pendPrice: 1990 });
    const other = await pend(s, { cmd: 1, volume: 0.1, pendPrice: 1980 });
    const protectedOrder = await open(s, { cmd: 1, volume: 0.1, sl: 1900 });
    const bare = await open(s, { cmd: 1, volume: 0.1 });
    const index = t.app.services.trading.context.index;
    for (const p of [pending, other]) index.untrackPending('XAUUSD', Number(p.pId));
    index.untrackPosition('XAUUSD', Number(protectedOrder.orderId));
    // canceled meanwhile: nothing to watch
    await post(t, s, '/trading/order/pending/del', { ...s.creds, pId: other.pId });

    await t.engine.track({
      pendings: [Number(pending.pId), Number(other.pId)],
      positions: [Number(protectedOrder.orderId), Number(bare.orderId)],
    });
    expect(index.hasPending('XAUUSD', Number(pending.pId))).toBe(true);
    expect(index.hasPending('XAUUSD', Number(other.pId))).toBe(false);
    const watched = index.exitsOf('XAUUSD').map((e) => e.id);
    expect(watched).toContain(Number(protectedOrder.orderId));
    expect(watched).not.toContain(Number(bare.orderId));
  });
});

describe('GFD expiry (last: the clock leaves the day)', () => {
  it('expires GFD orders at the end of the trading day, by the sweep and on a tick', async () => {
    const s = await traderSession(t);
    t.market.setQuote('BTCUSDT', 90_000, 90_010);
    const gfd = await pend(s, {
      symbol: 'BTCUSDT',
      cmd: 1,
      volume: 0.01,
      pendPrice: 89_000,
      expireType: 'GFD',
    });
    const gtc = await pend(s, {
      symbol: 'BTCUSDT',
      cmd: 1,
      volume: 0.01,
      pendPrice: 88_000,
      expireType: 'GTC',
    });
    const gold = await pend(s, { cmd: 1, volume: 0.1, pendPrice: 1990, expireType: 'GFD' });
    expect(gfd.expiresAt).toBe(Date.parse('2026-01-06T00:00:00Z') / 1000);
    expect(gtc.expiresAt).toBeNull();

    await t.engine.sweepExpired();
    expect(await pendings(s)).toHaveLength(3);

    t.clock.set(Date.parse('2026-01-06T00:00:00Z') - 1000);
    t.market.setTrading('BTCUSDT', false); // no BTCUSDT ticks: only the sweep can expire it
    // A tick that would fill an expired GFD order expires it instead.
    await t.tick('XAUUSD', 1980, 1980.5);
    expect(await positions(s)).toEqual([]);
    expect(events.filter((e) => e.type === 'pending_expired')).toMatchObject([{ pId: gold.pId }]);
    expect((await pendings(s)).map((p) => p.pId).sort()).toEqual([gfd.pId, gtc.pId].sort());

    await t.engine.sweepExpired();
    expect((await pendings(s)).map((p) => p.pId)).toEqual([gtc.pId]);
    expect(events.filter((e) => e.type === 'pending_expired')).toMatchObject([
      { pId: gold.pId },
      { pId: gfd.pId },
    ]);
    const log = (await logs(s)).find((l) => l.pId === gfd.pId);
    expect(log).toMatchObject({
      orderStatus: 4,
      message: 'Expired at the end of the trading day (GFD)',
    });
    expect(await positions(s)).toEqual([]);
  });
});
