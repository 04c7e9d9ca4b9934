import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createClock, createTestApp, openTestDatabase, testConfig } from '../../test/helpers.ts';
import {
  createTradingTestApp,
  post,
  traderSession,
  type TradingTestApp,
} from '../../test/trading.ts';
import { registerClusterProbes } from './cluster-probes.ts';
import { Readiness } from './readiness.ts';

let t: TradingTestApp;

beforeAll(async () => {
  t = await createTradingTestApp();
  t.market.setQuote('XAUUSD', 2000, 2000.5);
  t.app.services.feed.poll();
});
afterAll(() => t.close());

/** The value of a metric line (`name{labels} value`) in a Prometheus text answer. */
function metricValue(text: string, line: string): number | null {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? null : Number(found.slice(line.length + 1));
}

describe('GET /healthz and GET /readyz', () => {
  it('/healthz answers 200 without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('/readyz is 503 while the sandbox has not been checked, naming the failed check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'not ready',
      detail: 'Not ready (sandbox: still being checked)',
      checks: { database: { ok: true }, sandbox: { ok: false, detail: 'still being checked' } },
    });
  });

  it("/readyz is 200 once every check passes, and a registered probe (the feed's) counts", async () => {
    const { readiness } = t.app.operations;
    const restore = readiness.register('sandbox', () => null);
    let leader = false;
    const unregister = readiness.register('feed', () => (leader ? null : 'no feed leader yet'));
    try {
      const waiting = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(waiting.statusCode).toBe(503);
      expect(waiting.json().detail).toBe('Not ready (feed: no feed leader yet)');
      leader = true;
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { database: { ok: true }, sandbox: { ok: true }, feed: { ok: true } },
      });
    } finally {
      unregister();
      restore();
    }
  });

  it('/readyz says the database does not answer when it is gone (and never 500s)', async () => {
    const testDb = await openTestDatabase();
    const app = await buildApp({ db: testDb.db, config: testConfig(), now: createClock().now });
    try {
      await testDb.database.close();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.database).toEqual({ ok: false, detail: 'does not answer' });
    } finally {
      await app.close();
    }
  });

  it("the cluster's checks: Redis when it is configured, and a known feed leader", async () => {
    const readiness = new Readiness();
    const cluster = { redis: {}, redisReady: false, feedLeader: async () => ({ known: false }) };
    registerClusterProbes(readiness, cluster);
    expect(await readiness.check()).toEqual({
      ready: false,
      checks: {
        redis: { ok: false, detail: 'not connected' },
        feed: { ok: false, detail: 'no active feed (the election has no leader)' },
      },
    });
    cluster.redisReady = true;
    cluster.feedLeader = async () => ({ known: true });
    expect((await readiness.check()).ready).toBe(true);
    const single = new Readiness();
    registerClusterProbes(single, { ...cluster, redis: null });
    expect(single.names()).toEqual(['feed']);
  });

  it('a probe that hangs or throws is a failed check, within the timeout', async () => {
    const readiness = new Readiness(50);
    readiness.register('redis', () => new Promise<null>(() => undefined));
    readiness.register('broken', () => {
      throw new Error('boom');
    });
    const started = performance.now();
    const report = await readiness.check();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(report).toEqual({
      ready: false,
      checks: {
        redis: { ok: false, detail: 'no answer within 50 ms' },
        broken: { ok: false, detail: 'boom' },
      },
    });
  });
});

