import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import type { NewRun } from '../backtest/store.ts';
import { caller, dailyBars, login, testSandbox, type Session } from '../../test/backtest.ts';
import { AUTOMATIC_RESULTS_PER_STRATEGY } from './service.ts';

/*
 * Every backtest of a saved strategy is kept in its run history by itself (the newest 50 per
 * strategy), beside the results the user saved with Save Results, which are never pruned
 * by it; automatic results give way to a save in the user's quota.
 */

type Listed = {
  id: number;
  symbol_id: string;
  run_id: string | null;
  error: string | null;
  automatic: boolean;
  deal_count: number;
  created_at: number;
};
type Page = { results: Listed[]; total: number };

const CODE = 'def main(d):\n    print("ran")\n    return []\n';
const BARS = dailyBars(60);

async function history(as: ReturnType<typeof caller>, strategy: string, limit = 100) {
  const res = await as(
    'GET',
    `/api/strategy-results/${encodeURIComponent(strategy)}?limit=${limit}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}

/** A stored run of `strategy` as the backtest service hands it over, `n` seconds in. */
function storedRun(userId: number, strategy: string | null, n: number, deals = 0): NewRun {
  return {
    runId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    userId,
    clientId: null,
    strategyName: strategy,
    filename: 'strategy.py',
    symbol: 'GOOG',
    period: '1d',
    code: CODE,
    status: 'ok',
    error: null,
    errorKind: null,
    logs: [`run ${n}`],
    deals: Array.from({ length: deals }, (_, i) => ({ start: i, lots: 1, profit: 1 })),
    performance: { 净利润: n, 胜率: 0.5, 交易次数: deals },
    barCount: 60,
    elapsedMs: 1,
    createdAt: 1_700_000_000 + n,
  };
}

describe('a strategy’s run history keeps its runs', () => {
  let t: TestApp;
  let alice: Session;
  let bob: Session;
  let asAlice: ReturnType<typeof caller>;
  let asBob: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await createTestApp({
      config: { sandbox: testSandbox({ uidBase: 66_000, maxPerUser: 2 }) },
    });
    alice = await login(t.app, await buildUser(t.db));
    bob = await login(t.app, await buildUser(t.db));
    asAlice = caller(t.app, alice.cookie);
    asBob = caller(t.app, bob.cookie);
    for (const name of ['Mine', 'Other']) {
      const res = await asAlice('POST', '/api/strategies/', { name, code: CODE, create: true });
      expect(res.statusCode).toBe(200);
    }
    await asBob('POST', '/api/strategies/', { name: 'Mine', code: CODE, create: true });
  });
  afterAll(() => t.close());

  async function backtest(code: string, strategy?: string) {
    const res = await asAlice('POST', '/api/backtest/code', {
      code,
      filename: 'mine.py',
      symbol: 'GOOG',
      period: '1d',
      historical_data: BARS,
      ...(strategy ? { strategy_name: strategy } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ run_id: string; error: string | null }>();
  }

  it('a run of a saved strategy is listed without Save Results, a failed one too', async () => {
    const ok = await backtest(CODE, 'Mine');
    const failed = await backtest('def main(d):\n    raise ValueError("no")\n', 'Mine');
    expect(failed.error).toMatch(/ValueError: no/);
    // the list is asked at once: the runs are stored after their answers
    const page = await history(asAlice, 'Mine');
    expect(page.total).toBe(2);
    expect(page.results.map((r) => [r.run_id, r.automatic, r.symbol_id])).toEqual([
      [failed.run_id, true, 'GOOG'],
      [ok.run_id, true, 'GOOG'],
    ]);
    expect(page.results[0]!.error).toMatch(/ValueError: no/);
    const detail = await asAlice('GET', `/api/strategy-results/Mine/${page.results[1]!.id}`);
    expect(detail.json()).toMatchObject({ logs: ['ran'], automatic: true });
  });

  it('runs of the Default strategy or of no strategy are in no history', async () => {
    await backtest(CODE);
    await backtest(CODE, 'Default');
    expect((await history(asAlice, 'Mine')).total).toBe(2);
    expect((await history(asAlice, 'Other')).total).toBe(0);
  });

  it('Save Results of a kept run keeps that row for good, marked saved', async () => {
    const before = await history(asAlice, 'Mine');
    const kept = before.results[1]!;
    const res = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Mine',
      symbol_id: 'GOOG',
      run_id: kept.run_id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: kept.id, automatic: false, run_id: kept.run_id });
    const after = await history(asAlice, 'Mine');
    expect(after.total).toBe(2);
    expect(after.results.map((r) => [r.id, r.automatic])).toEqual([
      [before.results[0]!.id, true],
      [kept.id, false],
    ]);
  });

  it(`keeps the newest ${AUTOMATIC_RESULTS_PER_STRATEGY} automatic runs per strategy; saved ones and other strategies’ stay`, async () => {
    const { strategies } = t.app.services.backtest;
    const userId = alice.user.user.id;
    await strategies.keepRunResult(storedRun(userId, 'Other', 1));
    for (let n = 100; n < 160; n += 1) await strategies.keepRunResult(storedRun(userId, 'Mine', n));
    const page = await history(asAlice, 'Mine');
    const automatic = page.results.filter((r) => r.automatic);
    expect(automatic).toHaveLength(AUTOMATIC_RESULTS_PER_STRATEGY);
    // newest first: runs 159 … 110; the two earlier real runs and runs 100 … 109 are gone
    expect(automatic[0]!.created_at).toBe(1_700_000_159);
    expect(automatic.at(-1)!.created_at).toBe(1_700_000_110);
    expect(page.results.filter((r) => !r.automatic)).toHaveLength(1);
    expect(page.total).toBe(AUTOMATIC_RESULTS_PER_STRATEGY + 1);
    expect((await history(asAlice, 'Other')).total).toBe(1);
  });

  it('another user sees none of them', async () => {
    expect(await history(asBob, 'Mine')).toEqual({ results: [], total: 0 });
    const [one] = (await history(asAlice, 'Mine', 1)).results;
    const res = await asBob('GET', `/api/strategy-results/Mine/${one!.id}`);
    expect(res.statusCode).toBe(404);
    expect((await asBob('GET', '/api/strategy-results/Other')).statusCode).toBe(404);
  });
});

describe('automatic runs and the results quota', () => {
  // the quota holds four and a half of the stored runs below (200 deals each)
  const sample = storedRun(0, 'Mine', 1, 200);
  const runBytes = [sample.deals, sample.performance, sample.logs]
    .map((part) => Buffer.byteLength(JSON.stringify(part)))
    .reduce((a, b) => a + b, 0);
  const QUOTA = Math.floor(4.5 * runBytes);
  let t: TestApp;
  let carol: Session;
  let asCarol: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await createTestApp({ config: { resultQuotaBytes: QUOTA } });
    carol = await login(t.app, await buildUser(t.db));
    asCarol = caller(t.app, carol.cookie);
    await asCarol('POST', '/api/strategies/', { name: 'Mine', code: CODE, create: true });
  });
  afterAll(() => t.close());

  const keep = (n: number) =>
    t.app.services.backtest.strategies.keepRunResult(storedRun(carol.user.user.id, 'Mine', n, 200));

  it('automatic runs fill the quota by giving way to newer ones', async () => {
    for (let n = 1; n <= 6; n += 1) await keep(n);
    const page = await history(asCarol, 'Mine');
    expect(page.results.map((r) => r.created_at - 1_700_000_000)).toEqual([6, 5, 4, 3]);
  });

  it('a save never fails for automatic runs: the oldest give way', async () => {
    const deals = Array.from({ length: 400 }, (_, i) => ({ start: i, lots: 1, profit: 1 }));
    const res = await asCarol('POST', '/api/strategy-results/', {
      strategy_name: 'Mine',
      symbol_id: 'GOOG',
      deals,
      performance: { 净利润: 1, 胜率: 1, 交易次数: 400 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await history(asCarol, 'Mine');
    expect(page.results.map((r) => (r.automatic ? r.created_at - 1_700_000_000 : 'saved'))).toEqual(
      ['saved', 6, 5],
    );
  });

  it('a save the saved results alone would take past the quota is still refused', async () => {
    const deals = Array.from({ length: 700 }, (_, i) => ({ start: i, lots: 1, profit: 1 }));
    const res = await asCarol('POST', '/api/strategy-results/', {
      strategy_name: 'Mine',
      symbol_id: 'GOOG',
      deals,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toMatch(/^Saved results would take /);
    // nothing was pruned for a save that could not be stored
    expect((await history(asCarol, 'Mine')).total).toBe(3);
  });
});
