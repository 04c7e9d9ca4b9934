import {
  accountEventSchema,
  type AccountEvent,
  type PendingView,
  type SimQuote,
  type User,
} from '@ct/domain';
import type { LightMyRequestResponse } from 'fastify';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { openPostgres } from '../db/connect.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { startPostgres } from './cluster.ts';
import { buildUser, loginAs, type BuiltUser } from './factories.ts';
import {
  createClock,
  openTestDatabase,
  testConfig,
  type TestClock,
  type TestDatabase,
} from './helpers.ts';
import { MarketData } from '../modules/market/market-data.ts';
import type { TriggerEngine } from '../modules/trading/engine.ts';

/**
 * Market data whose scripted symbols quote exactly what a test says (and open or close when
 * it says); the feed polls only those, so a test drives ticks and triggers
 * deterministically. A quote set (or a market reopened) is published at once, the way the
 * test-only feed control pins one, since orders fill at the published quote. Other symbols
 * keep their simulated prices for direct calls.
 */
export class ScriptedMarket extends MarketData {
  private readonly scripted = new Map<string, { bid: number; ask: number; trading: boolean }>();
  /** Publishes a symbol's quote now (the app's feed, once it is built). */
  publish: (symbol: string) => void = () => undefined;

  constructor(seed = 1) {
    super(seed);
  }

  /** Sets the symbol's quote (and opens its market), and publishes it. */
  setQuote(symbol: string, bid: number, ask: number): void {
    this.scripted.set(symbol, { bid, ask, trading: true });
    this.publish(symbol);
  }

  /** Closes (or reopens) the scripted symbol's market; its last quote stays. */
  setTrading(symbol: string, trading: boolean): void {
    const s = this.scripted.get(symbol);
    if (!s) throw new Error(`${symbol} is not scripted`);
    s.trading = trading;
    this.publish(symbol);
  }

  override symbols(): string[] {
    return [...this.scripted.keys()];
  }

  override isTrading(symbol: string, now: number): boolean {
    const s = this.scripted.get(symbol);
    return s ? s.trading : super.isTrading(symbol, now);
  }

  override quoteAt(symbol: string, now: number): SimQuote | null {
    const s = this.scripted.get(symbol);
    if (!s) return super.quoteAt(symbol, now);
    return s.trading ? { time: now, bid: s.bid, ask: s.ask, size: 1 } : null;
  }

  override lastQuoteAt(symbol: string, now: number): SimQuote | null {
    const s = this.scripted.get(symbol);
    return s ? { time: now, bid: s.bid, ask: s.ask, size: 1 } : super.lastQuoteAt(symbol, now);
  }
}

export type TradingTestApp = TestDatabase & {
  app: Awaited<ReturnType<typeof buildApp>>;
  clock: TestClock;
  market: ScriptedMarket;
  engine: TriggerEngine;
  config: Config;
  /** Moves the clock 1 s, sets the quote, lets the feed publish it and the engine act on it. */
  tick(symbol: string, bid: number, ask: number): Promise<void>;
};

/**
 * An app on a private copy of the migrated database, with a hand-moved clock (Monday
 * 2026-01-05 09:00 UTC: FX, metals and crypto trade, US shares do not) and scripted quotes
 * (USDJPY 150 / EURUSD 1.1 for conversions, plus whatever the test sets).
 */
export async function createTradingTestApp(
  open: () => Promise<TestDatabase> = openTestDatabase,
): Promise<TradingTestApp> {
  const testDb = await open();
  const clock = createClock();
  const market = new ScriptedMarket();
  market.setQuote('USDJPY', 149.99, 150.01);
  market.setQuote('EURUSD', 1.09995, 1.10005);
  const config = testConfig();
  const app = await buildApp({ db: testDb.db, config, now: clock.now, market });
  market.publish = (symbol) => app.services.feed.pollSymbol(symbol);
  app.services.feed.poll();
  const engine = app.services.trading.engine;
  return {
    ...testDb,
    app,
    clock,
    market,
    engine,
    config,
    async tick(symbol, bid, ask) {
      clock.advance(1000);
      market.setQuote(symbol, bid, ask);
      app.services.feed.poll();
      await engine.whenIdle();
    },
    close: async () => {
      await app.close();
      await testDb.close();
    },
  };
}

