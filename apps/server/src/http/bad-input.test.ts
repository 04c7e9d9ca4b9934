import { count } from 'drizzle-orm';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema.ts';
import { buildUser, loginAs, loginBody, type BuiltUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';

const LOGIN = '/user/api/v1/account/login';

let t: TestApp;
let alice: BuiltUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await buildUser(t.db);
});
afterAll(() => t.close());

async function sessionCount(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(sessions);
  return row?.n ?? 0;
}

type Body = { status: number; msg: string; data: unknown[] };

describe('bad input to login answers 400 in the login shape and stores nothing', () => {
  const cases: [string, { payload: string | object; headers?: Record<string, string> }, RegExp][] =
    [
      [
        'malformed JSON',
        { payload: '{"user_name": ', headers: { 'content-type': 'application/json' } },
        /^Malformed JSON body$/,
      ],
      ['no body', { payload: '', headers: { 'content-type': 'application/json' } }, /^body: /],
      [
        'a JSON array',
        { payload: '[]', headers: { 'content-type': 'application/json' } },
        /^body: /,
      ],
      [
        'a missing password',
        { payload: { channel: 1, login_type: 2, user_name: 'a@b.co', device: 1 } },
        /password: /,
      ],
      [
        'a numeric user_name',
        { payload: { ...loginBody('x@y.z', 'pw'), user_name: 42 } },
        /user_name: /,
      ],
      ['a string channel', { payload: { ...loginBody('x@y.z', 'pw'), channel: '1' } }, /channel: /],
      ['an empty password', { payload: loginBody('x@y.z', '') }, /password: /],
      [
        'a form body',
        {
          payload: 'user_name=a&password=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        /content type/,
      ],
      [
        'text/plain',
        { payload: 'hello', headers: { 'content-type': 'text/plain' } },
        /content type/,
      ],
      [
        'prototype poisoning',
        {
          payload: '{"__proto__": {"admin": true}}',
          headers: { 'content-type': 'application/json' },
        },
        /./,
      ],
    ];

  it.each(cases)('%s', async (_label, request, msg) => {
    const before = await sessionCount();
    const res = await t.app.inject({ method: 'POST', url: LOGIN, ...request });
    expect(res.statusCode).toBe(400);
    const body = res.json<Body>();
    expect(body.status).toBe(40000);
    expect(body.data).toEqual([]);
    expect(body.msg).toMatch(msg);
    expect(Object.keys(body).sort()).toEqual(['data', 'msg', 'status']);
    expect(await sessionCount()).toBe(before);
  });

  it('a body over the limit: 413, announced or chunked, and nothing is stored', async () => {
    const before = await sessionCount();
    const huge = JSON.stringify({ ...loginBody('a@b.co', 'x'), padding: 'x'.repeat(64 * 1024) });
    const announced = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(announced.statusCode).toBe(413);
    expect(announced.json()).toEqual({ status: 41300, msg: 'Request body is too large', data: [] });
    // chunked: no Content-Length, the limit is found while reading
    const chunked = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload: Readable.from([huge.slice(0, 1000), huge.slice(1000)]),
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    expect(chunked.statusCode).toBe(413);
    expect(chunked.json()).toEqual({ status: 41300, msg: 'Request body is too large', data: [] });
    const api = await t.app.inject({
      method: 'POST',
      url: '/api/strategies/',
      payload: Readable.from(['{"name":"', 'x'.repeat(2 * 1024 * 1024), '"}']),
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    expect(api.statusCode).toBe(413);
    expect(api.json()).toMatchObject({ code: 41300, detail: 'Request body is too large' });
    expect(await sessionCount()).toBe(before);
  });

  it('keeps working after bad input (a real login still succeeds)', async () => {
    expect((await loginAs(t.app, alice)).user.id).toBe(alice.user.id);
  });
});

describe('bad input under /user answers 400 in the envelope shape', () => {
  it('names the wrongly typed query field', async () => {
    const { cookie } = await loginAs(t.app, alice);
    const res = await t.app.inject({
      method: 'GET',
      url: '/user/api/v1/account/trader?uuid=a&uuid=b&token=c',
      cookies: { ct_sid: cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 40000,
      msg: expect.stringMatching(/^uuid: /),
      data: null,
    });
  });
});

describe('unknown routes answer 404 in their family shape', () => {
  it('under /api', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 40400,
      msg: 'Route GET /api/nope not found',
      detail: 'Route GET /api/nope not found',
    });
  });

  it.each(['/user/api/v1/nope', '/trading/order/nope', '/connection/nope'])(
    'under %s',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 40400, msg: `Route GET ${url} not found`, data: null });
    },
  );

  it('for a wrong method on a known path', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/health' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 40400 });
  });
});

describe('unexpected errors', () => {
  it('answer 500 / 50000 without internals', async () => {
    const { buildApp } = await import('../app.ts');
    const app = await buildApp({ db: t.db, config: t.config, now: t.clock.now });
    app.get('/api/boom', async () => {
      throw new Error('secret internals');
    });
    app.get('/trading/boom', async () => {
      throw new Error('secret internals');
    });
    const api = await app.inject({ method: 'GET', url: '/api/boom' });
    expect(api.statusCode).toBe(500);
    expect(api.json()).toEqual({
      code: 50000,
      msg: 'Internal server error',
      detail: 'Internal server error',
    });
    const trading = await app.inject({ method: 'GET', url: '/trading/boom' });
    expect(trading.json()).toEqual({ code: 50000, msg: 'Internal server error', data: null });
    expect(trading.body).not.toContain('secret');
    await app.close();
  });
});
