import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  accountSummarySchema,
  closeResponseSchema,
  envelopeSchema,
  openOrderResponseSchema,
  orderLogsPageSchema,
  positionSchema,
  settlesPageSchema,
  type StrategyView,
} from '@ct/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.ts';
import { DEMO_EMAIL, seedDemoUser } from '../modules/users/seed-demo.ts';
import { ScriptedMarket } from '../test/trading.ts';
import { loginAs } from '../test/factories.ts';
import { createClock, testConfig } from '../test/helpers.ts';
import { openDatabase, type Database } from './connect.ts';
import { MIGRATIONS_DIR, migrateDatabase } from './migrate.ts';

// The product on a real PostgreSQL server (DATABASE_URL), as it runs in production: the
// product's own connection, migrations and demo seed, then a user's journey over HTTP.
// `npm test` starts a throwaway server (scripts/test-postgres.sh) and sets
// TEST_DATABASE_URL; every run creates a fresh database on it and drops it afterwards.
const SERVER_URL = process.env.TEST_DATABASE_URL || undefined;
const SKIPPED =
  'TEST_DATABASE_URL is not set: start a throwaway server with ' +
  '`bash scripts/test-postgres.sh start "$(mktemp -d)"` and set it to the URL printed';

const DEMO_PASSWORD = 'demo1234';
const MIGRATIONS = z
  .object({ entries: z.array(z.unknown()) })
  .parse(JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')))
  .entries.length;
const CODE = 'def main(data_array):\n    # 均线交叉 (moving averages cross)\n    return []\n';

/** The same server's `database`; accepts the `postgresql://user@/db?host=/socket` form. */
function databaseUrl(serverUrl: string, database: string): string {
  const placeholder = 'no-host.invalid';
  const emptyHost = /^[a-z]+:\/\/[^/?#]*@\//i.test(serverUrl);
  const url = new URL(emptyHost ? serverUrl.replace('@/', `@${placeholder}/`) : serverUrl);
  url.pathname = `/${database}`;
  return emptyHost ? url.href.replace(`@${placeholder}/`, '@/') : url.href;
}

/** The product's start-up on `url` (main.ts): connect, migrate, seed the demo user. */
async function startProduct(url: string, nowMs: number) {
  const database = await openDatabase({ dataDir: '/nonexistent', databaseUrl: url });
  await migrateDatabase(database);
  const seeded = await seedDemoUser(database.db, { password: DEMO_PASSWORD, nowMs });
  return { database, seeded };
}

// the default reporter shows no notes on skipped suites
if (!SERVER_URL) console.warn(`postgres.test.ts: the journey is skipped: ${SKIPPED}`);

// These run with or without a server: the per-run database's address and a start-up that
// fails loudly instead of falling back to PGlite.
describe('the PostgreSQL connection', () => {
  it('addresses the per-run database on the same server, in host and socket form', () => {
    expect(
      databaseUrl('postgresql://ct:pw@db.example:5433/postgres?sslmode=disable', 'run_1'),
    ).toBe('postgresql://ct:pw@db.example:5433/run_1?sslmode=disable');
    expect(databaseUrl('postgresql://ct@/postgres?host=/tmp/pg', 'run_2')).toBe(
      'postgresql://ct@/run_2?host=/tmp/pg',
    );
    expect(databaseUrl('postgres://localhost', 'run_3')).toBe('postgres://localhost/run_3');
  });

  it('fails at start when DATABASE_URL names an unreachable server', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-pg-unreachable-'));
    try {
      const missing = path.join(dataDir, 'no-server');
      await expect(
        openDatabase({ dataDir, databaseUrl: `postgresql://ct@/ct?host=${missing}` }),
      ).rejects.toThrow(/ENOENT|ECONNREFUSED/);
      expect(fs.readdirSync(dataDir)).toEqual([]); // no PGlite created instead
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!SERVER_URL)('the product on a real PostgreSQL server', () => {
  const clock = createClock(); // Monday 09:00 UTC: XAUUSD trades
  const market = new ScriptedMarket();
  const name = `ct_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  let url = '';
  let admin: pg.Client | undefined;
  let database: Database | undefined;
  let app: FastifyInstance | undefined;

  /** Builds the app as main.ts does (without listening), on the current database. */
  async function start(): Promise<{ seeded: string }> {
    const started = await startProduct(url, clock.now());
    database = started.database;
    app = await buildApp({
      db: database.db,
      config: testConfig({ databaseUrl: url, demoPassword: DEMO_PASSWORD }),
      now: clock.now,
      market,
    });
    // a listening server's feed publishes at once, and a scripted quote is a tick like any
    // other (as in the trading tests): orders fill at the quote the feed published
    const built = app;
    market.publish = (symbol) => built.services.feed.pollSymbol(symbol);
    built.services.feed.poll();
    return { seeded: started.seeded };
  }

  async function stop(): Promise<void> {
    await app?.close();
    app = undefined;
    await database?.close();
    database = undefined;
  }

  beforeAll(async () => {
    if (!SERVER_URL) return;
    url = databaseUrl(SERVER_URL, name);
    admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    market.setQuote('USDJPY', 149.99, 150.01);
    market.setQuote('EURUSD', 1.09995, 1.10005);
    market.setQuote('XAUUSD', 2000, 2000.5);
  });

  afterAll(async () => {
    await stop();
    if (!admin) return;
    try {
      await admin.query(`drop database if exists "${name}"`);
    } finally {
      await admin.end();
    }
  });

  // Each step continues the previous one's story: they run in order.

  it('connects through DATABASE_URL, migrates (twice: idempotent) and seeds the demo user once', async () => {
    const first = await startProduct(url, clock.now());
    try {
      expect(first.database.kind).toBe('pg');
      expect(first.seeded).toBe('created');
      await migrateDatabase(first.database);
      expect(await seedDemoUser(first.database.db, { password: 'x', nowMs: 0 })).toBe('exists');

      const db = first.database.db;
      const server = await db.execute<{ version: string; database: string }>(
        sql`select version() as version, current_database() as database`,
      );
      expect(server.rows[0]).toMatchObject({ version: expect.stringMatching(/^PostgreSQL /) });
      expect(server.rows[0]?.database).toBe(name);
      const tables = await db.execute<{ table_name: string }>(
        sql`select table_name from information_schema.tables where table_schema = 'public'`,
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['users', 'traders', 'positions', 'settlements', 'strategies']),
      );
      const applied = await db.execute<{ count: string }>(
        sql`select count(*) as count from drizzle.__drizzle_migrations`,
      );
      expect(Number(applied.rows[0]?.count)).toBe(MIGRATIONS);
      const users = await db.execute<{ email: string }>(sql`select email from users`);
      expect(users.rows).toEqual([{ email: DEMO_EMAIL }]);
    } finally {
      await first.database.close();
    }
  });

  it('the demo user logs in, trades gold, closes the position and saves a strategy', async () => {
    expect(await start()).toEqual({ seeded: 'exists' });
    const web = app!;
    const { cookie, user } = await loginAs(web, { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(user.email).toBe(DEMO_EMAIL);
    expect(user.traders.map((tr) => tr.name)).toEqual([
      'Demo Standard',
      'Demo Professional',
      'Demo VIP',
    ]);
    const trader = user.traders[0]!;
    const creds = { uuid: trader.uuid, token: trader.token };
    const post = (path: string, payload: Record<string, unknown>) =>
      web.inject({ method: 'POST', url: path, cookies: { ct_sid: cookie }, payload });
    const get = (path: string, query: Record<string, string> = {}) =>
      web.inject({
        method: 'GET',
        url: path,
        cookies: { ct_sid: cookie },
        query: { ...creds, ...query },
      });
    const data = <T extends z.ZodType>(res: LightMyRequestResponse, schema: T): z.infer<T> => {
      expect(res.statusCode).toBe(200);
      return schema.parse(envelopeSchema(z.unknown()).parse(res.json()).data);
    };

    // a market order: buys 0.5 lot of gold at the ask
    const opened = await post('/trading/order/open', {
      ...creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 0.5,
      comment: 'on PostgreSQL',
    });
    expect(opened.statusCode).toBe(200);
    const order = openOrderResponseSchema.parse(opened.json()).data?.order;
    expect(order).toMatchObject({
      uuid: trader.uuid,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 0.5,
      price: 2000.5,
      commissionFee: 2.5,
      status: 'open',
      comment: 'on PostgreSQL',
    });
    const orderId = order!.orderId;

    const positions = data(
      await get('/trading/order/position'),
      z.object({ orders: z.array(positionSchema) }),
    );
    expect(positions.orders).toEqual([order]);

    // gold rises 9.5; the whole position is closed at the bid
    market.setQuote('XAUUSD', 2010, 2010.5);
    clock.advance(60_000);
    const closed = await post('/trading/order/close', { ...creds, orderId, volume: 0.5 });
    expect(closed.statusCode).toBe(200);
    expect(closeResponseSchema.parse(closed.json())).toMatchObject({
      code: 0,
      success: true,
      data: { order: { orderId, settledVol: 0.5, status: 'closed' }, settle: { isSettled: 2 } },
    });
    expect(
      data(await get('/trading/order/position'), z.object({ orders: z.array(z.unknown()) })),
    ).toEqual({ orders: [] });

    const settles = data(await get('/trading/order/settles'), settlesPageSchema);
    expect(settles.total).toBe(1);
    expect(settles.settles).toEqual([
      expect.objectContaining({
        orderId,
        symbol: 'XAUUSD',
        openPrice: 2000.5,
        closePrice: 2010,
        settleVolume: 0.5,
        isSettled: 2,
        settleProfit: 475, // 9.5 × 0.5 lot × 100 oz
        openCommission: 2.5,
        closeCommission: 2.5,
        closeReason: 0,
      }),
    ]);

    const logs = data(await get('/trading/order/logs'), orderLogsPageSchema);
    expect(logs.total).toBe(2);
    expect(logs.orders.map((l) => [l.actionType, l.orderStatus, l.price, l.orderId])).toEqual([
      [2, 2, 2010, orderId], // the close
      [1, 2, 2000.5, orderId], // the open
    ]);

    const summary = data(await get('/trading/account/summary'), accountSummarySchema);
    expect(summary).toMatchObject({
      startingBalance: 100_000,
      realizedPnl: 475,
      commissionPaid: 5,
      balance: 100_470,
      equity: 100_470,
      openPositions: 0,
    });

    // a strategy, saved and listed (the code keeps its non-ASCII text)
    const saved = await web.inject({
      method: 'POST',
      url: '/api/strategies/',
      cookies: { ct_sid: cookie },
      payload: { name: '黄金 Trend', code: CODE, create: true },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: '黄金 Trend', code: CODE, created: true });
    const listed = await web.inject({
      method: 'GET',
      url: '/api/strategies/',
      cookies: { ct_sid: cookie },
    });
    expect(listed.json<{ strategies: StrategyView[] }>().strategies).toEqual([
      expect.objectContaining({ name: '黄金 Trend', code: CODE }),
    ]);
  });

  it('two simultaneous closes of one position close it once', async () => {
    const web = app!;
    const { cookie, user } = await loginAs(web, { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const trader = user.traders[1]!; // Demo Professional: an account with no history yet
    const creds = { uuid: trader.uuid, token: trader.token };
    const post = (path: string, payload: Record<string, unknown>) =>
      web.inject({ method: 'POST', url: path, cookies: { ct_sid: cookie }, payload });
    const opened = await post('/trading/order/open', {
      ...creds,
      symbol: 'XAUUSD',
      cmd: 1,
      volume: 1,
    });
    const orderId = opened.json<{ data: { order: { orderId: string } } }>().data.order.orderId;
    const answers = await Promise.all(
      [1, 2].map(() => post('/trading/order/close', { ...creds, orderId, volume: 1 })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const settles = await web.inject({
      method: 'GET',
      url: '/trading/order/settles',
      cookies: { ct_sid: cookie },
      query: creds,
    });
    expect(settles.json()).toMatchObject({ data: { total: 1 } });
  });

  it('after a restart the demo user finds the history and the strategy', async () => {
    await stop();
    expect(await start()).toEqual({ seeded: 'exists' });
    const web = app!;
    const { cookie, user } = await loginAs(web, { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const trader = user.traders[0]!;
    const settles = await web.inject({
      method: 'GET',
      url: '/trading/order/settles',
      cookies: { ct_sid: cookie },
      query: { uuid: trader.uuid, token: trader.token },
    });
    expect(settles.json()).toMatchObject({
      data: { total: 1, settles: [{ settleProfit: 475, closePrice: 2010 }] },
    });
    const listed = await web.inject({
      method: 'GET',
      url: '/api/strategies/',
      cookies: { ct_sid: cookie },
    });
    expect(listed.json()).toMatchObject({ strategies: [{ name: '黄金 Trend', code: CODE }] });
  });
});