/**
 * A fresh migrated database on PostgreSQL (TEST_DATABASE_URL's server, else a throwaway one:
 * startPostgres) for createTradingTestApp: the app's statements on the other driver.
 */
export async function openPostgresTestDatabase(): Promise<TestDatabase> {
  const started = performance.now();
  const server = await startPostgres();
  const database = await openPostgres(server.url, 4);
  await migrateDatabase(database);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-server-test-'));
  return {
    database,
    db: database.db,
    dataDir,
    openedInMs: performance.now() - started,
    close: async () => {
      await database.close();
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers the hooks of a test file that shares one trading app: built before all its tests
 * (and handed to `ready`), closed after them, and XAUUSD quoting 2000 / 2000.5 before each
 * test. With `accountEvents`, the returned list holds every account channel's publication
 * (checked by its schema) since the test began; a test empties it with `events.length = 0`.
 */
export function useTradingTestApp(
  ready: (t: TradingTestApp) => void,
  options: { accountEvents?: boolean; open?: () => Promise<TestDatabase> } = {},
): AccountEvent[] {
  const events: AccountEvent[] = [];
  let t: TradingTestApp | undefined;
  beforeAll(async () => {
    t = await createTradingTestApp(options.open);
    if (options.accountEvents) {
      t.app.services.broker.listen(({ channel, data }) => {
        if (channel.startsWith('account:')) events.push(accountEventSchema.parse(data));
      });
    }
    ready(t);
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    events.length = 0;
    t?.market.setQuote('XAUUSD', 2000, 2000.5);
  });
  return events;
}

export type TraderSession = {
  user: BuiltUser;
  cookie: string;
  login: User;
  uuid: string;
  token: string;
  /** Credentials of the first account, to spread into a body or query. */
  creds: { uuid: string; token: string };
};

/** A fresh user logged in; `uuid`/`token` are its first (level 1, 100,000 USD) account. */
export async function traderSession(t: TradingTestApp, accounts = 1): Promise<TraderSession> {
  const user = await buildUser(t.db, { accounts });
  const { cookie, user: login } = await loginAs(t.app, user);
  const first = login.traders[0];
  if (!first) throw new Error('user without trading account');
  return {
    user,
    cookie,
    login,
    uuid: first.uuid,
    token: first.token,
    creds: { uuid: first.uuid, token: first.token },
  };
}

export type Answer<T = Record<string, unknown>> = {
  code: number;
  msg: string;
  data: T;
  success?: boolean;
  message?: string;
};

/** POSTs a JSON body with the session cookie. */
export function post(
  t: TradingTestApp,
  s: Pick<TraderSession, 'cookie'>,
  url: string,
  payload: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, cookies: { ct_sid: s.cookie }, payload });
}

/** GETs with the session cookie and a query. */
export function get(
  t: TradingTestApp,
  s: Pick<TraderSession, 'cookie'>,
  url: string,
  query: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, cookies: { ct_sid: s.cookie }, query });
}

/** What the order helpers place unless a test's body says else: a buy of 0.5 lot XAUUSD. */
const DEFAULT_ORDER = { symbol: 'XAUUSD', cmd: 1, volume: 0.5 };

/** Places a market order on the first account: `DEFAULT_ORDER` with `body` over it. */
export function placeOrder(
  t: TradingTestApp,
  s: TraderSession,
  body: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  return post(t, s, '/trading/order/open', { ...s.creds, ...DEFAULT_ORDER, ...body });
}

/** Places a pending order on the first account: a `DEFAULT_ORDER` limit at 1990, `body` over it. */
export function placePending(
  t: TradingTestApp,
  s: TraderSession,
  body: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  const payload = { ...s.creds, ...DEFAULT_ORDER, pendPrice: 1990, ...body };
  return post(t, s, '/trading/order/pending/add', payload);
}

/** The first account's working pending orders, as GET /trading/order/pending lists them. */
export async function listPendings(t: TradingTestApp, s: TraderSession): Promise<PendingView[]> {
  return (await get(t, s, '/trading/order/pending', s.creds)).json<
    Answer<{ pendings: PendingView[] }>
  >().data.pendings;
}
