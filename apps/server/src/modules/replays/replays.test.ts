import {
  formatContractDate,
  replayListSchema,
  replayStartedSchema,
  replayViewSchema,
  roundTo,
  snapToTickDirected,
  type Bar,
  type ReplayView,
} from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../app.ts';
import { buildUser, loginAs } from '../../test/factories.ts';
import { openTestDatabase, testConfig, type TestDatabase } from '../../test/helpers.ts';
import { caller, testSandbox } from '../../test/backtest.ts';
import { ScriptedMarket } from '../../test/trading.ts';

/*
 * Bar replay sessions against the real database and sandbox, on the simulator's hourly gold
 * bars (bid prices; the ask is 25 ticks above; commission 5 per lot and side). The clock
 * stands still: the replay moves only when it is stepped.
 */

const SYMBOL = 'XAUUSD';
const SPREAD = 0.25;
const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);
const UID_BASE = 71_000;
const WINDOW = 50;

type App = Awaited<ReturnType<typeof buildApp>>;
type Caller = ReturnType<typeof caller>;

const detail = z.object({ detail: z.string() });

async function build(db: TestDatabase['db'], market: ScriptedMarket, uidBase = UID_BASE) {
  return buildApp({
    db,
    config: testConfig({
      sandbox: testSandbox({ uidBase, maxPerUser: 2, maxConcurrent: 2, timeoutMs: 10_000 }),
      liveRuns: { windowBars: WINDOW },
    }),
    now: () => NOW,
    market,
  });
}

async function user(app: App, db: TestDatabase['db']): Promise<string> {
  const built = await buildUser(db, { accounts: 1 });
  return (await loginAs(app, built)).cookie;
}

/** The closed hourly bars before NOW, ascending. */
function hourBars(market: ScriptedMarket, count: number): Bar[] {
  const end = Date.UTC(2026, 0, 5, 12, 0, 0);
  return market.bars(SYMBOL, '1h', end, count, NOW);
}

async function view(call: Caller, id: string): Promise<ReplayView> {
  const res = await call('GET', `/api/replays/${id}`);
  expect(res.statusCode).toBe(200);
  return replayViewSchema.parse(res.json());
}

async function step(call: Caller, id: string, bars: number): Promise<ReplayView> {
  const res = await call('POST', `/api/replays/${id}/step`, { bars });
  expect(res.statusCode, res.body).toBe(200);
  return replayViewSchema.parse(res.json());
}

async function start(call: Caller, body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/api/replays', { symbol_id: SYMBOL, period: '1h', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return replayStartedSchema.parse(res.json()).id;
}

/** Opens at the close of every bar that closed above the one before, closes one bar later. */
const UP_BAR_STRATEGY = `
def main(data_array):
    records = []
    for i in range(1, len(data_array)):
        if data_array[i][6] > data_array[i - 1][6]:
            record = {'open_date': data_array[i][0], 'open_price': data_array[i][6], 'lots': 1,
                      'status': 'NOT', 'close_date': None, 'close_price': None}
            if i + 1 < len(data_array):
                record.update(status='YES', close_date=data_array[i + 1][0],
                              close_price=data_array[i + 1][6])
            records.append(record)
    print('bars', len(data_array), 'records', len(records))
    return records
`;

