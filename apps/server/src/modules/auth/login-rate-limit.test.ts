import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginBody, type BuiltUser } from '../../test/factories.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../test/helpers.ts';

const LOGIN = '/user/api/v1/account/login';
const MINUTE = 60_000;
const BAD_CREDENTIALS = { status: 1, msg: 'Incorrect username or password', data: [] };

let t: TestApp;
let nextAddress = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every test gets its own client address so the address limit of one does not leak into another. */
const freshAddress = () => `10.9.${Math.floor(++nextAddress / 250)}.${nextAddress % 250}`;

const attempt = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: LOGIN, payload: loginBody(email, password), remoteAddress });

async function failTimes(n: number, email: string, address: string) {
  for (let i = 0; i < n; i++) {
    const res = await attempt(email, 'wrong password', address);
    expect(res.json()).toEqual(BAD_CREDENTIALS);
  }
}

describe('login rate limits', () => {
  let alice: BuiltUser;
  beforeAll(async () => {
    alice = await buildUser(t.db);
  });

  it('blocks an account after 5 failures in 15 minutes, even with the right password', async () => {
    const user = await buildUser(t.db);
    await failTimes(5, user.email, freshAddress());
    const res = await attempt(user.email, user.password, freshAddress());
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
    expect(res.json()).toEqual({
      status: 42900,
      msg: 'Too many failed login attempts. Please try again in 15 minutes.',
      data: [],
    });
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('counts failures for unknown emails per email too', async () => {
    await failTimes(5, 'ghost@example.com', freshAddress());
    expect((await attempt('GHOST@example.com', 'x', freshAddress())).statusCode).toBe(429);
  });

  it('lets the account in again when the window has passed', async () => {
    const user = await buildUser(t.db);
    await failTimes(5, user.email, freshAddress());
    t.clock.advance(10 * MINUTE);
    const blocked = await attempt(user.email, user.password, freshAddress());
    expect(blocked.json()).toMatchObject({
      status: 42900,
      msg: 'Too many failed login attempts. Please try again in 5 minutes.',
    });
    t.clock.advance(5 * MINUTE);
    expect((await attempt(user.email, user.password, freshAddress())).json()).toMatchObject({
      status: 0,
    });
  });

  it('clears the account failures on a successful login', async () => {
    const user = await buildUser(t.db);
    const address = freshAddress();
    await failTimes(4, user.email, address);
    expect((await attempt(user.email, user.password, address)).json()).toMatchObject({ status: 0 });
    await failTimes(4, user.email, address);
    expect((await attempt(user.email, user.password, address)).json()).toMatchObject({ status: 0 });
  });

  it('blocks an address after 20 failures over any accounts, until the window passes', async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++) {
      expect((await attempt(`probe${i}@example.com`, 'x', address)).json()).toEqual(
        BAD_CREDENTIALS,
      );
    }
    const res = await attempt(alice.email, alice.password, address);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ status: 42900 });
    // Another address may still log in to the same account.
    expect((await attempt(alice.email, alice.password, freshAddress())).json()).toMatchObject({
      status: 0,
    });
    t.clock.advance(15 * MINUTE);
    expect((await attempt(alice.email, alice.password, address)).json()).toMatchObject({
      status: 0,
    });
  });

  it('does not count a rejected (429) attempt or a bad request as a failure', async () => {
    const user = await buildUser(t.db);
    const address = freshAddress();
    await failTimes(5, user.email, address);
    t.clock.advance(MINUTE);
    for (let i = 0; i < 3; i++)
      expect((await attempt(user.email, 'x', address)).statusCode).toBe(429);
    const bad = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload: { user_name: user.email },
      remoteAddress: address,
    });
    expect(bad.statusCode).toBe(400);
    t.clock.advance(14 * MINUTE);
    expect((await attempt(user.email, user.password, address)).json()).toMatchObject({ status: 0 });
  });
});
