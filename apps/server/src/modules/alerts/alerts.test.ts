import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  alertEventSchema,
  bucketStart,
  indicatorSeries,
  type Alert,
  type AlertLog,
} from '@ct/domain';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { parseWebhookAllow, resolveWebhookTarget, WebhookRefusedError } from './ssrf.ts';

/*
 * Alerts through the API on real PGlite, judged on the feed's quotes: pinned with the
 * test-only feed control, so each tick is one the test chose (BTCUSDT trades 24/7, tick 0.1).
 */

const SYMBOL = 'BTCUSDT';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      marketTestControl: true,
      alerts: {
        maxPerUser: 12,
        webhookAllow: ['127.0.0.1'],
        webhookBackoffMs: 10,
        webhookRetryMs: 10_000,
        webhookTimeoutMs: 2000,
      },
    },
  });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

async function session() {
  const user = await buildUser(t.db, { accounts: 1 });
  const { cookie } = await loginAs(t.app, user);
  const call = (method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      cookies: { ct_sid: cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return { userId: user.user.id, cookie, call };
}
type Session = Awaited<ReturnType<typeof session>>;

async function pin(bid: number, symbol = SYMBOL) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/test/market/quote',
    payload: { symbol, bid, ask: Math.round((bid + 0.5) * 10) / 10 },
  });
  expect(res.statusCode).toBe(200);
}

