import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginAs } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { SHIPPED_HISTORY_DIR } from '../real-history.ts';

let t: TestApp;
let cookie: string;
let otherCookie: string;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  const ann = await buildUser(t.db, { email: 'ann@example.com' });
  const bob = await buildUser(t.db, { email: 'bob@example.com' });
  const login = await loginAs(t.app, ann);
  cookie = login.cookie;
  userId = login.user.id;
  otherCookie = (await loginAs(t.app, bob)).cookie;
});
afterAll(async () => {
  await t.close();
});

const post = (payload: unknown, sid = cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/market/imports',
    payload: payload as object,
    cookies: { ct_sid: sid },
  });
const get = (url: string, sid?: string) =>
  t.app.inject({ method: 'GET', url, ...(sid ? { cookies: { ct_sid: sid } } : {}) });

describe('CSV import of a user instrument', () => {
  it('imports the shipped GOOG file as the user own daily history', async () => {
    const csv = readFileSync(path.join(SHIPPED_HISTORY_DIR, 'GOOG.csv'), 'utf8');
    const res = await post({ name: 'mygoog', csv });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      symbol: `MYGOOG.U${userId}`,
      name: 'mygoog',
      resolution: 'day',
      bars: 2148,
      from: Date.UTC(2004, 7, 19),
      to: Date.UTC(2013, 2, 1),
    });

    const weeks = (
      await get(`/trading/kline/lists?symbol=MYGOOG.U${userId}&cycel=week&limit=2`, cookie)
    ).json();
    expect(weeks.code).toBe(0);
    expect(weeks.data.lists.at(-1)).toMatchObject({ ctmFmt: '2013-02-25 00:00:00', close: 806.19 });

    const groups = (await get('/trading/symbol/groups', cookie)).json() as unknown[];
    expect(groups.at(-1)).toEqual([100, 'My Data', 'imported', [[`MYGOOG.U${userId}`, 'mygoog']]]);
  });

  it('keeps a user instrument private to its owner', async () => {
    const anonymous = (await get(`/trading/kline/lists?symbol=MYGOOG.U${userId}&cycel=day`)).json();
    expect(anonymous).toMatchObject({ code: 40400 });
    const other = (
      await get(`/trading/kline/lists?symbol=MYGOOG.U${userId}&cycel=day`, otherCookie)
    ).json();
    expect(other).toMatchObject({ code: 40400 });
    const otherGroups = (await get('/trading/symbol/groups', otherCookie)).json() as unknown[];
    expect(otherGroups.some((g) => Array.isArray(g) && g[0] === 100)).toBe(false);
  });

  it('refuses periods finer than the imported bars', async () => {
    const res = (
      await get(`/trading/kline/lists?symbol=MYGOOG.U${userId}&cycel=1h`, cookie)
    ).json();
    expect(res).toMatchObject({
      code: 40000,
      msg: 'mygoog has day bars: choose day or a longer period',
    });
  });

  it('refuses a bad file naming the row and column, and imports nothing', async () => {
    const csv =
      ',Open,High,Low,Close,Volume\n2024-01-02,1,2,0.5,1.5,10\n2024-01-03,1,2,0.5,oops,10\n';
    const res = await post({ name: 'broken', csv });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 40000,
      detail: "CSV row 3, column 5: Not a number: 'oops'. Nothing was imported.",
    });
    const list = (await get('/api/market/imports', cookie)).json();
    expect(list.imports.map((i: { name: string }) => i.name)).toEqual(['mygoog']);
  });

  it('validates the name and needs a session', async () => {
    expect((await post({ name: 'bad name!', csv: 'x' })).json()).toMatchObject({ code: 40000 });
    expect((await post({ name: 'x' })).json()).toMatchObject({ code: 40000 });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/market/imports',
      payload: { name: 'a', csv: 'b' },
    });
    expect(anonymous.json()).toMatchObject({ code: 50002 });
  });

  it('deletes the user own instrument only', async () => {
    const del = (sid: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/market/imports/MYGOOG.U${userId}`,
        cookies: { ct_sid: sid },
      });
    expect((await del(otherCookie)).json()).toMatchObject({ code: 40400 });
    expect((await del(cookie)).json()).toEqual({ deleted: `MYGOOG.U${userId}` });
    const gone = (
      await get(`/trading/kline/lists?symbol=MYGOOG.U${userId}&cycel=day`, cookie)
    ).json();
    expect(gone).toMatchObject({ code: 40400 });
  });
});
