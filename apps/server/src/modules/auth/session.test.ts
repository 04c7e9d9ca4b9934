import { envelopeSchema, sessionInfoSchema } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginAs, type BuiltUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { newToken } from './tokens.ts';

const SESSION = '/user/api/v1/account/session';
const LOGOUT = '/user/api/v1/account/logout';
const AUTH_FAILED = { code: 50002, msg: 'Token验证失败', data: null };

let t: TestApp;
let alice: BuiltUser;
let bob: BuiltUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await buildUser(t.db);
  bob = await buildUser(t.db);
});
afterAll(() => t.close());

const getSession = (cookie: string | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: SESSION,
    headers,
    ...(cookie === undefined ? {} : { cookies: { ct_sid: cookie } }),
  });

describe('GET /user/api/v1/account/session', () => {
  it('names the user of the session', async () => {
    const { cookie, user } = await loginAs(t.app, alice);
    const res = await getSession(cookie);
    expect(res.statusCode).toBe(200);
    envelopeSchema(sessionInfoSchema).parse(res.json());
    expect(res.json()).toEqual({
      code: 0,
      msg: 'success',
      data: { userId: user.id, userName: alice.email },
    });
  });

  it('accepts x-user-id and x-user-name that match the session user', async () => {
    const { cookie, user } = await loginAs(t.app, alice);
    const res = await getSession(cookie, {
      'x-user-id': String(user.id),
      'x-user-name': alice.email.toUpperCase(),
    });
    expect(res.json()).toMatchObject({ code: 0 });
  });

  it.each([
    ['no cookie', undefined],
    ['a malformed cookie', 'not-a-token'],
    ['an unknown token', newToken()],
  ])('answers 401 / 50002 for %s', async (_label, cookie) => {
    const res = await getSession(cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(AUTH_FAILED);
  });

  it('answers 50002 for a forged x-user-id', async () => {
    const { cookie } = await loginAs(t.app, alice);
    const res = await getSession(cookie, { 'x-user-id': String(bob.user.id) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(AUTH_FAILED);
  });

  it('answers 50002 for a mismatched x-user-name', async () => {
    const { cookie, user } = await loginAs(t.app, alice);
    const res = await getSession(cookie, {
      'x-user-id': String(user.id),
      'x-user-name': bob.email,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(AUTH_FAILED);
  });

  it('expires after SESSION_TTL_HOURS', async () => {
    const { cookie } = await loginAs(t.app, alice);
    t.clock.advance(168 * 3600 * 1000 - 1000);
    expect((await getSession(cookie)).statusCode).toBe(200);
    t.clock.advance(1000);
    const res = await getSession(cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(AUTH_FAILED);
  });
});

describe('POST /user/api/v1/account/logout', () => {
  it('revokes the session at once and clears the cookie', async () => {
    const { cookie } = await loginAs(t.app, alice);
    const res = await t.app.inject({ method: 'POST', url: LOGOUT, cookies: { ct_sid: cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, msg: 'Logged out', data: null });
    const cleared = res.cookies.find((c) => c.name === 'ct_sid');
    expect(cleared?.value).toBe('');
    expect(cleared?.path).toBe('/');

    expect((await getSession(cookie)).json()).toEqual(AUTH_FAILED);
  });

  it('accepts an empty JSON body (clients that always send the JSON content type)', async () => {
    const { cookie } = await loginAs(t.app, alice);
    const res = await t.app.inject({
      method: 'POST',
      url: LOGOUT,
      cookies: { ct_sid: cookie },
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.json()).toMatchObject({ code: 0 });
  });

  it('leaves the other sessions of the user alone', async () => {
    const first = await loginAs(t.app, alice);
    const second = await loginAs(t.app, alice);
    await t.app.inject({ method: 'POST', url: LOGOUT, cookies: { ct_sid: first.cookie } });
    expect((await getSession(second.cookie)).statusCode).toBe(200);
  });

  it('answers 50002 without a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: LOGOUT });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(AUTH_FAILED);
  });
});
