import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginAs } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

/*
 * Per-user bounds of imports (IMPORTS_MAX_PER_USER, IMPORT_ROWS_MAX_PER_USER): refusals with
 * a detail and nothing imported; a re-import of the same name replaces (counts once); a
 * deletion gives its room back, and the bars' space is reclaimed (VACUUM after a delete).
 */

let t: TestApp;
let cookie: string;
let otherCookie: string;

beforeAll(async () => {
  t = await createTestApp({ config: { importLimits: { maxCount: 2, maxRows: 5000 } } });
  cookie = (await loginAs(t.app, await buildUser(t.db, { email: 'ann@example.com' }))).cookie;
  otherCookie = (await loginAs(t.app, await buildUser(t.db, { email: 'bob@example.com' }))).cookie;
});
afterAll(() => t.close());

/** `rows` daily bars from 2000-01-01. */
function csv(rows: number): string {
  const lines = ['Date,Open,High,Low,Close,Volume'];
  for (let i = 0; i < rows; i++) {
    const d = new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${d},1,2,0.5,1.5,10`);
  }
  return lines.join('\n');
}

const post = (name: string, rows: number, sid = cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/market/imports',
    payload: { name, csv: csv(rows) },
    cookies: { ct_sid: sid },
  });
const names = async (sid = cookie) =>
  (await t.app.inject({ method: 'GET', url: '/api/market/imports', cookies: { ct_sid: sid } }))
    .json<{ imports: { name: string }[] }>()
    .imports.map((i) => i.name);
const remove = (symbol: string) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/market/imports/${symbol}`,
    cookies: { ct_sid: cookie },
  });

async function barsPages(): Promise<number> {
  const result = await t.db.execute(
    sql`select pg_relation_size('imported_bars') / current_setting('block_size')::int as pages`,
  );
  const rows = (result as unknown as { rows: { pages: number | string }[] }).rows;
  return Number(rows[0]?.pages ?? 0);
}

describe('import limits', () => {
  it('refuses an import past the number of imports, with a detail; nothing is imported', async () => {
    expect((await post('one', 100)).statusCode).toBe(200);
    expect((await post('two', 100)).statusCode).toBe(200);
    // the same name again replaces: not a third import
    expect((await post('two', 200)).json()).toMatchObject({ bars: 200 });
    const third = await post('three', 100);
    expect(third.statusCode).toBe(422);
    expect(third.json()).toMatchObject({
      code: 42200,
      detail:
        'You have 2 imported instruments; at most 2 are allowed. Delete one first. Nothing was imported.',
    });
    expect(await names()).toEqual(['one', 'two']);
    // another user's imports are counted apart
    expect((await post('three', 100, otherCookie)).statusCode).toBe(200);
  });

  it('refuses an import past the rows of all imports together', async () => {
    const big = await post('two', 4901); // 100 (one) + 4901 > 5000
    expect(big.statusCode).toBe(422);
    expect(big.json<{ detail: string }>().detail).toBe(
      'Your imports would hold 5001 bars; at most 5000 are allowed together. Delete an import first. Nothing was imported.',
    );
    expect((await post('two', 4900)).json()).toMatchObject({ bars: 4900 });
  });

  it('gives a deleted import’s room back, and its bars’ space', async () => {
    const full = await barsPages();
    expect((await post('three', 100)).statusCode).toBe(422);
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/market/imports', cookies: { ct_sid: cookie } })
    )
      .json<{ imports: { name: string; symbol: string }[] }>()
      .imports.find((i) => i.name === 'two');
    expect((await remove(me?.symbol ?? '')).statusCode).toBe(200);
    // the last pages held the deleted bars: VACUUM gives them back to the file system
    expect(await barsPages()).toBeLessThan(full / 2);
    expect((await post('three', 100)).statusCode).toBe(200);
    expect(await names()).toEqual(['one', 'three']);
  });
});