async function create(s: Session, body: Record<string, unknown>): Promise<Alert> {
  const res = await s.call('POST', '/api/alerts', { symbol_id: SYMBOL, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Alert>();
}

async function logOf(s: Session): Promise<AlertLog> {
  const res = await s.call('GET', '/api/alerts/log');
  expect(res.statusCode).toBe(200);
  return res.json<AlertLog>();
}

const firesOf = async (s: Session, id: number) =>
  (await logOf(s)).items.filter((e) => e.alert_id === id);

describe('price alerts', () => {
  it('fires once when the price crosses its level, not when it only touches it', async () => {
    const s = await session();
    const events: unknown[] = [];
    const stop = t.app.services.broker.listen(({ channel, data }) => {
      if (channel === `alerts:${s.userId}`) events.push(data);
    });
    await pin(50_000);
    const alert = await create(s, { kind: 'price', condition: 'crossing_up', level: 50_100 });
    expect(alert).toMatchObject({ status: 'active', fired_count: 0, frequency: 'once' });

    await pin(50_100); // touches the level from below
    await pin(50_099.9);
    await pin(50_100);
    expect(await firesOf(s, alert.id)).toEqual([]);

    await pin(50_100.5); // through it
    await pin(50_000);
    await pin(50_200);
    const fires = await firesOf(s, alert.id);
    expect(fires).toMatchObject([{ price: 50_100.5, symbol_id: SYMBOL, condition: 'crossing_up' }]);
    expect(fires[0]?.message).toBe(`${SYMBOL}: alert ${alert.id} fired at 50100.5`);
    const [listed] = (await s.call('GET', '/api/alerts')).json<{ alerts: Alert[] }>().alerts;
    expect(listed).toMatchObject({ id: alert.id, status: 'fired', fired_count: 1 });

    // the user's channel was told, once, with the alert and its log entry
    stop();
    expect(events).toHaveLength(1);
    expect(alertEventSchema.parse(events[0])).toMatchObject({
      type: 'alert_fired',
      alert: { id: alert.id, status: 'fired' },
      entry: { price: 50_100.5 },
    });

    // and the user's notifications hold it, once
    const alertNotes = async () =>
      (await s.call('GET', '/api/notifications'))
        .json<{ items: { kind: string; params: Record<string, unknown> }[] }>()
        .items.filter((n) => n.kind === 'alert_fired');
    await expect.poll(alertNotes).toHaveLength(1);
    expect((await alertNotes())[0]?.params).toMatchObject({
      alert: String(alert.id),
      symbol: SYMBOL,
      price: '50100.5',
    });
  });

  it('a touch from above and a return above is no crossing down; going through is', async () => {
    const s = await session();
    await pin(60_000);
    const alert = await create(s, {
      kind: 'price',
      condition: 'crossing_down',
      level: 59_900,
      frequency: 'every_time',
      message: '{{symbol}} down through 59900 at {{price}} (#{{alert}})',
    });
    await pin(59_900);
    await pin(59_950);
    await pin(59_900);
    await pin(60_100);
    expect(await firesOf(s, alert.id)).toEqual([]);
    await pin(59_899);
    await pin(60_000);
    await pin(59_800);
    const fires = await firesOf(s, alert.id);
    expect(fires.map((f) => f.price)).toEqual([59_800, 59_899]);
    expect(fires[1]?.message).toBe(`${SYMBOL} down through 59900 at 59899 (#${alert.id})`);
  });

  it('a paused alert does not fire; resumed, it is armed from the price then', async () => {
    const s = await session();
    await pin(40_000);
    const alert = await create(s, { kind: 'price', condition: 'crossing', level: 40_050 });
    const paused = await s.call('PATCH', `/api/alerts/${alert.id}`, { status: 'paused' });
    expect(paused.json()).toMatchObject({ status: 'paused' });
    await pin(40_100);
    await pin(40_000);
    expect(await firesOf(s, alert.id)).toEqual([]);
    await s.call('PATCH', `/api/alerts/${alert.id}`, { status: 'active', level: 40_020 });
    await pin(40_030);
    expect((await firesOf(s, alert.id)).map((f) => f.price)).toEqual([40_030]);
  });

  it('a channel alert fires on entering, not on an edge', async () => {
    const s = await session();
    await pin(30_000);
    const alert = await create(s, {
      kind: 'channel',
      condition: 'entering',
      lower: 30_100,
      upper: 30_200,
    });
    await pin(30_100);
    expect(await firesOf(s, alert.id)).toEqual([]);
    await pin(30_150);
    expect((await firesOf(s, alert.id)).map((f) => f.price)).toEqual([30_150]);
  });

  it("a tick's fires are written in one transaction, each still once", async () => {
    const s = await session();
    await pin(20_000);
    const made = [
      await create(s, { kind: 'price', condition: 'crossing_up', level: 20_050 }),
      await create(s, {
        kind: 'price',
        condition: 'crossing',
        level: 20_060,
        frequency: 'every_time',
      }),
      await create(s, { kind: 'channel', condition: 'entering', lower: 20_070, upper: 20_200 }),
    ];
    const db = t.app.services.alerts.context.db;
    const transaction = vi.spyOn(db, 'transaction');
    const transactions = await pin(20_100).then(
      () => transaction.mock.calls.length,
      (error: unknown) => error,
    );
    transaction.mockRestore();
    expect(transactions).toBe(1);
    for (const alert of made) {
      expect((await firesOf(s, alert.id)).map((f) => f.price)).toEqual([20_100]);
    }
    // the same price again crosses nothing
    await pin(20_100);
    for (const alert of made) expect(await firesOf(s, alert.id)).toHaveLength(1);
  });
});

describe('a trend-line alert', () => {
  it('fires where the line is at the time of the tick', async () => {
    const s = await session();
    const nowS = Math.floor(t.clock.now() / 1000);
    const drawing = await s.call('POST', '/api/charts/drawings', {
      symbol: SYMBOL,
      kind: 'trend',
      points: [
        { time: nowS - 3600, price: 70_000 },
        { time: nowS, price: 70_100 },
      ],
    });
    expect(drawing.statusCode, drawing.body).toBe(201);
    await pin(70_050); // above the first point, below the line now (70100)
    const alert = await create(s, {
      kind: 'drawing',
      condition: 'crossing_up',
      drawing_id: drawing.json<{ id: number }>().id,
      frequency: 'every_time',
    });
    await pin(70_099.9);
    expect(await firesOf(s, alert.id)).toEqual([]);
    await pin(70_100.1);
    expect((await firesOf(s, alert.id)).map((f) => f.price)).toEqual([70_100.1]);

    // an hour later the line is at 70200: 70150 is below it, 70200.5 crosses it again
    t.clock.advance(3600_000);
    await pin(70_150);
    expect(await firesOf(s, alert.id)).toHaveLength(1);
    await pin(70_200.5);
    expect((await firesOf(s, alert.id)).map((f) => f.price)).toEqual([70_200.5, 70_100.1]);
  });
});

describe('an indicator alert', () => {
  it('fires at the bar close where the indicator crosses its threshold, not before', async () => {
    const s = await session();
    const symbol = 'ETHUSDT';
    const { market, feed, alerts } = t.app.services;
    const start = bucketStart('1m', t.clock.now()) + 60_000;
    t.clock.set(start + 30_000); // inside the bar that will close
    const closeAt = start + 60_000;
    // what the chart would show: SMA(3) of the bars up to the closing one, as they will close
    const bars = market.bars(symbol, '1m', closeAt, 300, closeAt + 1000);
    const sma = indicatorSeries('sma', { period: 3 }, bars).map((v) => v.value as number);
    const [before, last] = sma.slice(-2) as [number, number];
    expect(before).not.toBe(last);
    const alert = await create(s, {
      symbol_id: symbol,
      kind: 'indicator',
      condition: last > before ? 'crossing_up' : 'crossing_down',
      indicator: { line: { kind: 'sma', params: { period: 3 } }, threshold: (before + last) / 2 },
      period: '1m',
    });
    feed.pollSymbol(symbol);
    t.clock.set(start + 50_000);
    feed.pollSymbol(symbol);
    await alerts.engine.whenIdle();
    expect(await firesOf(s, alert.id)).toEqual([]);

    t.clock.set(closeAt + 500); // the first tick of the next bar closes it
    feed.pollSymbol(symbol);
    await alerts.engine.whenIdle();
    const fires = await firesOf(s, alert.id);
    expect(fires).toHaveLength(1);
    expect(fires[0]).toMatchObject({ time: closeAt / 1000, price: bars.at(-1)?.close });
  });
});

describe('webhooks', () => {
  type Received = { body: string; signature: string | undefined };
  let receiver: http.Server;
  let port = 0;
  const received: Received[] = [];
  const answers: number[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ body, signature: req.headers['x-signature'] as string | undefined });
        res.statusCode = answers.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('reaches the receiver signed with the user secret, again after a 500', async () => {
    const s = await session();
    const rotated = await s.call('POST', '/api/alerts/webhook-secret');
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json<{ webhook_secret: string }>().webhook_secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await pin(20_000);
    const alert = await create(s, {
      kind: 'price',
      condition: 'crossing_up',
      level: 20_010,
      message: 'buy {{symbol}}',
      webhook_url: `http://127.0.0.1:${port}/hook`,
    });
    answers.push(500);
    await pin(20_020);
    await t.app.services.alerts.engine.deliveries.whenDone();

    expect(received).toHaveLength(2);
    for (const r of received) {
      const expected = createHmac('sha256', secret).update(r.body).digest('hex');
      expect(r.signature).toBe(`sha256=${expected}`);
      expect(JSON.parse(r.body)).toMatchObject({
        alert: { id: alert.id, kind: 'price', condition: 'crossing_up' },
        symbol: SYMBOL,
        price: 20_020,
        message: `buy ${SYMBOL}`,
      });
    }
    const [entry] = await firesOf(s, alert.id);
    expect(entry?.webhook).toMatchObject({
      state: 'delivered',
      attempts: [
        { status: 500, error: null },
        { status: 200, error: null },
      ],
    });
  });

  it('a URL on a private, loopback or link-local address is refused and nothing is made', async () => {
    const s = await session();
    for (const url of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.10:8080/',
      'http://[::1]:9000/',
      'http://[::ffff:10.0.0.1]/',
    ]) {
      const res = await s.call('POST', '/api/alerts', {
        symbol_id: SYMBOL,
        kind: 'price',
        condition: 'crossing',
        level: 1,
        webhook_url: url,
      });
      expect(res.statusCode, url).toBe(422);
      expect(res.json<{ detail: string }>().detail).toContain('private, loopback or link-local');
    }
    expect((await s.call('GET', '/api/alerts')).json()).toEqual({ alerts: [] });
  });

  it('the address is checked when the call is made, and the operator may allow ranges', async () => {
    const none = parseWebhookAllow([]);
    const rebinding = () => Promise.resolve([{ address: '10.0.0.5', family: 4 }]);
    await expect(resolveWebhookTarget('https://hooks.example/x', none, rebinding)).rejects.toThrow(
      WebhookRefusedError,
    );
    const allowed = parseWebhookAllow(['10.0.0.0/8']);
    await expect(
      resolveWebhookTarget('https://hooks.example/x', allowed, rebinding),
    ).resolves.toMatchObject({ address: '10.0.0.5' });
    const byHost = parseWebhookAllow(['hooks.example']);
    await expect(
      resolveWebhookTarget('https://hooks.example/x', byHost, rebinding),
    ).resolves.toMatchObject({ address: '10.0.0.5' });
    const publicAddress = () => Promise.resolve([{ address: '93.184.215.14', family: 4 }]);
    await expect(
      resolveWebhookTarget('https://hooks.example/x', none, publicAddress),
    ).resolves.toMatchObject({ address: '93.184.215.14' });
  });
});

