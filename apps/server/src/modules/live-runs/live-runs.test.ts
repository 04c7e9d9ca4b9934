import {
  accountEventSchema,
  formatContractDate,
  liveRunComparisonSchema,
  liveRunEvaluationsSchema,
  liveRunListSchema,
  liveRunLogClientId,
  liveRunStartedSchema,
  orderLogSchema,
  roundTo,
  settlesPageSchema,
  type LiveRunComparison,
} from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createClock, openTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { SimulatedCrash } from './runner.ts';
import {
  LiveMarket,
  MINUTE,
  NINE,
  SYMBOL,
  api,
  buildLiveApp,
  evaluationsOf,
  openThenCloseStrategy,
  runOf,
  startRunner,
  tickAt,
  type LiveApp,
} from '../../test/live-runs.ts';

/*
 * Forward tests on paper (issue 19) against the real pipeline, database and sandbox: the
 * simulator's 1-minute bars of gold, scripted quotes at each bar's close (bid = the close,
 * ask = bid + 0.5), and a hand-moved clock that closes one bar after another.
 */

const SPREAD = 0.5;
const OPEN_DATE = formatContractDate(NINE + MINUTE); // 09:01
const CLOSE_DATE = formatContractDate(NINE + 3 * MINUTE); // 09:03
const logsPage = z.object({
  code: z.literal(0),
  data: z.object({ orders: z.array(orderLogSchema) }),
});

type Account = { cookie: string; uuid: string; token: string; userId: number };

async function account(app: LiveApp, db: TestDatabase['db']): Promise<Account> {
  const user = await buildUser(db, { accounts: 1 });
  const { cookie, user: login } = await loginAs(app, user);
  const trader = login.traders[0];
  if (!trader) throw new Error('no trading account');
  return { cookie, uuid: trader.uuid, token: trader.token, userId: user.user.id };
}

async function saveStrategy(app: LiveApp, who: Account, name: string, code: string) {
  const res = await api(app, who.cookie)('POST', '/api/strategies/', { name, code, create: true });
  expect(res.statusCode).toBe(200);
}

async function startRun(app: LiveApp, who: Account, body: Record<string, unknown>) {
  return api(app, who.cookie)('POST', '/api/live-runs', {
    uuid: who.uuid,
    token: who.token,
    symbol_id: SYMBOL,
    period: '1m',
    ...body,
  });
}

/** Moves to one second into minute `m` (09:0m:01) with the quote at the close of the bar before. */
async function closeBar(
  app: LiveApp,
  clock: ReturnType<typeof createClock>,
  market: LiveMarket,
  m: number,
) {
  const bar = market.bar(NINE + (m - 1) * MINUTE);
  await tickAt(app, clock, market, NINE + m * MINUTE + 1000, {
    bid: bar.close,
    ask: roundTo(bar.close + SPREAD, 2),
  });
}

async function settlements(app: LiveApp, who: Account) {
  const res = await app.inject({
    method: 'GET',
    url: '/trading/order/settles',
    cookies: { ct_sid: who.cookie },
    query: { uuid: who.uuid, token: who.token },
  });
  return settlesPageSchema.parse(res.json<{ data: unknown }>().data).settles;
}

async function orderLogs(app: LiveApp, who: Account) {
  const res = await app.inject({
    method: 'GET',
    url: '/trading/order/logs',
    cookies: { ct_sid: who.cookie },
    query: { uuid: who.uuid, token: who.token },
  });
  return logsPage.parse(res.json()).data.orders;
}

function newMarket(): LiveMarket {
  const market = new LiveMarket();
  market.setQuote('USDJPY', 149.99, 150.01);
  market.setQuote('EURUSD', 1.09995, 1.10005);
  return market;
}

