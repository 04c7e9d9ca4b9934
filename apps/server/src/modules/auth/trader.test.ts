import { envelopeSchema, traderInfoSchema } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrader, buildUser, loginAs, type BuiltUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

const TRADER = '/user/api/v1/account/trader';
const AUTH_FAILED = { code: 50002, msg: 'Token验证失败', data: null };

let t: TestApp;
let alice: BuiltUser;
let bob: BuiltUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await buildUser(t.db, { accounts: 2 });
  bob = await buildUser(t.db, { accounts: 1 });
});
afterAll(() => t.close());

const getTrader = (cookie: string, query: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: TRADER, cookies: { ct_sid: cookie }, query });

describe('GET /user/api/v1/account/trader', () => {
  it('answers the account for its uuid and the token of this login', async () => {
    const { cookie, user } = await loginAs(t.app, alice);
    const trader = user.traders[1];
    const res = await getTrader(cookie, { uuid: trader?.uuid ?? '', token: trader?.token ?? '' });
    expect(res.statusCode).toBe(200);
    envelopeSchema(traderInfoSchema.strict()).parse(res.json());
    expect(res.json()).toEqual({
      code: 0,
      msg: 'success',
      data: {
        uuid: trader?.uuid,
        name: trader?.name,
        level: trader?.level,
        type: trader?.type,
        channel: 1,
      },
    });
  });

  it('answers 50002 for a wrong token', async () => {
    const { cookie, user } = await loginAs(t.app, alice);
    const [first, second] = user.traders;
    const res = await getTrader(cookie, { uuid: first?.uuid ?? '', token: second?.token ?? '' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(AUTH_FAILED);
  });

  it("answers 50002 for another user's account and token, even with both valid", async () => {
    const mine = await loginAs(t.app, alice);
    const theirs = await loginAs(t.app, bob);
    const other = theirs.user.traders[0];
    const res = await getTrader(mine.cookie, {
      uuid: other?.uuid ?? '',
      token: other?.token ?? '',
    });
    expect(res.json()).toEqual(AUTH_FAILED);
  });

  it('answers 50002 for an account added after the login (no token issued yet)', async () => {
    const { cookie, user } = await loginAs(t.app, alice);
    const extra = await buildTrader(t.db, alice.user.id, { name: 'Later' });
    const res = await getTrader(cookie, { uuid: extra.uuid, token: user.traders[0]?.token ?? '' });
    expect(res.json()).toEqual(AUTH_FAILED);
  });

  it("keeps an older login's tokens valid with that login's session, not with a newer one", async () => {
    const old = await loginAs(t.app, alice);
    const fresh = await loginAs(t.app, alice);
    const oldTrader = old.user.traders[0];
    const creds = { uuid: oldTrader?.uuid ?? '', token: oldTrader?.token ?? '' };

    expect((await getTrader(old.cookie, creds)).json()).toMatchObject({ code: 0 });
    expect((await getTrader(fresh.cookie, creds)).json()).toEqual(AUTH_FAILED);
  });

  it('stops the tokens at logout and at session expiry', async () => {
    const a = await loginAs(t.app, alice);
    const tr = a.user.traders[0];
    const creds = { uuid: tr?.uuid ?? '', token: tr?.token ?? '' };
    await t.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/logout',
      cookies: { ct_sid: a.cookie },
    });
    expect((await getTrader(a.cookie, creds)).json()).toEqual(AUTH_FAILED);

    const b = await loginAs(t.app, alice);
    const trB = b.user.traders[0];
    t.clock.advance(168 * 3600 * 1000);
    const res = await getTrader(b.cookie, { uuid: trB?.uuid ?? '', token: trB?.token ?? '' });
    expect(res.json()).toEqual(AUTH_FAILED);
  });

  it('answers 400 naming the field when uuid or token is missing', async () => {
    const { cookie, user } = await loginAs(t.app, alice);
    const res = await getTrader(cookie, { uuid: user.traders[0]?.uuid ?? '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 40000, data: null });
    expect(res.json<{ msg: string }>().msg).toMatch(/^token: /);
  });

  it('checks the session before the query', async () => {
    const res = await t.app.inject({ method: 'GET', url: TRADER });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(AUTH_FAILED);
  });
});
