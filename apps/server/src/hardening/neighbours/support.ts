import path from 'node:path';
import type { User } from '@ct/domain';
import { afterAll, beforeAll, describe } from 'vitest';
import { openPglite } from '../../db/connect.ts';
import { createUser, planAccounts } from '../../modules/users/service.ts';
import { serverProcesses, type ServerProcesses } from '../../test/server-process.ts';

/*
 * The noisy-neighbour suite: one user runs a heavy operation on the real server (its own
 * process, PGlite, as `npm start` runs it) while another user keeps making small calls. The
 * tests assert the order of events, never a time: the neighbour's rounds of calls go on being
 * answered while the heavy call is still running. A server whose event loop the heavy call
 * holds answers at most the round that was already in flight before it, then nothing until
 * the heavy call ends.
 */

export const NEIGHBOUR_PASSWORD = 'neighbour-pass-1';

export type Login = { email: string; cookie: string; uuid: string; token: string };

export type NeighbourServer = {
  url: string;
  processes: ServerProcesses;
  /** The user who runs the heavy operation. */
  heavy: Login;
  /** The other user, whose calls must not wait for it. */
  neighbour: Login;
};

/**
 * Starts the product as a process on a fresh copy of the migrated database, with two users
 * (created in the database before the start) logged in. `env` adds settings.
 */
export async function startNeighbourServer(
  name: string,
  env: Record<string, string> = {},
): Promise<NeighbourServer> {
  const processes = serverProcesses(`neighbours-${name}`);
  const database = await openPglite(path.join(processes.dataDir, 'pglite'));
  try {
    for (const who of ['heavy', 'neighbour']) {
      await createUser(
        database.db,
        {
          email: `${who}@example.com`,
          password: NEIGHBOUR_PASSWORD,
          nickName: who,
          auditStatus: 1,
          accounts: planAccounts(1, who),
        },
        Date.now(),
        { scrypt: { N: 1024, r: 8, p: 1 } },
      );
    }
  } finally {
    await database.close();
  }
  const { url } = await processes.start(env);
  return {
    url,
    processes,
    heavy: await login(url, 'heavy@example.com'),
    neighbour: await login(url, 'neighbour@example.com'),
  };
}

export async function login(url: string, email: string): Promise<Login> {
  const res = await fetch(`${url}/user/api/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      channel: 1,
      login_type: 2,
      user_name: email,
      password: NEIGHBOUR_PASSWORD,
      device: 1,
    }),
  });
  const cookie = /ct_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  const trader = ((await res.json()) as { data: User[] }).data[0]?.traders[0];
  if (!cookie || !trader) throw new Error(`login of ${email} failed (${res.status})`);
  return { email, cookie, uuid: trader.uuid, token: trader.token };
}

/** A call with the user's session cookie; JSON body when `body` is given. */
export function call(url: string, who: Login, route: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      cookie: `ct_sid=${who.cookie}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Twenty daily bars in the backtest body's shape, for a small neighbour backtest. */
export function smallBars(count = 20): Record<string, number | string>[] {
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(Date.UTC(2024, 0, 1 + i));
    const time = `${day.getUTCFullYear()}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCDate()).padStart(2, '0')} 00:00:00`;
    const close = 100 + Math.sin(i / 3) * 5;
    return { Time: time, Open: close, High: close + 1, Low: close - 1, Close: close, Volume: 1000 };
  });
}

const SMALL_STRATEGY = `def main(data_array):\n    return []\n`;

/**
 * One round of the neighbour's calls, one after the other: health, a market order and its
 * close (so that many rounds never run out of margin), the newest bars, and with `backtest`
 * a small backtest. Throws when one is not answered as usual.
 */
export async function neighbourRound(
  url: string,
  who: Login,
  options: { backtest?: boolean } = {},
): Promise<void> {
  const health = await fetch(`${url}/api/health`);
  if (health.status !== 200) throw new Error(`health answered ${health.status}`);
  const creds = { uuid: who.uuid, token: who.token, channel: 1, device: 1 };
  const order = await call(url, who, '/trading/order/open', {
    ...creds,
    symbol: 'BTCUSDT',
    cmd: 1,
    volume: 0.01,
  });
  const orderBody = (await order.json()) as {
    code: number;
    data?: { order?: { orderId?: string } } | null;
  };
  const orderId = orderBody.data?.order?.orderId;
  if (order.status !== 200 || orderBody.code !== 0 || !orderId) {
    throw new Error(`order answered ${order.status} ${JSON.stringify(orderBody)}`);
  }
  const close = await call(url, who, '/trading/order/close', { ...creds, orderId, volume: 0.01 });
  const closeBody = (await close.json()) as { code: number };
  if (close.status !== 200 || closeBody.code !== 0) {
    throw new Error(`close answered ${close.status} ${JSON.stringify(closeBody)}`);
  }
  const bars = await call(url, who, '/trading/kline/lists?symbol=BTCUSDT&cycel=1m&limit=100');
  if (bars.status !== 200) throw new Error(`klines answered ${bars.status}`);
  await bars.arrayBuffer();
  if (options.backtest) {
    const run = await call(url, who, '/api/backtest/code', {
      code: SMALL_STRATEGY,
      historical_data: smallBars(),
    });
    const answer = (await run.json()) as { error: string | null };
    if (run.status !== 200 || answer.error !== null) {
      throw new Error(`backtest answered ${run.status} ${JSON.stringify(answer)}`);
    }
  }
}