describe('a strategy that opens on one bar and closes two bars later', () => {
  let t: TestDatabase;
  let app: LiveApp;
  const clock = createClock(NINE + 30_000);
  const market = newMarket();
  let who: Account;
  let runId: string;
  const streamed: string[] = [];
  const heard: { channel: string; data: unknown }[] = [];

  beforeAll(async () => {
    t = await openTestDatabase();
    app = await buildLiveApp(t.db, clock, market, 57_000);
    app.services.broker.listen((publication) => {
      if (publication.channel.startsWith('account:')) heard.push(publication);
    });
    who = await account(app, t.db);
    await saveStrategy(app, who, 'Open and close', openThenCloseStrategy(OPEN_DATE, CLOSE_DATE));
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('sends exactly those paper orders at the following bar closes', async () => {
    const res = await startRun(app, who, {
      strategy_name: 'Open and close',
      lots: 2,
      max_positions: 1,
    });
    expect(res.statusCode).toBe(201);
    runId = liveRunStartedSchema.parse(res.json()).id;
    expect(res.json()).toEqual({ id: runId, status: 'running' });
    // whoever watches the run's log socket gets its printed lines as they come
    app.services.backtest.logs.add(who.userId, liveRunLogClientId(runId), {
      send: (line: string) => streamed.push(line),
      close: () => undefined,
      bufferedAmount: 0,
    });
    await startRunner(app);

    for (const m of [1, 2, 3, 4, 5]) await closeBar(app, clock, market, m);

    const open = market.bar(NINE + MINUTE);
    const close = market.bar(NINE + 3 * MINUTE);
    const logs = await orderLogs(app, who);
    // newest first: the close at 09:04:01 (sell at the bid), the open at 09:02:01 (buy at the ask)
    expect(
      logs.map((l) => [l.cmd, l.actionType, l.orderStatus, l.volume, l.price, l.createdAt]),
    ).toEqual([
      [2, 2, 2, 2, close.close, (NINE + 4 * MINUTE + 1000) / 1000],
      [1, 1, 2, 2, roundTo(open.close + SPREAD, 2), (NINE + 2 * MINUTE + 1000) / 1000],
    ]);

    const evaluations = liveRunEvaluationsSchema.parse(
      (await api(app, who.cookie)('GET', `/api/live-runs/${runId}/evaluations?limit=100`)).json(),
    );
    expect(evaluations.total).toBe(5);
    // newest first: bars 09:04 … 09:00, orders only at 09:01 (open) and 09:03 (close)
    expect(evaluations.evaluations.map((e) => [e.bar_time, e.orders.map((o) => o.action)])).toEqual(
      [
        [(NINE + 4 * MINUTE) / 1000, []],
        [(NINE + 3 * MINUTE) / 1000, ['close']],
        [(NINE + 2 * MINUTE) / 1000, []],
        [(NINE + MINUTE) / 1000, ['open']],
        [NINE / 1000, []],
      ],
    );
    const first = evaluations.evaluations.at(-1);
    expect(first?.printed).toEqual([`saw 50 bars up to ${formatContractDate(NINE)}`]);
    expect(first?.error).toBeNull();
    expect(evaluations.evaluations[3]?.wanted).toEqual([
      { lots: 1, open_date: OPEN_DATE, open_price: open.close },
    ]);
    expect(streamed).toContain(`saw 50 bars up to ${formatContractDate(NINE)}`);
    expect(streamed.some((l) => l.startsWith('[live] Open buy 2: filled at'))).toBe(true);

    const run = liveRunListSchema.parse(
      (await api(app, who.cookie)('GET', '/api/live-runs')).json(),
    ).runs[0];
    const gross = roundTo((close.close - (open.close + SPREAD)) * 2 * 100, 2);
    expect(run).toMatchObject({
      id: runId,
      strategy_name: 'Open and close',
      status: 'running',
      evaluations: 5,
      orders: 2,
      open_positions: 0,
      // 5 per lot and side: 2 lots opened and closed
      net_profit: roundTo(gross - 20, 2),
      error: null,
    });
  });

  it('its close is the strategy’s: the settlement and the order log say so, not Manual', async () => {
    const [settled] = await settlements(app, who);
    expect(settled).toMatchObject({ closeReason: 4, comment: `live:${runId}`, isSettled: 2 });
    const [closing] = await orderLogs(app, who);
    expect(closing).toMatchObject({ actionType: 2, message: 'Strategy' });
  });

  it('tells the account’s channel of each evaluation, after the orders it sent', async () => {
    const events = heard.map(({ channel, data }) => {
      const event = accountEventSchema.parse(data);
      expect(channel).toBe(`account:${who.uuid}`);
      return event.type === 'live_run_evaluated'
        ? [event.type, event.runId, event.status, event.evaluations, event.orders, event.at]
        : [event.type];
    });
    const evaluated = (m: number, orders: number) => [
      'live_run_evaluated',
      runId,
      'running',
      m,
      orders,
      // the bar's close: when the evaluation ran for
      NINE + m * MINUTE,
    ];
    expect(events).toEqual([
      evaluated(1, 0),
      ['position_opened'],
      evaluated(2, 1),
      evaluated(3, 1),
      ['position_closed'],
      evaluated(4, 2),
      evaluated(5, 2),
    ]);
  });

  it('compares with its own backtest: every trade matched, the gap is spread and commission', async () => {
    const res = await api(app, who.cookie)('GET', `/api/live-runs/${runId}/comparison`);
    expect(res.statusCode).toBe(200);
    const comparison: LiveRunComparison = liveRunComparisonSchema.parse(res.json());
    const open = market.bar(NINE + MINUTE);
    const close = market.bar(NINE + 3 * MINUTE);
    // backtest: 2 lots × 100 from the 09:01 close to the 09:03 close, 20 commission
    const backtest = roundTo(roundTo((close.close - open.close) * 200, 2) - 20, 2);
    const forward = roundTo(roundTo((close.close - open.close - SPREAD) * 200, 2) - 20, 2);
    expect(comparison).toMatchObject({
      from: NINE / 1000,
      to: (NINE + 4 * MINUTE) / 1000,
      bars: 5,
      only_backtest: [],
      only_forward: [],
      pnl_backtest: backtest,
      pnl_forward: forward,
      // the ask paid at the open: 0.5 × 2 lots × 100; both charged 5 per lot and side
      causes: { spread: -100, commission: 0, slippage: 0, missed_bars: 0, other: 0 },
      backtest_error: null,
    });
    expect(comparison.matched).toHaveLength(1);
    expect(comparison.matched[0]).toMatchObject({
      open_price_diff: SPREAD,
      close_price_diff: 0,
      open_delay: 0,
      close_delay: 0,
    });
    expect(comparison.curve_backtest).toEqual([[(NINE + 3 * MINUTE) / 1000, backtest]]);
    expect(comparison.curve_forward).toEqual([[(NINE + 3 * MINUTE) / 1000, forward]]);
  });
});

describe('a restart in the middle of a run', () => {
  it('loses and duplicates nothing', async () => {
    const t = await openTestDatabase();
    const clock = createClock(NINE + 30_000);
    const market = newMarket();
    const first = await buildLiveApp(t.db, clock, market, 57_000);
    let second: LiveApp | null = null;
    try {
      const who = await account(first, t.db);
      await saveStrategy(first, who, 'Crash', openThenCloseStrategy(OPEN_DATE, CLOSE_DATE));
      const res = await startRun(first, who, { strategy_name: 'Crash', lots: 1 });
      const runId = liveRunStartedSchema.parse(res.json()).id;
      // the process dies once the open is filled, before the run has kept the order
      let crashed = 0;
      const runner = await startRunner(first, {
        afterOrderSent: async () => {
          crashed += 1;
          throw new SimulatedCrash();
        },
      });
      await closeBar(first, clock, market, 1);
      await closeBar(first, clock, market, 2);
      expect(crashed).toBe(1);
      expect(await orderLogs(first, who)).toHaveLength(1);
      await runner.abandon();
      await first.close();

      // a new process, after the next bar closed and the dead runner's lease ran out
      second = await buildLiveApp(t.db, clock, market, 58_000);
      clock.set(NINE + 3 * MINUTE + 1000);
      await startRunner(second);
      await closeBar(second, clock, market, 3);
      await closeBar(second, clock, market, 4);
      await closeBar(second, clock, market, 5);

      const logs = await orderLogs(second, who);
      expect(logs.map((l) => [l.cmd, l.actionType, l.orderStatus])).toEqual([
        [2, 2, 2],
        [1, 1, 2],
      ]);
      const evaluations = await evaluationsOf(second, who.cookie, runId);
      // 09:01's evaluation died with the process; 09:02 re-sent its open (answered from the
      // first fill: same key), and every other bar was evaluated once
      expect(
        evaluations.evaluations.map((e) => [e.bar_time, e.orders.map((o) => o.action)]),
      ).toEqual([
        [(NINE + 4 * MINUTE) / 1000, []],
        [(NINE + 3 * MINUTE) / 1000, ['close']],
        [(NINE + 2 * MINUTE) / 1000, ['open']],
        [NINE / 1000, []],
      ]);
      const opened = evaluations.evaluations[2]?.orders[0];
      expect(opened?.order_id).toBe(logs[1]?.orderId);
      expect(await runOf(second, who.cookie, runId)).toMatchObject({
        evaluations: 4,
        orders: 2,
        open_positions: 0,
      });
    } finally {
      await second?.close();
      await t.close();
    }
  });
});

describe('failures, limits and other users', () => {
  let t: TestDatabase;
  let app: LiveApp;
  const clock = createClock(NINE + 30_000);
  const market = newMarket();
  let owner: Account;
  let stranger: Account;

  beforeAll(async () => {
    t = await openTestDatabase();
    app = await buildLiveApp(t.db, clock, market, 59_000);
    owner = await account(app, t.db);
    stranger = await account(app, t.db);
    await saveStrategy(app, owner, 'Boom', "def main(data_array):\n    raise ValueError('boom')\n");
    await saveStrategy(app, owner, 'Quiet', 'def main(data_array):\n    return []\n');
    await startRunner(app);
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('a failing strategy stops after the configured number of failures in a row', async () => {
    const res = await startRun(app, owner, { strategy_name: 'Boom' });
    const id = liveRunStartedSchema.parse(res.json()).id;
    app.services.liveRuns.runner()?.notify();
    for (const m of [1, 2, 3, 4]) await closeBar(app, clock, market, m);

    const run = await runOf(app, owner.cookie, id);
    expect(run.status).toBe('failed');
    expect(run.evaluations).toBe(3);
    expect(run.stopped_at).toBe((NINE + 3 * MINUTE) / 1000);
    expect(run.error).toMatch(/^Stopped after 3 consecutive failures: .*ValueError: boom/s);
    const evaluations = await evaluationsOf(app, owner.cookie, id);
    expect(evaluations.total).toBe(3);
    expect(evaluations.evaluations.every((e) => /ValueError: boom/.test(e.error ?? ''))).toBe(true);
  });

  it('another user can neither see nor stop a run, nor start one on the owner’s account', async () => {
    const res = await startRun(app, owner, { strategy_name: 'Quiet' });
    const id = liveRunStartedSchema.parse(res.json()).id;
    const as = api(app, stranger.cookie);
    expect((await as('GET', '/api/live-runs')).json()).toEqual({ runs: [] });
    for (const [method, url] of [
      ['POST', `/api/live-runs/${id}/stop`],
      ['GET', `/api/live-runs/${id}/evaluations`],
      ['GET', `/api/live-runs/${id}/comparison`],
    ] as const) {
      const answer = await as(method, url);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ detail: `Live run not found: ${id}` });
    }
    const onOwners = await as('POST', '/api/live-runs', {
      strategy_name: 'Quiet',
      uuid: owner.uuid,
      token: owner.token,
      symbol_id: SYMBOL,
      period: '1m',
    });
    expect(onOwners.statusCode).toBe(401);
    expect((await runOf(app, owner.cookie, id)).status).toBe('running');

    const stopped = await api(app, owner.cookie)('POST', `/api/live-runs/${id}/stop`);
    expect(stopped.json()).toEqual({ id, status: 'stopped' });
    const again = await api(app, owner.cookie)('POST', `/api/live-runs/${id}/stop`);
    expect(again.json()).toEqual({ id, status: 'stopped' });
    expect(app.services.liveRuns.runner()?.heldRuns()).not.toContain(id);
  });

  it('refuses bad input with 400 and what it cannot run with 422, changing nothing', async () => {
    const before = (await api(app, owner.cookie)('GET', '/api/live-runs')).json<{
      runs: unknown[];
    }>().runs.length;
    const badLots = await startRun(app, owner, { strategy_name: 'Quiet', lots: 0 });
    expect(badLots.statusCode).toBe(400);
    expect(badLots.json<{ detail: string }>().detail).toContain('lots must be a number above 0');
    const badPeriod = await startRun(app, owner, { strategy_name: 'Quiet', period: '2m' });
    expect(badPeriod.statusCode).toBe(400);
    const unknown = await startRun(app, owner, { strategy_name: 'Nope' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ detail: 'Strategy not found: Nope' });
    const symbol = await startRun(app, owner, { strategy_name: 'Quiet', symbol_id: 'NOPE' });
    expect(symbol.statusCode).toBe(422);
    expect(symbol.json()).toMatchObject({ detail: 'Unknown symbol: NOPE' });
    const page = await api(app, owner.cookie)('GET', `/api/live-runs/not-a-run/evaluations`);
    expect(page.statusCode).toBe(404);
    expect(
      (await api(app, owner.cookie)('GET', '/api/live-runs')).json<{ runs: unknown[] }>().runs,
    ).toHaveLength(before);

    // two at once (the test limit): the third is refused until one stops
    const one = liveRunStartedSchema.parse(
      (await startRun(app, owner, { strategy_name: 'Quiet' })).json(),
    );
    await startRun(app, owner, { strategy_name: 'Default' });
    const third = await startRun(app, owner, { strategy_name: 'Quiet' });
    expect(third.statusCode).toBe(422);
    expect(third.json()).toMatchObject({
      detail: 'You already have 2 live runs running; stop one first (at most 2 at once)',
    });
    await api(app, owner.cookie)('POST', `/api/live-runs/${one.id}/stop`);
    expect((await startRun(app, owner, { strategy_name: 'Quiet' })).statusCode).toBe(201);
  });
});
