import {
  notificationEventSchema,
  notificationListSchema,
  type NotificationEvent,
  type NotificationList,
} from '@ct/domain';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { rawQuery } from '../../db/raw.ts';
import { createGatewayPolicy } from '../gateway/policy.ts';
import {
  post,
  traderSession,
  useTradingTestApp,
  type Answer,
  type TradingTestApp,
  type TraderSession,
} from '../../test/trading.ts';
import { recordNotification } from './service.ts';

let t: TradingTestApp;
useTradingTestApp((app) => (t = app));

/** Every publication of a notifications channel since the test began, by channel. */
const heard: { channel: string; event: NotificationEvent }[] = [];
let listening = false;
beforeEach(() => {
  heard.length = 0;
  if (listening) return;
  listening = true;
  t.app.services.broker.listen(({ channel, data }) => {
    if (channel.startsWith('notifications:')) {
      heard.push({ channel, event: notificationEventSchema.parse(data) });
    }
  });
});

type Method = 'GET' | 'POST';
const call = (
  s: Pick<TraderSession, 'cookie'>,
  method: Method,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method,
    url,
    cookies: { ct_sid: s.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function list(s: TraderSession, query = ''): Promise<NotificationList> {
  const res = await call(s, 'GET', `/api/notifications${query}`);
  expect(res.statusCode).toBe(200);
  return notificationListSchema.parse(res.json());
}

const ctx = () => t.app.services.notifications.context;

async function pendXau(s: TraderSession, body: Record<string, unknown>) {
  const res = await post(t, s, '/trading/order/pending/add', {
    ...s.creds,
    symbol: 'XAUUSD',
    ...body,
  });
  const answer = res.json<Answer<{ pending: { pId: string } }>>();
  expect(answer.msg).toBe('Pending order placed');
  return answer.data.pending;
}

describe('notifications API', () => {
  it('answers 401 without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['POST', '/api/notifications/read'],
      ['GET', '/api/notifications/live-token'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('lists newest first with the unread count, and marks read by id or all', async () => {
    const s = await traderSession(t);
    const userId = s.login.id;
    expect(await list(s)).toEqual({ items: [], total: 0, unread: 0 });
    const first = await recordNotification(ctx(), userId, {
      kind: 'ai_task_completed',
      params: { name: 'One' },
      ref: 'ai_task:1',
    });
    t.clock.advance(1000);
    const second = await recordNotification(ctx(), userId, {
      kind: 'ai_task_failed',
      params: { name: 'Two', error: 'boom' },
      ref: 'ai_task:2',
    });
    // the same event again keeps one
    expect(
      await recordNotification(ctx(), userId, { kind: 'ai_task_completed', ref: 'ai_task:1' }),
    ).toBeNull();

    const page = await list(s);
    expect(page.total).toBe(2);
    expect(page.unread).toBe(2);
    expect(page.items.map((n) => n.id)).toEqual([second!.id, first!.id]);
    expect(page.items[0]).toMatchObject({
      kind: 'ai_task_failed',
      params: { name: 'Two', error: 'boom' },
      read: false,
    });
    expect((await list(s, '?skip=1&limit=1')).items.map((n) => n.id)).toEqual([first!.id]);

    // delivered live on the user's own channel
    expect(heard.map((h) => [h.channel, h.event.type])).toEqual([
      [`notifications:${userId}`, 'notification'],
      [`notifications:${userId}`, 'notification'],
    ]);

    heard.length = 0;
    const read = await call(s, 'POST', '/api/notifications/read', { ids: [first!.id] });
    expect(read.json()).toEqual({ updated: 1, unread: 1 });
    expect(heard.map((h) => h.event)).toEqual([
      { type: 'notifications_read', ids: [first!.id], unread: 1 },
    ]);
    expect((await list(s)).items.map((n) => n.read)).toEqual([false, true]);
    const all = await call(s, 'POST', '/api/notifications/read', { all: true });
    expect(all.json()).toEqual({ updated: 1, unread: 0 });
    expect((await list(s)).unread).toBe(0);
  });

  it('keeps the newest NOTIFICATIONS_KEEP per user', async () => {
    const s = await traderSession(t);
    const kept = ctx().keep;
    const keep = 10;
    ctx().keep = keep;
    onTestFinished(() => {
      ctx().keep = kept;
    });
    for (let i = 0; i < keep + 3; i++) {
      await recordNotification(ctx(), s.login.id, {
        kind: 'live_run_error',
        params: { n: i },
        ref: null,
      });
    }
    const page = await list(s, '?limit=1');
    expect(page.total).toBe(keep);
    expect(page.items[0]?.params).toEqual({ n: keep + 2 });
  });

  it('another user cannot see, read or subscribe to them', async () => {
    const owner = await traderSession(t);
    const other = await traderSession(t);
    const note = await recordNotification(ctx(), owner.login.id, { kind: 'margin_warning' });
    expect((await list(other)).total).toBe(0);

    const res = await call(other, 'POST', '/api/notifications/read', { ids: [note!.id] });
    expect(res.json()).toEqual({ updated: 0, unread: 0 });
    expect((await list(owner)).items[0]?.read).toBe(false);
    await call(other, 'POST', '/api/notifications/read', { all: true });
    expect((await list(owner)).unread).toBe(1);

    // the other's tokens are for the other's channel; the gateway refuses them for the owner's
    const token = (await call(other, 'GET', '/api/notifications/live-token')).json<{
      channel: string;
      connectToken: string;
      subscriptionToken: string;
    }>();
    expect(token.channel).toBe(`notifications:${other.login.id}`);
    const policy = createGatewayPolicy({
      secret: t.config.liveTokenSecret,
      now: t.clock.now,
      isKnownSymbol: () => true,
    });
    const identity = await policy.authenticate(token.connectToken);
    expect(identity).toMatchObject({ userId: other.login.id });
    if (typeof identity === 'number' || 'code' in identity) throw new Error('refused');
    const own = await policy.authorize(identity, token.channel, token.subscriptionToken);
    expect(own).toMatchObject({ expiresAt: expect.any(Number) });
    const theirs = await policy.authorize(
      identity,
      `notifications:${owner.login.id}`,
      token.subscriptionToken,
    );
    expect(theirs).not.toHaveProperty('expiresAt');
  });

  it.each([
    [{}],
    [{ ids: [] }],
    [{ ids: ['x'] }],
    [{ ids: [1] }],
    [{ all: false }],
    [{ all: true, ids: ['1'] }],
    [{ ids: Array.from({ length: 201 }, (_, i) => String(i + 1)) }],
    [null],
  ])('refuses the read body %j with a 400 and changes nothing', async (body) => {
    const s = await traderSession(t);
    await recordNotification(ctx(), s.login.id, { kind: 'margin_warning' });
    const res = await call(s, 'POST', '/api/notifications/read', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('detail');
    expect((await list(s)).unread).toBe(1);
  });

  it.each(['?limit=0', '?limit=201', '?skip=-1', '?limit=x'])(
    'refuses the query %s with a 400',
    async (query) => {
      const s = await traderSession(t);
      const res = await call(s, 'GET', `/api/notifications${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('detail');
    },
  );

  it('a bad notification from a module creates nothing', async () => {
    const s = await traderSession(t);
    await expect(
      recordNotification(ctx(), s.login.id, { kind: 'nope' as 'margin_warning' }),
    ).rejects.toThrow();
    expect((await list(s)).total).toBe(0);
  });
});

describe('trading notifications', () => {
  it('a pending order that fills is told once, in the fill transaction', async () => {
    const s = await traderSession(t);
    const pending = await pendXau(s, { cmd: 1, volume: 0.5, pendPrice: 1990 });
    await t.tick('XAUUSD', 1990, 1990.5);
    expect((await list(s)).total).toBe(0);
    await t.tick('XAUUSD', 1989.5, 1990);
    await t.tick('XAUUSD', 1989, 1989.5);
    const page = await list(s);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: 'pending_filled',
      ref: `pending:${pending.pId}:filled`,
      read: false,
      params: { symbol: 'XAUUSD', price: 1990, side: 'buy', volume: 0.5, pending_id: pending.pId },
    });
    expect(page.items[0]?.params.account).toEqual(expect.any(String));
    expect(heard.filter((h) => h.event.type === 'notification')).toHaveLength(1);
  });

  it('a take-profit and a stop-loss close are told', async () => {
    const s = await traderSession(t);
    const open = async (tp: number, sl: number) => {
      const res = await post(t, s, '/trading/order/open', {
        ...s.creds,
        symbol: 'XAUUSD',
        cmd: 1,
        volume: 1,
        tp,
        sl,
      });
      expect(res.json<Answer>().msg).toBe('Order filled');
    };
    await open(2010, 1950);
    await t.tick('XAUUSD', 2010, 2010.5);
    await open(2050, 2000);
    await t.tick('XAUUSD', 1999, 1999.5);
    const kinds = (await list(s)).items.map((n) => n.kind);
    expect(kinds).toEqual(['stop_loss', 'take_profit']);
  });

  it('a margin level falling below the warning level is told once per crossing', async () => {
    const s = await traderSession(t);
    // 9 lots of gold at 2000.5: about 90,000 USD of margin on 100,000
    const opened = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 9,
    });
    expect(opened.json<Answer>().msg).toBe('Order filled');
    await t.engine.refresh(); // the engine's reload (every 5 s) reads the new lots
    const warnings = async () => (await list(s)).items.filter((n) => n.kind === 'margin_warning');
    await t.tick('XAUUSD', 1990, 1990.5); // about 100.5 %
    expect(await warnings()).toEqual([]);
    await t.tick('XAUUSD', 1985, 1985.5); // about 95.5 %: below 100 %
    await t.tick('XAUUSD', 1980, 1980.5); // still below: nothing more
    await t.tick('XAUUSD', 1984, 1984.5);
    let told = await warnings();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      kind: 'margin_warning',
      read: false,
      params: { warning_level: 100, account: expect.any(String) },
    });
    expect(told[0]?.params.level).toBeCloseTo(95.5, 0);
    expect(
      heard.filter(
        (h) => h.event.type === 'notification' && h.channel === `notifications:${s.login.id}`,
      ),
    ).toHaveLength(1);
    // back above, then below again: a second crossing, a second warning
    await t.tick('XAUUSD', 2000, 2000.5);
    await t.tick('XAUUSD', 1985, 1985.5);
    told = await warnings();
    expect(told).toHaveLength(2);
  });

  it('a manual close tells nothing', async () => {
    const s = await traderSession(t);
    const opened = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 1,
    });
    const orderId = opened.json<Answer<{ order: { orderId: string } }>>().data.order.orderId;
    await post(t, s, '/trading/order/close', { ...s.creds, orderId, volume: 1 });
    expect((await list(s)).total).toBe(0);
    const [row] = await rawQuery(
      t.db,
      'select count(*)::int as n from notifications where user_id = $1',
      [s.login.id],
    );
    expect(row?.n).toBe(0);
  });
});
