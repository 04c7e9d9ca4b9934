import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { insertRun } from '../backtest/store.ts';
import { caller, login, type Session } from '../../test/backtest.ts';

let t: TestApp;
let alice: Session;
let bob: Session;
let asAlice: ReturnType<typeof caller>;
let asBob: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  alice = await login(t.app, await buildUser(t.db));
  bob = await login(t.app, await buildUser(t.db));
  asAlice = caller(t.app, alice.cookie);
  asBob = caller(t.app, bob.cookie);
});
afterAll(() => t.close());

const CODE = 'def main(data_array):\n    return []\n';
const NOW_S = Math.floor(Date.UTC(2026, 0, 5, 9, 0, 0) / 1000); // the test clock

describe('authorization', () => {
  it.each([
    ['GET', '/api/strategies/'],
    ['POST', '/api/strategies/'],
    ['DELETE', '/api/strategies/x'],
    ['POST', '/api/strategy-results/'],
    ['GET', '/api/strategy-results/x'],
    ['GET', '/api/strategy-results/x/1'],
    ['GET', '/api/strategy-results/x/1/deals'],
    ['DELETE', '/api/strategy-results/x/1'],
  ] as const)('%s %s without a session answers 50002', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 50002, detail: 'Token验证失败' });
  });
});

