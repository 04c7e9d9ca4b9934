import { trialPerformance, type Deal, type Performance } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { caller, login, testSandbox } from '../../test/backtest.ts';

const UID_BASE = 64_000;

let t: TestApp;
let asAlice: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      sandbox: testSandbox({
        uidBase: UID_BASE,
        maxPerUser: 2,
        maxConcurrent: 2,
        timeoutMs: 20_000,
      }),
      logLevel: 'error',
      optimization: { maxTrials: 10, pollMs: 100, concurrency: 2, maxOpenPerUser: 10 },
    },
  });
  asAlice = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  t.app.services.optimization.startWorker();
}, 120_000);
afterAll(() => t.close());

/** Long GOOG and short gold for the second half of the data, PARAMS lots each. */
const PAIR = `PARAMS = {"lots": 1}


def main(data_array):
    goog = [row for row in data_array if row[1] == "GOOG"]
    gold = [row for row in data_array if row[1] == "XAUUSD"]
    assert gold, "no XAUUSD rows"
    trades = []
    for code, rows, side in (("GOOG", goog, 1), ("XAUUSD", gold, -1)):
        a, b = rows[len(rows) // 2], rows[-2]
        trades.append({"code": code, "open_date": a[0], "open_price": a[6], "close_date": b[0],
                       "close_price": b[6], "lots": side * PARAMS["lots"], "status": "YES"})
    return trades
`;

type Trial = {
  params: Record<string, number>;
  status: string;
  performance: unknown;
  error?: string;
};

describe('an optimisation on several feeds', () => {
  it('runs every trial on all the feeds, each trial equal to its backtest on the same feeds', async () => {
    const feeds = [{ symbol_id: 'XAUUSD', period: 'day' }];
    const res = await asAlice('POST', '/api/optimizations', {
      code: PAIR,
      symbol_id: 'GOOG',
      period: 'day',
      bars: 200,
      objective: 'net_profit',
      method: 'grid',
      params: { lots: { values: [1, 2] } },
      feeds,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ id: string }>().id;
    let done: { status: string; trials: Trial[] };
    for (;;) {
      const view = await asAlice('GET', `/api/optimizations/${id}?limit=10&sort=index`);
      done = view.json();
      if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(done.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(done.status).toBe('COMPLETED');
    for (const trial of done.trials) {
      expect(trial.status, trial.error).toBe('done');
      const single = await asAlice('POST', '/api/backtest/run', {
        code: PAIR.replace('"lots": 1', `"lots": ${trial.params.lots}`),
        symbol: 'GOOG',
        period: 'day',
        limit: 200,
        feeds,
      });
      const answer = single.json<{
        success: boolean;
        data: { deals: (Deal & { code: string })[]; performance: Performance };
      }>();
      expect(answer.success, single.body).toBe(true);
      expect(answer.data.deals.map((deal) => deal.code)).toEqual(['GOOG', 'XAUUSD']);
      expect(trial.performance).toEqual(
        trialPerformance(answer.data.deals, answer.data.performance),
      );
    }
  }, 240_000);

  it('refuses a feed of an unknown instrument with a detail', async () => {
    const res = await asAlice('POST', '/api/optimizations', {
      code: PAIR,
      symbol_id: 'GOOG',
      period: 'day',
      bars: 200,
      objective: 'net_profit',
      method: 'grid',
      params: { lots: { values: [1, 2] } },
      feeds: [{ symbol_id: 'NOPE', period: 'day' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe('feeds[0]: Unknown symbol: NOPE');
  });
});
