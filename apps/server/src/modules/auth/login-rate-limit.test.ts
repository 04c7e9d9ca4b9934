import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { buildUser, loginBody, type BuiltUser } from '../../test/factories.ts';
import {
  createClock,
  openTestDatabase,
  sessionCookie,
  testConfig,
  type TestClock,
  type TestDatabase,
} from '../../test/helpers.ts';

const LOGIN = '/user/api/v1/account/login';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const BAD_CREDENTIALS = { status: 1, msg: 'Incorrect username or password', data: [] };

let testDb: TestDatabase;
let app: FastifyInstance;
let clock: TestClock;
/** How long each slowed attempt was held (the app's `sleep`, which moves the clock instead). */
let held: number[] = [];
let nextAddress = 0;

beforeAll(async () => {
  testDb = await openTestDatabase();
  clock = createClock();
  app = await buildApp({
    db: testDb.db,
    config: testConfig(),
    now: clock.now,
    sleep: async (ms) => {
      held.push(ms);
      clock.advance(ms);
    },
  });
});
afterAll(async () => {
  await app.close();
  await testDb.close();
});
beforeEach(() => {
  held = [];
});

/** Every test gets its own client addresses so the limits of one do not leak into another. */
const freshAddress = () => `10.9.${Math.floor(++nextAddress / 250)}.${nextAddress % 250}`;

const attempt = (email: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: LOGIN, payload: loginBody(email, password), remoteAddress });

async function failTimes(n: number, email: string, address: () => string) {
  for (let i = 0; i < n; i++) {
    const res = await attempt(email, 'wrong password', address());
    expect(res.json()).toEqual(BAD_CREDENTIALS);
  }
}

describe('login limits', () => {
  let alice: BuiltUser;
  beforeAll(async () => {
    alice = await buildUser(testDb.db);
  });

  it('lets the right password in from another address after failures elsewhere (slowed, not refused)', async () => {
    const user = await buildUser(testDb.db);
    const guesser = freshAddress();
    await failTimes(5, user.email, () => guesser);
    const res = await attempt(user.email, user.password, freshAddress());
    expect(res.json()).toMatchObject({ status: 0, msg: 'Login successful' });
    expect(sessionCookie(res)).toBeDefined();
    expect(held.every((ms) => ms <= SECOND)).toBe(true);
  });

  it('refuses the guessing address that account for 15 minutes, in the spec’s words', async () => {
    const user = await buildUser(testDb.db);
    const guesser = freshAddress();
    await failTimes(5, user.email, () => guesser);
    const res = await attempt(user.email, user.password, guesser);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
    expect(res.json()).toEqual({
      status: 42900,
      msg: 'Too many failed login attempts. Please try again in 15 minutes.',
      data: [],
    });
    expect(sessionCookie(res)).toBeUndefined();
    clock.advance(10 * MINUTE);
    expect((await attempt(user.email, user.password, guesser)).json()).toMatchObject({
      status: 42900,
      msg: 'Too many failed login attempts. Please try again in 5 minutes.',
    });
    clock.advance(5 * MINUTE);
    expect((await attempt(user.email, user.password, guesser)).json()).toMatchObject({
      status: 0,
    });
  });

  it('slows 190 guesses spread over 10 addresses: each waits its turn, doubling up to 30 s', async () => {
    const user = await buildUser(testDb.db);
    const addresses = Array.from({ length: 10 }, freshAddress);
    const started = clock.now();
    let checked = 0;
    let refused = 0;
    for (let round = 0; round < 19; round++) {
      for (const address of addresses) {
        const res = await attempt(user.email, 'wrong password', address);
        if (res.statusCode === 429) refused++;
        else if (res.json<{ status: number }>().status === 1) checked++;
      }
    }
    expect(checked + refused).toBe(190);
    // the 6th waits 1 s, then 2, 4, 8, 16 s, then 30 s each: at most 2 guesses a minute
    expect(held.slice(0, 5)).toEqual([1, 2, 4, 8, 16].map((s) => s * SECOND));
    expect(Math.max(...held)).toBe(30 * SECOND);
    const minutes = (clock.now() - started) / MINUTE;
    expect(checked).toBeLessThanOrEqual(10 + 2 * minutes);
    // 190 guesses that took seconds now take over an hour and a half
    expect(minutes).toBeGreaterThan(90);
    // and the owner, from home, still gets in (after at most a minute)
    held = [];
    expect((await attempt(user.email, user.password, freshAddress())).json()).toMatchObject({
      status: 0,
    });
    expect(held.every((ms) => ms <= MINUTE)).toBe(true);
  });

  it('a successful login clears the account’s failures and slowdown', async () => {
    const user = await buildUser(testDb.db);
    await failTimes(6, user.email, freshAddress);
    expect(held).toEqual([SECOND]);
    expect((await attempt(user.email, user.password, freshAddress())).json()).toMatchObject({
      status: 0,
    });
    held = [];
    await failTimes(4, user.email, freshAddress);
    expect(held).toEqual([]);
  });

  it('refuses an address after 20 failures over any accounts, until the window passes', async () => {
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
    clock.advance(15 * MINUTE);
    expect((await attempt(alice.email, alice.password, address)).json()).toMatchObject({
      status: 0,
    });
  });

  it('counts failures for unknown emails per email too', async () => {
    const address = freshAddress();
    await failTimes(5, 'ghost@example.com', () => address);
    expect((await attempt('GHOST@example.com', 'x', address)).statusCode).toBe(429);
  });

  it('does not count a refused (429) attempt or a bad request as a failure', async () => {
    const user = await buildUser(testDb.db);
    const address = freshAddress();
    await failTimes(5, user.email, () => address);
    clock.advance(MINUTE);
    for (let i = 0; i < 3; i++)
      expect((await attempt(user.email, 'x', address)).statusCode).toBe(429);
    const bad = await app.inject({
      method: 'POST',
      url: LOGIN,
      payload: { user_name: user.email },
      remoteAddress: address,
    });
    expect(bad.statusCode).toBe(400);
    clock.advance(14 * MINUTE);
    expect((await attempt(user.email, user.password, address)).json()).toMatchObject({ status: 0 });
  });
});