describe('strategies', () => {
  it('creates, refuses a duplicate create, upserts and lists per user', async () => {
    const created = await asAlice('POST', '/api/strategies/', {
      name: 'Trend',
      code: CODE,
      create: true,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({
      name: 'Trend',
      code: CODE,
      created_at: NOW_S,
      updated_at: NOW_S,
      created: true,
    });

    const dup = await asAlice('POST', '/api/strategies/', {
      name: 'Trend',
      code: 'x',
      create: true,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      code: 40900,
      msg: 'Strategy already exists: Trend',
      detail: 'Strategy already exists: Trend',
    });

    t.clock.advance(60_000);
    const updated = await asAlice('POST', '/api/strategies/', {
      name: 'Trend',
      code: `${CODE}# v2\n`,
    });
    expect(updated.json()).toMatchObject({
      created: false,
      updated_at: NOW_S + 60,
      created_at: NOW_S,
    });
    // create defaults to false: an unknown name is created
    const upserted = await asAlice('POST', '/api/strategies', { name: 'Alpha  ', code: CODE });
    expect(upserted.json()).toMatchObject({ name: 'Alpha', created: true });

    const list = await asAlice('GET', '/api/strategies/');
    expect(list.json<{ strategies: { name: string; code: string }[] }>().strategies).toEqual([
      { name: 'Alpha', code: CODE, created_at: NOW_S + 60, updated_at: NOW_S + 60 },
      { name: 'Trend', code: `${CODE}# v2\n`, created_at: NOW_S, updated_at: NOW_S + 60 },
    ]);
    expect((await asBob('GET', '/api/strategies')).json()).toEqual({ strategies: [] });
    // bob may use the same name for his own
    expect(
      (await asBob('POST', '/api/strategies/', { name: 'Trend', code: 'b', create: true }))
        .statusCode,
    ).toBe(200);
  });

  it('deletes own strategies only', async () => {
    await asAlice('POST', '/api/strategies/', { name: 'Temp strategy', code: CODE, create: true });
    const foreign = await asBob('DELETE', `/api/strategies/${encodeURIComponent('Temp strategy')}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ detail: 'Strategy not found: Temp strategy' });
    const own = await asAlice('DELETE', `/api/strategies/${encodeURIComponent('Temp strategy')}`);
    expect(own.json()).toEqual({ deleted: 'Temp strategy' });
    expect((await asAlice('DELETE', '/api/strategies/Temp%20strategy')).statusCode).toBe(404);
  });

  it.each(['Default', 'default', 'Default Strategy'])(
    '%s is read-only and reserved',
    async (name) => {
      for (const res of [
        await asAlice('POST', '/api/strategies/', { name, code: CODE }),
        await asAlice('DELETE', `/api/strategies/${encodeURIComponent(name)}`),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          code: 40000,
          detail: 'Default strategy cannot be modified',
        });
      }
    },
  );

  it.each([
    [{ name: '   ', code: CODE }, 'name: Please enter a strategy name'],
    [{ code: CODE }, 'name: Invalid input: expected string, received undefined'],
    [
      { name: 'a/b', code: CODE },
      'name: Strategy name must not contain /, \\ or control characters',
    ],
    [{ name: 'x'.repeat(101), code: CODE }, 'name: Strategy name must be at most 100 characters'],
    [
      { name: 'big', code: 'x'.repeat(256 * 1024 + 1) },
      'code: code must be at most 262144 characters',
    ],
    [{ name: 'n', code: 5 }, 'code: Invalid input: expected string, received number'],
    [
      { name: 'n', code: CODE, create: 'yes' },
      'create: Invalid input: expected boolean, received string',
    ],
  ])('bad input %# answers 400', async (payload, detail) => {
    const res = await asAlice('POST', '/api/strategies/', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 40000, detail });
  });
});

describe('strategy results', () => {
  const performance = { 净利润: 12.5, 胜率: 0.5, 交易次数: 2 };
  const deals = [{ open_date: '2024-01-01 00:00:00', profit: 12.5 }];

  beforeAll(async () => {
    await asAlice('POST', '/api/strategies/', { name: 'Results', code: CODE, create: true });
  });

  it('saves and lists results newest first, with total, filtered by symbol, paged', async () => {
    for (const [i, symbol] of ['GOOG', 'GOOG', 'EURUSD'].entries()) {
      const res = await asAlice('POST', '/api/strategy-results/', {
        strategy_name: 'Results',
        symbol_id: symbol,
        deals,
        performance: { ...performance, run: i },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        strategy_name: 'Results',
        symbol_id: symbol,
        error: null,
        run_id: null,
        has_logs: false,
        created_at: expect.any(Number),
      });
    }
    const all = await asAlice('GET', '/api/strategy-results/Results');
    const body = all.json<{
      results: { symbol_id: string; performance: { run: number } }[];
      total: number;
    }>();
    expect(body.total).toBe(3);
    expect(body.results.map((r) => r.performance.run)).toEqual([2, 1, 0]);

    const goog = await asAlice(
      'GET',
      '/api/strategy-results/Results?symbol_id=GOOG&skip=1&limit=1',
    );
    const page = goog.json<{
      results: { id: number; performance: { run: number }; deal_count: number }[];
      total: number;
    }>();
    expect(page.total).toBe(2);
    expect(page.results.map((r) => r.performance.run)).toEqual([0]);
    // the listing carries no deals, only their count; the deals come page by page
    expect(page.results[0]).not.toHaveProperty('deals');
    expect(page.results[0]?.deal_count).toBe(1);
    const id = page.results[0]?.id ?? 0;
    const dealsPage = await asAlice('GET', `/api/strategy-results/Results/${id}/deals`);
    expect(dealsPage.json()).toEqual({ deals, total: 1 });
  });

  it('keeps the run log when saved from a kept run, and takes the run’s own figures', async () => {
    const runId = randomUUID();
    await insertRun(t.db, {
      runId,
      userId: alice.user.user.id,
      clientId: 'c',
      strategyName: 'Results',
      filename: 's.py',
      symbol: 'GOOG',
      period: 'day',
      code: CODE,
      status: 'error',
      error: 'ValueError: x',
      errorKind: 'strategy',
      logs: ['a', 'b'],
      deals: [],
      performance: null,
      barCount: 3,
      elapsedMs: 12,
      createdAt: NOW_S,
    });
    const saved = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Results',
      symbol_id: 'GOOG',
      deals: [{ forged: true }],
      performance: { 净利润: 1e9 },
      run_id: runId,
    });
    expect(saved.json()).toMatchObject({
      deal_count: 0,
      performance: null,
      error: 'ValueError: x',
      run_id: runId,
      has_logs: true,
    });
    const id = saved.json<{ id: number }>().id;
    const one = await asAlice('GET', `/api/strategy-results/Results/${id}`);
    expect(one.json()).toMatchObject({ id, logs: ['a', 'b'], error: 'ValueError: x' });

    // another user's run cannot be borrowed
    await asBob('POST', '/api/strategies/', { name: 'Results', code: CODE });
    const borrowed = await asBob('POST', '/api/strategy-results/', {
      strategy_name: 'Results',
      symbol_id: 'GOOG',
      run_id: runId,
    });
    expect(borrowed.statusCode).toBe(404);
    expect(borrowed.json()).toMatchObject({ detail: `Run not found: ${runId}` });
    expect((await asBob('GET', `/api/strategy-results/Results/${id}`)).statusCode).toBe(404);
  });

  it('answers 404 for an unknown strategy and an empty list for Default', async () => {
    const unknown = await asAlice('GET', '/api/strategy-results/Nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ detail: 'Strategy not found: Nope' });
    const save = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Nope',
      symbol_id: 'GOOG',
      deals: [],
      performance: {},
    });
    expect(save.statusCode).toBe(404);
    expect((await asAlice('GET', '/api/strategy-results/Default')).json()).toEqual({
      results: [],
      total: 0,
    });
    expect((await asAlice('GET', '/api/strategy-results/Results/abc')).statusCode).toBe(404);
  });

  it.each([
    ['?limit=0', 'limit: limit must be at least 1'],
    ['?limit=101', 'limit: limit must be at most 100'],
    ['?skip=-1', 'skip: skip must be at least 0'],
    ['?skip=x', 'skip: skip must be an integer'],
  ])('bad query %s answers 400', async (query, detail) => {
    const res = await asAlice('GET', `/api/strategy-results/Results${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ detail });
  });

  it.each([
    [{ symbol_id: 'GOOG', deals: [] }, /^strategy_name: /],
    [{ strategy_name: 'Results', deals: [] }, /^symbol_id: /],
    [{ strategy_name: 'Results', symbol_id: 'GOOG', deals: 'x' }, /^deals: /],
    [{ strategy_name: 'Results', symbol_id: 'GOOG', deals: [1] }, /^deals\.0: /],
    [{ strategy_name: 'Results', symbol_id: 'GOOG', performance: [] }, /^performance: /],
    [
      { strategy_name: 'Results', symbol_id: 'GOOG', run_id: 'r1' },
      /^run_id: run_id must be a run id/,
    ],
  ])('bad result %# answers 400', async (payload, detail) => {
    const res = await asAlice('POST', '/api/strategy-results/', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toMatch(detail);
  });

  it('deleting a strategy deletes its results', async () => {
    await asAlice('POST', '/api/strategies/', { name: 'Short-lived', code: CODE, create: true });
    await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Short-lived',
      symbol_id: 'GOOG',
      deals,
      performance,
    });
    await asAlice('DELETE', '/api/strategies/Short-lived');
    await asAlice('POST', '/api/strategies/', { name: 'Short-lived', code: CODE, create: true });
    expect((await asAlice('GET', '/api/strategy-results/Short-lived')).json()).toEqual({
      results: [],
      total: 0,
    });
  });
});
