import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonPieces, jsonByteLength, jsonText } from '../../http/json-stream.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { migrationsUpTo, migrationTime } from '../../test/migrations.ts';
import { DEALS_PER_CHUNK, allRunDeals, findRun } from './store.ts';
import { TRADE_EVERY_BAR, caller, dailyBars, login, testSandbox } from '../../test/backtest.ts';

/*
 * A run's deals are kept in pieces and its answers are written as a stream: the answers are
 * the bytes JSON.stringify gives, the pieces hold the deals in order, and runs kept before
 * the pieces existed are moved into them by the migration.
 */

const DEALS_MIGRATION = '0018_backtest_run_deals';

async function streamed(value: unknown): Promise<string> {
  let text = '';
  for await (const part of jsonText(value)) text += part;
  return text;
}

describe('answers written as a stream', () => {
  it('are the bytes JSON.stringify gives', async () => {
    const deals = Array.from({ length: 1234 }, (_, i) => ({
      open_date: `2024/01/01 00:${String(i % 60).padStart(2, '0')}:00`,
      close_date: i % 7 === 0 ? null : 'x',
      profit: i / 3,
      note: i % 5 === 0 ? undefined : 'é"\\\n\u2028',
      when: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
    }));
    const values: unknown[] = [
      {
        a: 1,
        skip: undefined,
        f: () => 1,
        deals,
        nested: { curve: deals.map((d) => [d.open_date, d.profit]) },
      },
      deals,
      [],
      {},
      'text',
      12.5,
      null,
      { d: new Date(0), n: Number.NaN, list: [undefined, () => 1, 1] },
    ];
    for (const value of values) {
      const text = await streamed(value);
      expect(text).toBe(JSON.stringify(value));
      expect(await jsonByteLength(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
    }
  });

  it('write pieces of an array as one array', async () => {
    const all = Array.from({ length: 1001 }, (_, i) => ({ i }));
    const pieces = new JsonPieces(async function* () {
      yield all.slice(0, 500);
      yield all.slice(500, 1000);
      yield all.slice(1000);
    });
    expect(await streamed({ a: 1, deals: pieces, b: [] })).toBe(
      JSON.stringify({ a: 1, deals: all, b: [] }),
    );
    const none = new JsonPieces(async function* () {});
    expect(await streamed({ deals: none })).toBe('{"deals":[]}');
  });
});

describe('a run with many deals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { sandbox: testSandbox({ uidBase: 67_000 }) } });
  });
  afterAll(() => t.close());

  it('is answered, kept in pieces and read back as JSON.stringify writes it', async () => {
    const user = await buildUser(t.db);
    const as = caller(t.app, (await login(t.app, user)).cookie);
    const bars = dailyBars(3000);
    // a result of about 400 KB: read, checked and computed in a body worker
    const code = TRADE_EVERY_BAR;
    const res = await as('POST', '/api/backtest/code', { code, historical_data: bars });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{
      run_id: string;
      deals: unknown[];
      performance: unknown;
      error: null;
    }>();
    expect(answer.error).toBeNull();
    expect(answer.deals).toHaveLength(2999);
    expect(res.body).toBe(JSON.stringify(answer));

    const read = await as('GET', `/api/backtest/runs/${answer.run_id}`);
    expect(read.statusCode).toBe(200);
    const run = read.json<{ deals: unknown[]; performance: unknown }>();
    expect(read.body).toBe(JSON.stringify(run));
    expect(run.deals).toEqual(answer.deals);
    expect(run.performance).toEqual(answer.performance);

    const pieces = await t.db.execute<{ seq: number; n: number }>(
      sql`select seq, jsonb_array_length(deals) as n from backtest_run_deals where run_id = ${answer.run_id} order by seq`,
    );
    expect((pieces as unknown as { rows: unknown[] }).rows).toEqual(
      [0, 1, 2, 3, 4, 5].map((seq) => ({ seq, n: Math.min(DEALS_PER_CHUNK, 2999 - seq * 500) })),
    );
    expect((await findRun(t.db, user.user.id, answer.run_id))?.dealCount).toBe(2999);
  });

  it('kept before the pieces is moved into them by the migration, in order', async () => {
    const user = await buildUser(t.db);
    // the database as it was before: deals in the run's row, the migration not applied
    await t.db.execute(sql`drop table backtest_run_deals`);
    await t.db.execute(sql`alter table backtest_runs drop column deal_count`);
    await t.db.execute(sql`alter table backtest_runs add column deals jsonb not null default '[]'`);
    // forget this migration (and any after it), then apply the migrations up to it again
    await t.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at >= ${migrationTime(DEALS_MIGRATION)}`,
    );
    const deals = Array.from({ length: 1201 }, (_, i) => ({ n: i, open_date: `d${i}` }));
    const old = (runId: string, list: unknown[]) =>
      t.db.execute(sql`insert into backtest_runs
        (run_id, user_id, filename, symbol, period, code, status, logs, deals, bar_count, elapsed_ms, created_at)
        values (${runId}, ${user.user.id}, 'a.py', 'X', '1d', '', 'ok', '[]', ${JSON.stringify(list)}::jsonb, 1, 1, 1)`);
    const many = '00000000-0000-4000-8000-000000000001';
    const none = '00000000-0000-4000-8000-000000000002';
    await old(many, deals);
    await old(none, []);

    if (t.database.kind !== 'pglite') throw new Error('tests run on PGlite');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-run-deals-'));
    try {
      await migrate(t.database.db, { migrationsFolder: migrationsUpTo(dir, DEALS_MIGRATION) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    expect((await findRun(t.db, user.user.id, many))?.dealCount).toBe(1201);
    expect(await allRunDeals(t.db, many)).toEqual(deals);
    expect((await findRun(t.db, user.user.id, none))?.dealCount).toBe(0);
    expect(await allRunDeals(t.db, none)).toEqual([]);
    const as = caller(t.app, (await login(t.app, user)).cookie);
    const read = await as('GET', `/api/backtest/runs/${many}`);
    expect(read.statusCode).toBe(200);
    expect(read.json<{ deals: unknown[] }>().deals).toEqual(deals);
  });
});
