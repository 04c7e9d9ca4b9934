import { formatContractDate, replayStartedSchema, replayViewSchema, type Bar } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { buildUser, loginAs } from '../../test/factories.ts';
import { openTestDatabase, testConfig, type TestDatabase } from '../../test/helpers.ts';
import { caller, testSandbox } from '../../test/backtest.ts';
import { ScriptedMarket } from '../../test/trading.ts';

/*
 * A replay on several feeds: at every replayed close of its own hourly bars, the strategy's
 * `main(data_array)` receives the rows of the other feeds too (EURUSD 4h here), a 4-hour
 * bar only once it has closed by the replayed close, dated by its close. The replay's own
 * bars after the cursor stay hidden, and so do the other feeds'.
 */

const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);
const HOUR = 3_600_000;

const PRINTS_FOUR_HOURS = `
def main(data_array):
    for row in data_array:
        if row[2] == '4h':
            print(row[0], row[1], row[2])
    print('last', data_array[-1][0], data_array[-1][1], data_array[-1][2])
    return []
`;

let t: TestDatabase;
let app: Awaited<ReturnType<typeof buildApp>>;
let call: ReturnType<typeof caller>;
const market = new ScriptedMarket();

beforeAll(async () => {
  t = await openTestDatabase();
  app = await buildApp({
    db: t.db,
    config: testConfig({
      sandbox: testSandbox({ uidBase: 71_400, maxPerUser: 2, maxConcurrent: 2, timeoutMs: 10_000 }),
      liveRuns: { windowBars: 50 },
    }),
    now: () => NOW,
    market,
  });
  call = caller(app, (await loginAs(app, await buildUser(t.db, { accounts: 1 }))).cookie);
  const saved = await call('POST', '/api/strategies/', {
    name: 'Four hours',
    code: PRINTS_FOUR_HOURS,
    create: true,
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe('a replay on several feeds', () => {
  it('refuses an unknown feed with a detail naming it by its place', async () => {
    const res = await call('POST', '/api/replays', {
      symbol_id: 'XAUUSD',
      period: '1h',
      start: Date.UTC(2026, 0, 2, 9) / 1000,
      strategy_name: 'Four hours',
      feeds: [
        { symbol_id: 'EURUSD', period: '4h' },
        { symbol_id: 'NOPE', period: '4h' },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe('feeds[1]: Unknown symbol: NOPE');
  });

  it("gives main the other feed's bars closed by each replayed close, dated by their close", async () => {
    const hours: Bar[] = market.bars('XAUUSD', '1h', NOW, 40, NOW);
    const startBar = hours[hours.length - 13] as Bar;
    const res = await call('POST', '/api/replays', {
      symbol_id: 'XAUUSD',
      period: '1h',
      start: startBar.time / 1000,
      strategy_name: 'Four hours',
      feeds: [{ symbol_id: 'EURUSD', period: '4h' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = replayStartedSchema.parse(res.json()).id;
    for (let i = 0; i < 8; i++) {
      const stepped = await call('POST', `/api/replays/${id}/step`, { bars: 1 });
      expect(stepped.statusCode, stepped.body).toBe(200);
    }
    const replay = replayViewSchema.parse((await call('GET', `/api/replays/${id}`)).json());
    expect(replay.feeds).toEqual([{ symbol_id: 'EURUSD', period: '4h' }]);
    expect(replay.evaluations).toHaveLength(9);
    let boundaries = 0;
    for (const evaluation of replay.evaluations) {
      expect(evaluation.error).toBeNull();
      const close = evaluation.bar_time * 1000 + HOUR;
      const fourHours = evaluation.printed.filter(
        (line) => !line.startsWith('last') && line.endsWith(' EURUSD 4h'),
      );
      expect(fourHours.length).toBeGreaterThan(0);
      // no 4-hour bar that has not closed by the replayed close
      for (const line of fourHours) {
        expect(line.slice(0, 19) <= formatContractDate(close), line).toBe(true);
      }
      if (close % (4 * HOUR) === 0) {
        boundaries += 1;
        // the one that closes now comes after the hour that closes with it
        expect(evaluation.printed.at(-1)).toBe(`last ${formatContractDate(close)} EURUSD 4h`);
      } else {
        expect(evaluation.printed.at(-1)).toMatch(/ XAUUSD 1h$/);
      }
    }
    expect(boundaries).toBeGreaterThanOrEqual(2);
  });
});
