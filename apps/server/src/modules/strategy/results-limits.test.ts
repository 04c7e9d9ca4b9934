import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { MIB } from '../backtest/sandbox/settings.ts';
import { caller, login, type Session } from '../../test/backtest.ts';

/*
 * Saved results' bounds (issue 18, item 2): a result's size and a user's total are limited
 * (413 / 422 with a `detail`, nothing stored), a listing carries no deals (its answer stays
 * small whatever was saved), and the deals come one bounded page at a time.
 */

const MAX = 1 * MIB;
const QUOTA = 3 * MIB;
let t: TestApp;
let alice: Session;
let bob: Session;
let asAlice: ReturnType<typeof caller>;
let asBob: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({ config: { resultMaxBytes: MAX, resultQuotaBytes: QUOTA } });
  alice = await login(t.app, await buildUser(t.db));
  bob = await login(t.app, await buildUser(t.db));
  asAlice = caller(t.app, alice.cookie);
  asBob = caller(t.app, bob.cookie);
  const code = 'def main(d):\n    return []\n';
  await asAlice('POST', '/api/strategies/', { name: 'Big', code, create: true });
  await asBob('POST', '/api/strategies/', { name: 'Big', code, create: true });
});
afterAll(() => t.close());

/** `n` deals of about 150 bytes each as JSON. */
function deals(n: number, from = 0) {
  return Array.from({ length: n }, (_, i) => ({
    start: from + i,
    open_date: '2024-01-01 00:00:00',
    close_date: '2024-01-02 00:00:00',
    lots: 1,
    open_price: 100 + i,
    close_price: 101 + i,
    profit: 1,
    status: 'YES',
  }));
}
const performance = { 净利润: 1, 胜率: 0.5, 交易次数: 1, equity_curve: [['2024/01/01', 1]] };

async function count(as: ReturnType<typeof caller>) {
  return (await as('GET', '/api/strategy-results/Big')).json<{ total: number }>().total;
}

describe('size limits', () => {
  it('a result over the size limit is refused with 413 and a detail; nothing is stored', async () => {
    const big = deals(7050); // ≈ 1.05 MiB: a body the route reads, a result over the limit
    const res = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Big',
      symbol_id: 'GOOG',
      deals: big,
      performance,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ detail: string }>().detail).toMatch(
      /^The result is 1\.0\d MiB; a saved result may be at most 1 MiB$/,
    );
    expect(await count(asAlice)).toBe(0);
  });

  it('a body announced far larger is refused before it is read (413)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/strategy-results/',
      cookies: { ct_sid: alice.cookie },
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ strategy_name: 'Big', symbol_id: 'GOOG', deals: deals(20_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ detail: string }>().detail).toMatch(/a saved result may be at most 1 MiB/);
    expect(await count(asAlice)).toBe(0);
  });

  it('saves until the quota, then refuses with 422; another user is not affected; deleting frees room', async () => {
    const near = deals(6000); // ≈ 0.9 MiB each
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await asAlice('POST', '/api/strategy-results/', {
        strategy_name: 'Big',
        symbol_id: 'GOOG',
        deals: near,
        performance,
      });
      expect(res.statusCode, res.body).toBe(200);
      const saved = res.json<{ id: number; size_bytes: number; deal_count: number }>();
      expect(saved.deal_count).toBe(6000);
      expect(saved.size_bytes).toBeGreaterThan(0.8 * MIB);
      ids.push(saved.id);
    }
    const over = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Big',
      symbol_id: 'GOOG',
      deals: near,
      performance,
    });
    expect(over.statusCode).toBe(422);
    expect(over.json<{ detail: string }>().detail).toMatch(
      /^Saved results would take 3\.\d\d MiB of your 3 MiB; delete older results first$/,
    );
    expect(await count(asAlice)).toBe(3);

    const bobs = await asBob('POST', '/api/strategy-results/', {
      strategy_name: 'Big',
      symbol_id: 'GOOG',
      deals: near,
      performance,
    });
    expect(bobs.statusCode).toBe(200);

    // bob cannot delete alice's result; alice can, and then saves again
    expect((await asBob('DELETE', `/api/strategy-results/Big/${ids[0]}`)).statusCode).toBe(404);
    const deleted = await asAlice('DELETE', `/api/strategy-results/Big/${ids[0]}`);
    expect(deleted.json()).toEqual({ deleted: ids[0] });
    const again = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Big',
      symbol_id: 'GOOG',
      deals: near,
      performance,
    });
    expect(again.statusCode).toBe(200);
  });
});

describe('listing and deals', () => {
  it('a listing of the largest page carries no deals and no curve: its answer stays small', async () => {
    const res = await asAlice('GET', '/api/strategy-results/Big?limit=100');
    const body = res.json<{ results: Record<string, unknown>[]; total: number }>();
    expect(body.total).toBe(3);
    for (const row of body.results) {
      expect(row).not.toHaveProperty('deals');
      expect(row.performance).toEqual({ 净利润: 1, 胜率: 0.5, 交易次数: 1 });
      expect(row.deal_count).toBe(6000);
    }
    // three results of ~0.9 MiB each listed in well under a kilobyte each
    expect(res.body.length).toBeLessThan(body.results.length * 1024);
  });

  it('the single result has the curve and no deals; deals come in bounded pages', async () => {
    const [first] = (await asAlice('GET', '/api/strategy-results/Big?limit=1')).json<{
      results: { id: number }[];
    }>().results;
    const id = first?.id ?? 0;
    const one = (await asAlice('GET', `/api/strategy-results/Big/${id}`)).json<
      Record<string, unknown>
    >();
    expect(one).not.toHaveProperty('deals');
    expect(one.performance).toEqual(performance);

    const page = await asAlice('GET', `/api/strategy-results/Big/${id}/deals?skip=5990&limit=1000`);
    const body = page.json<{ deals: { start: number }[]; total: number }>();
    expect(body.total).toBe(6000);
    expect(body.deals.map((d) => d.start)).toEqual(Array.from({ length: 10 }, (_, i) => 5990 + i));
    const first3 = (await asAlice('GET', `/api/strategy-results/Big/${id}/deals?limit=3`)).json<{
      deals: { start: number }[];
    }>();
    expect(first3.deals.map((d) => d.start)).toEqual([0, 1, 2]);
    const past = (await asAlice('GET', `/api/strategy-results/Big/${id}/deals?skip=7000`)).json<{
      deals: unknown[];
      total: number;
    }>();
    expect(past).toEqual({ deals: [], total: 6000 });

    expect(
      (await asAlice('GET', `/api/strategy-results/Big/${id}/deals?limit=1001`)).json(),
    ).toMatchObject({
      detail: 'limit: limit must be at most 1000',
    });
    expect((await asBob('GET', `/api/strategy-results/Big/${id}/deals`)).statusCode).toBe(404);
    expect((await asAlice('GET', `/api/strategy-results/Big/999999/deals`)).statusCode).toBe(404);
  });
});