describe('the log query', () => {
  it.each([
    ['?skip=-1', 'skip: skip must be at least 0'],
    ['?skip=1000000001', 'skip: skip must be at most 1000000000'],
    ['?skip=1.5', 'skip: skip must be an integer'],
    ['?limit=0', 'limit: limit must be at least 1'],
  ])('%s answers 422 with what is wrong', async (query, detail) => {
    const s = await session();
    const res = await s.call('GET', `/api/alerts/log${query}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ detail });
  });
});

describe('per user', () => {
  it('another user cannot see, change, delete or subscribe to the alerts', async () => {
    const a = await session();
    const b = await session();
    const alert = await create(a, { kind: 'price', condition: 'crossing', level: 123 });
    expect((await b.call('GET', '/api/alerts')).json()).toEqual({ alerts: [] });
    expect((await b.call('PATCH', `/api/alerts/${alert.id}`, { level: 5 })).statusCode).toBe(404);
    expect((await b.call('DELETE', `/api/alerts/${alert.id}`)).statusCode).toBe(404);
    expect((await b.call('GET', '/api/alerts/log')).json()).toEqual({ items: [], total: 0 });
    const token = (await b.call('GET', '/api/alerts/live-token')).json<{ channel: string }>();
    expect(token.channel).toBe(`alerts:${b.userId}`);
    const [mine] = (await a.call('GET', '/api/alerts')).json<{ alerts: Alert[] }>().alerts;
    expect(mine).toMatchObject({ id: alert.id, level: 123 });
    expect((await a.call('DELETE', `/api/alerts/${alert.id}`)).json()).toEqual({
      deleted: alert.id,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/alerts' })).statusCode).toBe(401);
  });

  it('bad bodies create nothing; a user holds a bounded number of alerts', async () => {
    const s = await session();
    const bad: unknown[] = [
      {},
      { symbol_id: SYMBOL, kind: 'price', condition: 'crossing' },
      { symbol_id: SYMBOL, kind: 'price', condition: 'entering', level: 1 },
      { symbol_id: 'NOPE', kind: 'price', condition: 'crossing', level: 1 },
      { symbol_id: SYMBOL, kind: 'channel', condition: 'exiting', lower: 5, upper: 1 },
      { symbol_id: SYMBOL, kind: 'drawing', condition: 'crossing', drawing_id: 999_999 },
      { symbol_id: SYMBOL, kind: 'indicator', condition: 'crossing_up', indicator: {} },
      { symbol_id: SYMBOL, kind: 'price', condition: 'crossing', level: 1, frequency: 'often' },
      { symbol_id: SYMBOL, kind: 'price', condition: 'crossing', level: 1, webhook_url: 'x' },
      { symbol_id: SYMBOL, kind: 'price', condition: 'crossing', level: 'abc' },
      { symbol_id: SYMBOL, kind: 'price', condition: 'crossing', level: 1, extra: true },
      [1, 2],
    ];
    for (const body of bad) {
      const res = await s.call('POST', '/api/alerts', body);
      expect([400, 422], JSON.stringify(body)).toContain(res.statusCode);
      expect(typeof res.json<{ detail: unknown }>().detail).toBe('string');
    }
    expect((await s.call('GET', '/api/alerts')).json()).toEqual({ alerts: [] });
    expect((await s.call('PATCH', '/api/alerts/abc', { level: 1 })).statusCode).toBe(404);

    for (let i = 0; i < 12; i += 1) {
      await create(s, { kind: 'price', condition: 'crossing', level: 1000 + i });
    }
    const over = await s.call('POST', '/api/alerts', {
      symbol_id: SYMBOL,
      kind: 'price',
      condition: 'crossing',
      level: 1,
    });
    expect(over.statusCode).toBe(422);
    expect(over.json<{ detail: string }>().detail).toBe('At most 12 alerts: delete some first');
  });
});