export type NeighbourOutcome<T> = {
  /** What the heavy call resolved with. */
  heavy: T;
  /** Neighbour rounds completed before the heavy call ended, in order. */
  roundsBeforeHeavyEnded: number;
  /** The order of events: 'round' per neighbour round, 'heavy' when the heavy call ended. */
  events: string[];
};

/**
 * Starts `heavy`, waits for `started` (the heavy call is under way: e.g. its request has been
 * sent, or the server reports it running), then runs neighbour rounds back to back until the
 * heavy call ends. A round in flight when it ends is awaited too (its failure fails the test).
 */
export async function whileHeavy<T>(
  heavy: () => Promise<T>,
  round: () => Promise<void>,
  started: () => Promise<void> = () => Promise.resolve(),
): Promise<NeighbourOutcome<T>> {
  const events: string[] = [];
  let ended = false;
  const heavyCall = heavy().finally(() => {
    ended = true;
    events.push('heavy');
  });
  heavyCall.catch(() => undefined);
  await started();
  let rounds = 0;
  while (!ended) {
    await round();
    events.push('round');
    if (!ended) rounds += 1;
  }
  return { heavy: await heavyCall, roundsBeforeHeavyEnded: rounds, events };
}

/** Rounds a test asks for: a blocked event loop lets at most the first one through. */
export const ROUNDS_WHILE_HEAVY = 3;

/**
 * Rounds counted between the heavy call's steps in an order of events (`NeighbourOutcome`):
 * before the first event `isStep` picks, then after each one.
 */
export function roundsBetweenSteps(
  events: readonly string[],
  isStep: (event: string) => boolean,
): number[] {
  const counts = [0];
  for (const event of events) {
    if (event === 'round') counts[counts.length - 1] = (counts.at(-1) ?? 0) + 1;
    else if (isStep(event)) counts.push(0);
  }
  return counts;
}

/** What the tests of a `describeNeighbour` block work with. */
export type NeighbourSuite = {
  /** The started server with its two users (read inside tests, not while declaring them). */
  readonly server: NeighbourServer;
  /** One round of the neighbour's calls on it (`neighbourRound`). */
  round(options?: { backtest?: boolean }): Promise<void>;
  /** A call of the heavy user (`call`). */
  heavyCall(route: string, body?: unknown): Promise<Response>;
};

/**
 * A block of the suite: the product started as its own process (`startNeighbourServer` with
 * `name` and `env`, the settings may be made once the file's own hooks ran) before its tests,
 * `prepare` run on it, and its process and data removed after them; `body` declares the tests.
 */
export function describeNeighbour(
  title: string,
  setup: {
    name: string;
    env?: Record<string, string> | (() => Record<string, string>);
    prepare?: (server: NeighbourServer) => Promise<void>;
  },
  body: (suite: NeighbourSuite) => void,
): void {
  let started: NeighbourServer | undefined;
  const suite: NeighbourSuite = {
    get server() {
      if (!started) throw new Error(`the ${setup.name} server has not started`);
      return started;
    },
    round: (options) => neighbourRound(suite.server.url, suite.server.neighbour, options),
    heavyCall: (route, payload) => call(suite.server.url, suite.server.heavy, route, payload),
  };
  describe(title, () => {
    beforeAll(async () => {
      const env = typeof setup.env === 'function' ? setup.env() : setup.env;
      started = await startNeighbourServer(setup.name, env);
      await setup.prepare?.(started);
    }, 120_000);
    afterAll(() => started?.processes.cleanUp());
    body(suite);
  });
}

/*
 * Heavy payloads of the suite's tests (the bench builds its own: it imports no apps code).
 */

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A CSV file of `rows` minute bars from 2020-01-01 (about 50 bytes a row). */
export function minuteCsv(rows: number): string {
  const lines = ['Time,Open,High,Low,Close,Volume'];
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < rows; i++) {
    const d = new Date(start + i * 60_000);
    const close = (100 + Math.sin(i / 50) * 5).toFixed(2);
    lines.push(
      `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:00,${close},${close},${close},${close},${i % 1000}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `count` minute bars from 2020-01-01 in the backtest body's shape. */
export function minuteBars(count: number): Record<string, number | string>[] {
  const start = Date.UTC(2020, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(start + i * 60_000);
    const time = `${d.getUTCFullYear()}/${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:00`;
    const close = 100 + Math.sin(i / 50) * 5;
    return { Time: time, Open: close, High: close + 1, Low: close - 1, Close: close, Volume: 10 };
  });
}

/** A strategy returning one closed trade per bar but the last: `bars - 1` records. */
export { TRADE_EVERY_BAR } from '../../test/backtest.ts';

/** A strategy that trades nothing. */
export const NO_TRADES = SMALL_STRATEGY;
