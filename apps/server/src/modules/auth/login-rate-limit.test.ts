import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { buildUser, loginBody, type BuiltUser } from '../../test/factories.ts';
import { waitFor } from '../../test/wait-for.ts';
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
/** While set, held attempts stay held (guesses in flight) until `releaseParked`. */
let parked: (() => void)[] | null = null;
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
      const queue = parked;
      if (queue) return new Promise<void>((resolve) => queue.push(resolve));
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
  parked = null;
});

function releaseParked() {
  const queue = parked ?? [];
  parked = null;
  for (const resolve of queue) resolve();
}

/** Every test gets its own client addresses so the limits of one do not leak into another. */
const freshAddress = () => `10.9.${Math.floor(++nextAddress / 250)}.${nextAddress % 250}`;

const attempt = (email: string, password: string, remoteAddress: string, device?: string) =>
  app.inject({
    method: 'POST',
    url: LOGIN,
    payload: loginBody(email, password),
    remoteAddress,
    ...(device ? { cookies: { ct_dev: device } } : {}),
  });

const deviceCookie = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'ct_dev');

/** Logs in once from a fresh address, as the owner's browser did before: its device cookie. */
async function ownerDevice(user: BuiltUser): Promise<string> {
  const res = await attempt(user.email, user.password, freshAddress());
  expect(res.json()).toMatchObject({ status: 0 });
  const device = deviceCookie(res)?.value;
  if (!device) throw new Error('no device cookie');
  return device;
}

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

  it('lets a right password in from an address after 20 failures there for other accounts (one NAT), slowed but never refused', async () => {
    const shared = freshAddress();
    for (let i = 0; i < 20; i++) {
      expect((await attempt(`probe${i}@example.com`, 'x', shared)).json()).toEqual(BAD_CREDENTIALS);
    }
    expect(held).toEqual([]);
    // a colleague behind the same address, on a browser that never logged in: held 1 s
    const res = await attempt(alice.email, alice.password, shared);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 0, msg: 'Login successful' });
    expect(sessionCookie(res)).toBeDefined();
    expect(held).toEqual([SECOND]);
    // a user whose browser logged in before is not held at all
    const bob = await buildUser(testDb.db);
    const device = await ownerDevice(bob);
    held = [];
    expect((await attempt(bob.email, bob.password, shared, device)).json()).toMatchObject({
      status: 0,
    });
    expect(held).toEqual([]);
    // and guessing from that address stays slowed: each further guess waits its turn, the
    // turns doubling (the first one waits out the end of the colleague's 2 s turn)
    held = [];
    for (let i = 0; i < 4; i++) await attempt(`more${i}@example.com`, 'x', shared);
    expect(held).toEqual([2, 2, 4, 8].map((s) => s * SECOND));
  });

  it('lets the owner’s right password in 15 times out of 15 from a fresh address while 8 addresses guess in parallel', async () => {
    const owner = await buildUser(testDb.db);
    const device = await ownerDevice(owner);
    held = [];
    parked = [];
    const guessers = Array.from({ length: 8 }, freshAddress);
    let answered = 0;
    const guesses = guessers.flatMap((address) =>
      Array.from({ length: 5 }, () =>
        attempt(owner.email, 'wrong password', address).then((res) => {
          answered++;
          return res;
        }),
      ),
    );
    // every guess is answered (checked, or refused) or held for its turn
    await waitFor(() => answered + (parked?.length ?? 0) === guesses.length, 30_000);
    expect(parked?.length).toBeGreaterThan(0);

    const answers = [];
    for (let i = 0; i < 15; i++) {
      answers.push(await attempt(owner.email, owner.password, freshAddress(), device));
    }
    expect(answers.map((res) => res.statusCode)).toEqual(Array(15).fill(200));
    expect(answers.map((res) => res.json<{ status: number }>().status)).toEqual(Array(15).fill(0));
    expect(answers.every((res) => sessionCookie(res) !== undefined)).toBe(true);

    // a browser that never logged in joins the account's queue, a minute long by now
    const stranger = await attempt(owner.email, owner.password, freshAddress());
    expect(stranger.statusCode).toBe(429);
    expect(stranger.headers['retry-after']).toBe('60');

    releaseParked();
    const results = await Promise.all(guesses);
    const checked = results.filter((res) => res.json<{ status: number }>().status === 1);
    const refused = results.filter((res) => res.statusCode === 429);
    expect(checked.length + refused.length).toBe(40);
    // the guesses stay slowed: 5 free, then turns 1, 2, 4, 8, 16 s apart within the minute
    expect(checked).toHaveLength(10);
    expect(held.slice(0, 5)).toEqual([1, 3, 7, 15, 31].map((s) => s * SECOND));
  });

  it('sends the device cookie with a successful login only: HttpOnly, SameSite=Strict, to the login only, for 90 days', async () => {
    const user = await buildUser(testDb.db);
    const wrong = await attempt(user.email, 'wrong password', freshAddress());
    expect(deviceCookie(wrong)).toBeUndefined();
    const res = await attempt(user.email, user.password, freshAddress());
    expect(deviceCookie(res)).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: LOGIN,
      maxAge: 90 * 24 * 3600,
    });
    // the same device keeps its cookie
    const device = deviceCookie(res)?.value;
    const again = await attempt(user.email, user.password, freshAddress(), device);
    expect(deviceCookie(again)?.value).toBe(device);
  });

  it('a device cookie of another account (the guesser’s own) counts for nothing', async () => {
    const owner = await buildUser(testDb.db);
    const guesser = await buildUser(testDb.db);
    const device = await ownerDevice(guesser);
    const address = freshAddress();
    for (let i = 0; i < 5; i++) {
      expect((await attempt(owner.email, 'wrong password', address, device)).json()).toEqual(
        BAD_CREDENTIALS,
      );
    }
    expect((await attempt(owner.email, owner.password, address, device)).statusCode).toBe(429);
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