describe('GET /metrics', () => {
  it('answers Prometheus text: latency by route pattern, orders, live, backtests, AI tasks, event-loop lag', async () => {
    const s = await traderSession(t);
    const before = await t.app.inject({ method: 'GET', url: '/metrics' });
    const ordersBefore = metricValue(before.body, 'ct_orders_total') ?? Number.NaN;
    const placed = await post(t, s, '/trading/order/open', {
      ...s.creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 0.1,
      channel: 1,
      device: 1,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/backtest/runs/not-a-run-id' });
    const session = t.app.services.hub.open({
      send: () => undefined,
      close: () => undefined,
      bufferedAmount: () => 0,
    });

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    session.closed();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(metricValue(text, 'ct_orders_total')).toBe(ordersBefore + 1);
    // the route's pattern, not the URL that was asked for
    expect(text).toMatch(
      /ct_http_request_duration_seconds_count\{method="GET",route="\/api\/backtest\/runs\/:runId",status_code="401"\} 1/,
    );
    expect(text).not.toContain('not-a-run-id');
    expect(
      metricValue(
        text,
        'ct_http_request_duration_seconds_count{method="POST",route="/trading/order/open",status_code="200"}',
      ),
    ).toBe(1);
    expect(metricValue(text, 'ct_live_connections')).toBe(1);
    expect(metricValue(text, 'ct_live_subscriptions')).toBe(0);
    expect(metricValue(text, 'ct_live_publications_total')).toBeGreaterThan(0);
    expect(metricValue(text, 'ct_backtests_running')).toBe(0);
    expect(metricValue(text, 'ct_backtests_queued')).toBe(0);
    expect(metricValue(text, 'ct_ai_tasks{status="PENDING"}')).toBe(0);
    expect(metricValue(text, 'ct_ai_tasks{status="COMPLETED"}')).toBe(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds ');
    expect(text).toContain('process_resident_memory_bytes ');
  });

  it('without METRICS_TOKEN it answers direct loopback requests only', async () => {
    const remote = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '10.1.2.3',
    });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().detail).toMatch(/METRICS_TOKEN/);
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
    expect(proxied.body).not.toContain('ct_orders_total');
  });

  it('with METRICS_TOKEN it wants the bearer token, from anywhere', async () => {
    const token = 'a-metrics-token-of-some-length';
    const app = await createTestApp({ config: { metricsToken: token } });
    try {
      const missing = await app.app.inject({ method: 'GET', url: '/metrics' });
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer');
      const wrong = await app.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer not-the-token' },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await app.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('ct_orders_total');
    } finally {
      await app.close();
    }
  });
});

describe('request ids', () => {
  it("echoes a proxy's x-request-id, replaces one that is no id, and makes one when absent", async () => {
    const given = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'nginx-4f1c2a' },
    });
    expect(given.headers['x-request-id']).toBe('nginx-4f1c2a');
    const hostile = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'a b\u0007"}' },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const made = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.headers['x-request-id']).not.toBe(hostile.headers['x-request-id']);
  });

  it('every request line and error line of the JSON log carries the request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString().split('\n').filter(Boolean)) {
          lines.push(JSON.parse(text) as Record<string, unknown>);
        }
        done();
      },
    });
    const testDb = await openTestDatabase();
    const app = await buildApp({
      db: testDb.db,
      config: testConfig({ logRequests: true }),
      now: createClock().now,
      logger: { level: 'info', stream },
    });
    app.get('/api/test-only/boom', async () => {
      throw new Error('an unexpected failure');
    });
    try {
      const ok = await app.inject({
        method: 'GET',
        url: '/trading/symbol/list?channel=1&device=2&token=secret-in-query',
        headers: { 'x-request-id': 'req-ok-1' },
      });
      expect(ok.statusCode).toBe(200);
      const boom = await app.inject({
        method: 'GET',
        url: '/api/test-only/boom',
        headers: { 'x-request-id': 'req-boom-2' },
      });
      expect(boom.statusCode).toBe(500);
      expect(boom.headers['x-request-id']).toBe('req-boom-2');

      const okLine = lines.find((l) => l.reqId === 'req-ok-1' && l.msg === 'request');
      expect(okLine).toMatchObject({
        level: 30,
        method: 'GET',
        route: '/trading/symbol/list',
        statusCode: 200,
      });
      expect(typeof okLine?.ms).toBe('number');
      // the raw URL (which may hold a trader token) is not logged
      expect(JSON.stringify(lines)).not.toContain('secret-in-query');
      const errorLine = lines.find((l) => l.level === 50);
      expect(errorLine).toMatchObject({ reqId: 'req-boom-2', msg: 'unexpected error' });
      expect(lines.find((l) => l.reqId === 'req-boom-2' && l.msg === 'request')).toMatchObject({
        statusCode: 500,
      });
    } finally {
      await app.close();
      await testDb.close();
    }
  });
});