describe('bar replay sessions', () => {
  let t: TestDatabase;
  let app: App;
  const market = new ScriptedMarket();
  let aliceCookie: string;
  let alice: Caller;
  let bob: Caller;
  const bars = hourBars(market, 300);
  const startIndex = bars.length - 121; // a hundred and twenty bars back
  const startBar = bars[startIndex] as Bar;

  beforeAll(async () => {
    t = await openTestDatabase();
    app = await build(t.db, market);
    aliceCookie = await user(app, t.db);
    alice = caller(app, aliceCookie);
    bob = caller(app, await user(app, t.db));
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('starts at a bar with the future hidden and its own account', async () => {
    const res = await alice('POST', '/api/replays', {
      symbol_id: SYMBOL,
      period: '1h',
      start: startBar.time / 1000,
    });
    expect(res.statusCode).toBe(201);
    const { id, cursor } = replayStartedSchema.parse(res.json());
    expect(cursor).toBe(startBar.time / 1000);
    const shown = await view(alice, id);
    expect(shown).toMatchObject({
      symbol_id: SYMBOL,
      period: '1h',
      start: startBar.time / 1000,
      cursor: startBar.time / 1000,
      positions: [],
      trades: [],
      account: { balance: 100_000, equity: 100_000, currency: 'USD' },
      last_bar: (bars.at(-1) as Bar).time / 1000,
      // the ticket's quote: the cursor bar's close and the ask a spread above
      quote: { bid: startBar.close, ask: roundTo(startBar.close + SPREAD, 2) },
    });
    expect(shown.quote.ask).toBeGreaterThan(shown.quote.bid);
    const listed = replayListSchema.parse((await alice('GET', '/api/replays')).json());
    expect(listed.replays.map((r) => r.id)).toContain(id);
    // a step moves the cursor bar by bar, never past the newest closed bar
    expect((await step(alice, id, 3)).cursor).toBe((bars[startIndex + 3] as Bar).time / 1000);
    expect((await step(alice, id, 1000)).cursor).toBe((bars.at(-1) as Bar).time / 1000);
    expect((await step(alice, id, -1000)).cursor).toBe(startBar.time / 1000);
  });

  it('fills a limit order at the first replayed bar that trades through it, at its price', async () => {
    const id = await start(alice, { start: startBar.time / 1000 });
    const ahead = bars.slice(startIndex + 1);
    const ask = roundTo(startBar.close + SPREAD, 2);
    // a buy limit 0.1 % under the ask if the market falls that far, else a sell limit above
    const buyAt = snapToTickDirected(ask * 0.999, 0.01, 'down');
    const sellAt = snapToTickDirected(startBar.close * 1.001, 0.01, 'up');
    const falls = ahead.some((b) => b.low + SPREAD <= buyAt);
    const side = falls ? 'buy' : 'sell';
    const price = falls ? buyAt : sellAt;
    const reaches = (b: Bar) => (falls ? b.low + SPREAD <= price : b.high >= price);
    const k = ahead.findIndex(reaches);
    expect(k).toBeGreaterThan(0);
    const hit = ahead[k] as Bar;
    const opensBeyond = falls ? hit.open + SPREAD <= price : hit.open >= price;
    const fillPrice = opensBeyond ? roundTo(falls ? hit.open + SPREAD : hit.open, 2) : price;

    const placed = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'limit',
      cmd: falls ? 1 : 2,
      volume: 1,
      pendPrice: price,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(replayViewSchema.parse(placed.json()).pending).toMatchObject([
      { side, trigger: 'limit', price, volume: 1 },
    ]);
    if (k > 0) {
      const before = await step(alice, id, k);
      expect(before.pending).toHaveLength(1);
      expect(before.positions).toEqual([]);
    }
    const after = await step(alice, id, 1);
    expect(after.cursor).toBe(hit.time / 1000);
    expect(after.pending).toEqual([]);
    expect(after.positions).toMatchObject([
      { side, volume: 1, open_price: fillPrice, open_time: hit.time / 1000 },
    ]);
    // commission 5 per lot at the open
    expect(after.account.balance).toBe(99_995);
  });

  it('moves a pending order to a new price: it fills there', async () => {
    const id = await start(alice, { start: startBar.time / 1000 });
    const ask = roundTo(startBar.close + SPREAD, 2);
    const ahead = bars.slice(startIndex + 1);
    // placed far from the market, then moved 0.1 % from it (a buy under the ask if the market
    // falls that far, else a sell above the bid) with an SL
    const buyAt = snapToTickDirected(ask * 0.999, 0.01, 'down');
    const falls = ahead.some((b) => b.low + SPREAD <= buyAt);
    const far = falls
      ? snapToTickDirected(ask * 0.9, 0.01, 'down')
      : snapToTickDirected(startBar.close * 1.1, 0.01, 'up');
    const near = falls ? buyAt : snapToTickDirected(startBar.close * 1.001, 0.01, 'up');
    const sl = falls
      ? snapToTickDirected(near * 0.99, 0.01, 'down')
      : snapToTickDirected(near * 1.01, 0.01, 'up');
    const placed = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'limit',
      cmd: falls ? 1 : 2,
      volume: 1,
      pendPrice: far,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const pId = replayViewSchema.parse(placed.json()).pending[0]?.id;
    const moved = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'modify',
      pId,
      pendPrice: near,
      sl,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(replayViewSchema.parse(moved.json()).pending).toMatchObject([
      { id: pId, trigger: 'limit', price: near, sl, tp: 0 },
    ]);
    // outside the band, or not a pending order of the session: refused, nothing changes
    const refused = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'modify',
      pId,
      pendPrice: 1,
    });
    expect(refused.statusCode).toBe(422);
    expect(detail.parse(refused.json()).detail).toMatch(/^Limit price must be between/);
    const missing = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'modify',
      pId: 99,
      pendPrice: near,
    });
    expect(missing.statusCode).toBe(422);
    // it fills at the first bar that reaches the new price (the old one is far away)
    const k = ahead.findIndex((b) => (falls ? b.low + SPREAD <= near : b.high >= near));
    expect(k).toBeGreaterThanOrEqual(0);
    const hit = ahead[k] as Bar;
    const gap = falls ? hit.open + SPREAD <= near : hit.open >= near;
    const fillPrice = gap ? roundTo(falls ? hit.open + SPREAD : hit.open, 2) : near;
    const after = await step(alice, id, k + 1);
    expect(after.pending).toEqual([]);
    expect(after.positions).toMatchObject([
      { id: pId, open_price: fillPrice, open_time: hit.time / 1000, sl },
    ]);
  });

  it('trades by hand: market orders, TP/SL, partial close, with the instrument commission and spread', async () => {
    const id = await start(alice, { start: startBar.time / 1000 });
    const bought = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'market',
      cmd: 1,
      volume: 2,
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const open = replayViewSchema.parse(bought.json());
    const openPrice = roundTo(startBar.close + SPREAD, 2);
    expect(open.positions).toMatchObject([
      { id: 1, side: 'buy', volume: 2, open_price: openPrice },
    ]);
    // the spread is lost at once: 2 lots × 100 × 0.25, and 10 commission
    expect(open.account.floating).toBe(-50);
    expect(open.account.equity).toBe(99_940);

    const next = bars[startIndex + 1] as Bar;
    const moved = await step(alice, id, 1);
    expect(moved.positions[0]?.profit).toBe(roundTo((next.close - openPrice) * 200, 2));
    expect(moved.equity.map((e) => e.time)).toEqual([startBar.time / 1000, next.time / 1000]);

    const half = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'close',
      orderId: '1',
      volume: 0.5,
    });
    expect(half.statusCode, half.body).toBe(200);
    const closed = replayViewSchema.parse(half.json());
    expect(closed.positions).toMatchObject([{ id: 1, volume: 1.5 }]);
    const gross = roundTo((next.close - openPrice) * 50, 2);
    expect(closed.trades).toEqual([
      {
        position_id: 1,
        open_time: startBar.time / 1000,
        close_time: next.time / 1000,
        side: 'buy',
        volume: 0.5,
        open_price: openPrice,
        close_price: next.close,
        profit: roundTo(gross - 5, 2),
        commission: 5,
        reason: 'manual',
        source: 'user',
      },
    ]);
    const tpsl = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'tpsl',
      orderId: 1,
      tp: snapToTickDirected(openPrice * 1.05, 0.01, 'down'),
      sl: snapToTickDirected(openPrice * 0.96, 0.01, 'up'),
    });
    expect(tpsl.statusCode, tpsl.body).toBe(200);
    expect(replayViewSchema.parse(tpsl.json()).positions[0]).toMatchObject({
      tp: snapToTickDirected(openPrice * 1.05, 0.01, 'down'),
    });
  });

  it('steps back by undoing what happened after the new cursor', async () => {
    const id = await start(alice, { start: startBar.time / 1000 });
    await step(alice, id, 2);
    const res = await alice('POST', `/api/replays/${id}/orders`, {
      type: 'market',
      cmd: 2,
      volume: 1,
    });
    expect(res.statusCode).toBe(200);
    const at2 = replayViewSchema.parse(res.json());
    await step(alice, id, 5);
    const back = await step(alice, id, -5);
    expect(back).toEqual({ ...at2, updated_at: back.updated_at });
    const before = await step(alice, id, -1);
    expect(before.positions).toEqual([]);
    expect(before.fills).toEqual([]);
    expect(before.account.balance).toBe(100_000);
    // going forward again replays without the undone order
    const again = await step(alice, id, 6);
    expect(again.positions).toEqual([]);
    expect(again.cursor).toBe((bars[startIndex + 7] as Bar).time / 1000);
  });

  it('runs a saved strategy at every replayed close with the same trades as its backtest', async () => {
    const saved = await alice('POST', '/api/strategies/', {
      name: 'Up bars',
      code: UP_BAR_STRATEGY,
      create: true,
    });
    expect(saved.statusCode).toBe(200);
    const id = await start(alice, { start: startBar.time / 1000, strategy_name: 'Up bars' });
    const STEPS = 30;
    const replayed = await step(alice, id, STEPS);
    const cursorIndex = startIndex + STEPS;
    expect(replayed.cursor).toBe((bars[cursorIndex] as Bar).time / 1000);
    expect(replayed.evaluations).toHaveLength(STEPS + 1);
    expect(replayed.evaluations.at(-1)?.printed).toEqual([
      expect.stringMatching(new RegExp(`^bars ${WINDOW} records \\d+$`)),
    ]);
    expect(replayed.evaluations.every((e) => e.error === null)).toBe(true);
    // each order an evaluation sent: filled at its bar's close, at the price of its fill
    const sentOrders = replayed.evaluations.flatMap((e) => e.orders.map((o) => ({ e, o })));
    expect(sentOrders.length).toBeGreaterThan(3);
    for (const { e, o } of sentOrders) {
      expect(o).toMatchObject({ status: 'filled', error: null });
      const fill = replayed.fills.find(
        (f) => f.time === e.bar_time && f.action === o.action && f.source === 'strategy',
      );
      expect(o.price).toBe(fill?.price);
    }

    // the backtest of the same code over the same bars (from the first window on)
    const backtestBars = bars.slice(startIndex - WINDOW + 1, cursorIndex + 1);
    const backtest = await alice('POST', '/api/backtest/code', {
      code: UP_BAR_STRATEGY,
      symbol: SYMBOL,
      period: '1h',
      historical_data: backtestBars.map((b) => ({
        Time: formatContractDate(b.time).replaceAll('-', '/'),
        Open: b.open,
        High: b.high,
        Low: b.low,
        Close: b.close,
        Volume: b.volume,
      })),
    });
    expect(backtest.statusCode).toBe(200);
    const deals = z
      .object({
        deals: z.array(
          z.object({
            start: z.number(),
            end: z.number().nullable(),
            lots: z.number(),
            open_price: z.number(),
            close_price: z.number(),
          }),
        ),
        error: z.null(),
      })
      .parse(backtest.json())
      .deals.filter((d) => d.start >= startBar.time / 1000);
    expect(deals.length).toBeGreaterThan(3);

    const closedDeals = deals.filter((d) => d.end !== null);
    expect(replayed.trades.map((tr) => [tr.open_time, tr.close_time, tr.side, tr.volume])).toEqual(
      closedDeals.map((d) => [d.start, d.end, 'buy', d.lots]),
    );
    // filled at the ask of the close the strategy priced, closed at the bid of the next
    expect(replayed.trades.map((tr) => [tr.open_price, tr.close_price])).toEqual(
      closedDeals.map((d) => [roundTo(d.open_price + SPREAD, 2), d.close_price]),
    );
    expect(replayed.trades.every((tr) => tr.source === 'strategy')).toBe(true);
    const openDeals = deals.filter((d) => d.end === null);
    expect(replayed.positions.map((p) => [p.open_time, p.side, p.volume])).toEqual(
      openDeals.map((d) => [d.start, 'buy', d.lots]),
    );

    // stepping back rewinds the strategy's trades and evaluations with the cursor
    const back = await step(alice, id, -10);
    expect(back.evaluations).toHaveLength(STEPS + 1 - 10);
    // the newest evaluation is the new cursor's
    expect(back.evaluations.at(-1)?.bar_time).toBe(back.cursor);
    expect(back.trades.every((tr) => tr.close_time <= back.cursor)).toBe(true);
    expect(back.trades.length).toBeLessThan(replayed.trades.length);
  });

  it('keeps sessions per user: another user can neither see, step, trade nor delete one', async () => {
    const id = await start(alice, { start: startBar.time / 1000 });
    const before = await view(alice, id);
    const tries = [
      await bob('GET', `/api/replays/${id}`),
      await bob('POST', `/api/replays/${id}/step`, { bars: 1 }),
      await bob('POST', `/api/replays/${id}/orders`, { type: 'market', cmd: 1, volume: 1 }),
      await bob('DELETE', `/api/replays/${id}`),
    ];
    for (const res of tries) {
      expect(res.statusCode).toBe(404);
      expect(detail.parse(res.json()).detail).toBe(`Replay not found: ${id}`);
    }
    const listed = replayListSchema.parse((await bob('GET', '/api/replays')).json());
    expect(listed.replays.map((r) => r.id)).not.toContain(id);
    expect(await view(alice, id)).toEqual(before);
    const deleted = await alice('DELETE', `/api/replays/${id}`);
    expect(deleted.json()).toEqual({ id });
    expect((await alice('GET', `/api/replays/${id}`)).statusCode).toBe(404);
  });

  it('answers bad bodies with { detail } and changes nothing', async () => {
    const id = await start(alice, { start: startBar.time / 1000 });
    const before = await view(alice, id);
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/api/replays', { period: '1h', start: 1 }, 400, /symbol_id/],
      ['POST', '/api/replays', { symbol_id: SYMBOL, period: '7m', start: 1 }, 400, /period/],
      [
        'POST',
        '/api/replays',
        { symbol_id: SYMBOL, period: '1h', start: startBar.time / 1000 + 60 },
        422,
        /start must be the open time of a closed bar/,
      ],
      [
        'POST',
        '/api/replays',
        { symbol_id: 'NOPE', period: '1h', start: startBar.time / 1000 },
        422,
        /Unknown symbol: NOPE/,
      ],
      [
        'POST',
        '/api/replays',
        { symbol_id: SYMBOL, period: '1h', start: startBar.time / 1000, strategy_name: 'Nope' },
        422,
        /Strategy not found: Nope/,
      ],
      ['POST', `/api/replays/${id}/step`, { bars: 0 }, 400, /bars must not be 0/],
      ['POST', `/api/replays/${id}/step`, { bars: 'x' }, 400, /bars/],
      ['POST', `/api/replays/${id}/step`, { bars: 5000 }, 400, /bars must be between/],
      ['POST', `/api/replays/${id}/orders`, { type: 'buy' }, 400, /type must be one of/],
      ['POST', `/api/replays/${id}/orders`, { type: 'market', cmd: 3, volume: 1 }, 400, /cmd/],
      [
        'POST',
        `/api/replays/${id}/orders`,
        { type: 'market', cmd: 1, volume: 0.001 },
        422,
        /Quantity must be at least 0.01/,
      ],
      [
        'POST',
        `/api/replays/${id}/orders`,
        { type: 'market', cmd: 1, volume: 100 },
        422,
        /^Insufficient margin/,
      ],
      [
        'POST',
        `/api/replays/${id}/orders`,
        { type: 'limit', cmd: 1, volume: 1, pendPrice: 1 },
        422,
        /^Limit price must be between/,
      ],
      [
        'POST',
        `/api/replays/${id}/orders`,
        { type: 'close', orderId: 7, volume: 1 },
        422,
        /Order not found: 7/,
      ],
      ['POST', `/api/replays/${id}/orders`, { type: 'cancel', pId: 'abc' }, 400, /pId/],
      ['GET', '/api/replays/not-a-uuid', undefined, 404, /Replay not found: not-a-uuid/],
    ];
    for (const [method, url, body, status, message] of cases) {
      const res = await alice(method as 'GET' | 'POST', url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(status);
      expect(detail.parse(res.json()).detail).toMatch(message);
    }
    expect(await view(alice, id)).toEqual(before);
    const listed = replayListSchema.parse((await alice('GET', '/api/replays')).json());
    expect(listed.replays.filter((r) => r.start === startBar.time / 1000 + 60)).toEqual([]);
  });

  it('resumes a session after a restart', async () => {
    const id = await start(alice, { start: startBar.time / 1000 });
    await alice('POST', `/api/replays/${id}/orders`, { type: 'market', cmd: 1, volume: 1 });
    const left = await step(alice, id, 4);
    await app.close();
    app = await build(t.db, market, UID_BASE + 1000);
    alice = caller(app, aliceCookie);
    // the session cookie survives the restart (sessions are in the database)
    expect(await view(alice, id)).toEqual(left);
    const onward = await step(alice, id, 1);
    expect(onward.cursor).toBe((bars[startIndex + 5] as Bar).time / 1000);
    expect(onward.positions).toHaveLength(1);
  });
});
