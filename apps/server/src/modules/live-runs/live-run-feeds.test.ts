import { formatContractDate, liveRunStartedSchema, roundTo } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createClock, openTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import {
  LiveMarket,
  MINUTE,
  NINE,
  SYMBOL,
  api,
  buildLiveApp,
  evaluationsOf,
  runOf,
  startRunner,
  tickAt,
  type LiveApp,
} from '../../test/live-runs.ts';

/*
 * A live run on several feeds: at every close of its own 1-minute bar, `main(data_array)`
 * receives the rows of its own feed and of the others (a 5-minute feed of another instrument
 * here), ordered by time, a higher period's bar only once it has closed (its row dated by
 * its close). The run trades its own instrument; records of another feed's instrument are
 * left to it.
 */

/** Prints every row of another period than 1m, and trades the other instrument only. */
const PRINTS_OTHER_FEEDS = `
def main(data_array):
    for row in data_array:
        if row[2] != '1m':
            print(row[0], row[1], row[2])
    print('last', data_array[-1][0], data_array[-1][1], data_array[-1][2])
    eur = [row for row in data_array if row[1] == 'EURUSD']
    if not eur:
        return []
    return [{'code': 'EURUSD', 'open_date': eur[0][0], 'open_price': eur[0][6], 'lots': 1,
             'status': 'NOT', 'close_date': None, 'close_price': None}]
`;

let t: TestDatabase;
let app: LiveApp;
const clock = createClock(NINE + 30_000);
const market = new LiveMarket();
market.setQuote('EURUSD', 1.09995, 1.10005);
let who: { cookie: string; uuid: string; token: string };

beforeAll(async () => {
  t = await openTestDatabase();
  app = await buildLiveApp(t.db, clock, market, 57_400);
  const user = await buildUser(t.db, { accounts: 1 });
  const { cookie, user: login } = await loginAs(app, user);
  const trader = login.traders[0];
  if (!trader) throw new Error('no trading account');
  who = { cookie, uuid: trader.uuid, token: trader.token };
  const saved = await api(app, cookie)('POST', '/api/strategies/', {
    name: 'Two feeds',
    code: PRINTS_OTHER_FEEDS,
    create: true,
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const start = (body: Record<string, unknown>) =>
  api(app, who.cookie)('POST', '/api/live-runs', {
    uuid: who.uuid,
    token: who.token,
    symbol_id: SYMBOL,
    period: '1m',
    strategy_name: 'Two feeds',
    ...body,
  });

describe('a live run on several feeds', () => {
  it('refuses bad feeds with a detail naming the feed by its place', async () => {
    for (const [feeds, detail] of [
      [[{ symbol_id: 'NOPE', period: '5m' }], 'feeds[0]: Unknown symbol: NOPE'],
      [
        [
          { symbol_id: 'EURUSD', period: '5m' },
          { symbol_id: 'EURUSD', period: 'fortnight' },
        ],
        'feeds[1].period: Unknown period: fortnight',
      ],
      [
        [{ symbol_id: 'EURUSD', period: '5m', historical_data: [] }],
        /^feeds\[0\]\.historical_data: /,
      ],
      [
        Array.from({ length: 11 }, (_, i) => ({ symbol_id: 'EURUSD', period: `${i + 1}m` })),
        /^feeds: feeds must have at most 10 entries/,
      ],
    ] as const) {
      const res = await start({ feeds });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ detail: string }>().detail).toMatch(detail);
    }
  });

  it("gives main every feed's closed rows in time order and trades its own instrument", async () => {
    const res = await start({
      feeds: [
        { symbol_id: SYMBOL, period: '1m' },
        { symbol_id: 'EURUSD', period: '5m' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = liveRunStartedSchema.parse(res.json()).id;
    expect(await runOf(app, who.cookie, id)).toMatchObject({
      feeds: [{ symbol_id: 'EURUSD', period: '5m' }],
    });
    await startRunner(app);
    for (const m of [1, 2, 3, 4, 5, 6]) {
      const bar = market.bar(NINE + (m - 1) * MINUTE);
      await tickAt(app, clock, market, NINE + m * MINUTE + 1000, {
        bid: bar.close,
        ask: roundTo(bar.close + 0.5, 2),
      });
    }
    const { evaluations } = await evaluationsOf(app, who.cookie, id);
    // oldest first: the closes of the bars 09:00 … 09:05
    const printed = evaluations.map((e) => e.printed).reverse();
    expect(printed).toHaveLength(6);
    const fiveMinute = (lines: readonly string[]) =>
      lines.filter((line) => !line.startsWith('last') && line.endsWith(' EURUSD 5m'));
    // before 09:05 the 5-minute bar of 09:00 is still forming: never seen
    for (const lines of printed.slice(0, 4)) {
      expect(fiveMinute(lines)).not.toContain(`${formatContractDate(NINE + 5 * MINUTE)} EURUSD 5m`);
      expect(lines.at(-1)).toMatch(/ XAUUSD 1m$/);
    }
    // at the close of 09:04 it has closed: dated by its close, after the last 1m bar
    const atFive = printed[4] ?? [];
    expect(fiveMinute(atFive).at(-1)).toBe(`${formatContractDate(NINE + 5 * MINUTE)} EURUSD 5m`);
    expect(atFive.at(-1)).toBe(`last ${formatContractDate(NINE + 5 * MINUTE)} EURUSD 5m`);
    expect(printed[5]?.at(-1)).toBe(`last ${formatContractDate(NINE + 5 * MINUTE)} XAUUSD 1m`);
    // the records trade EURUSD, not the run's instrument: no order, no error
    expect(evaluations.every((e) => e.error === null && e.orders.length === 0)).toBe(true);
  });
});
