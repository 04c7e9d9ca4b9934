import { describe, expect, it } from 'vitest';
import { createClock } from '../../test/helpers.ts';
import {
  accountSpacingMs,
  LOGIN_LIMITS,
  LoginThrottle,
  type LoginDecision,
} from './login-limits.ts';
import { MemoryRateLimitStore } from './rate-limit-store.ts';

const SECOND = 1000;
const OWNER_DEVICE = 'owner-device-cookie-value-0000000000000000';
const MINUTE = 60 * SECOND;

function throttle() {
  const clock = createClock(0);
  const store = new MemoryRateLimitStore();
  return { clock, store, limiter: new LoginThrottle(store, clock.now) };
}

function waitOf(decision: LoginDecision): number {
  if (decision.refused) throw new Error(`refused for ${decision.retryAfterMs} ms`);
  return decision.attempt.waitMs;
}

describe('accountSpacingMs', () => {
  it('is free for the first 4 failures, then 1, 2, 4, 8, 16 s and at most 30 s', () => {
    expect([1, 2, 3, 4].map((n) => accountSpacingMs(n))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 500].map((n) => accountSpacingMs(n) / SECOND)).toEqual([
      1, 2, 4, 8, 16, 30, 30, 30,
    ]);
  });
});

describe('LoginThrottle', () => {
  it('refuses a pair after 5 failures for the rest of the window, other addresses go on', async () => {
    const { clock, limiter } = throttle();
    for (let i = 0; i < 5; i++) waitOf(await limiter.begin('a@x.io', '1.1.1.1'));
    clock.advance(MINUTE);
    expect(await limiter.begin('a@x.io', '1.1.1.1')).toEqual({
      refused: true,
      retryAfterMs: 14 * MINUTE,
    });
    // the owner elsewhere goes on (the account's 1 s turn after the 5th failure has passed)
    expect(waitOf(await limiter.begin('a@x.io', '2.2.2.2'))).toBe(0);
  });

  it('spaces an account’s attempts across addresses with a doubling delay', async () => {
    const { clock, limiter } = throttle();
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      const wait = waitOf(await limiter.begin('a@x.io', `10.0.0.${i}`));
      waits.push(wait);
      clock.advance(wait);
    }
    // failures 1-4 free; the 5th makes the 6th wait 1 s, then 2, 4, 8 s
    expect(waits.map((w) => w / SECOND)).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8]);
  });

  it('queues parallel attempts, and refuses (briefly) those whose turn is over a minute away', async () => {
    const { clock, limiter } = throttle();
    for (let i = 0; i < 10; i++)
      clock.advance(waitOf(await limiter.begin('a@x.io', `10.0.1.${i}`)));
    // 10 failures counted: turns now follow each other 30 s apart
    const first = await limiter.begin('a@x.io', '10.0.2.1');
    const second = await limiter.begin('a@x.io', '10.0.2.2');
    const third = await limiter.begin('a@x.io', '10.0.2.3');
    expect([first, second].map(waitOf).map((w) => w / SECOND)).toEqual([30, 60]);
    expect(third).toEqual({ refused: true, retryAfterMs: MINUTE });
  });

  it('a success clears the account’s failures and turns, and its address skips the spacing later', async () => {
    const { limiter } = throttle();
    for (let i = 0; i < 6; i++) await limiter.begin('a@x.io', `10.0.3.${i}`);
    const owner = await limiter.begin('a@x.io', '192.168.1.1');
    expect(waitOf(owner)).toBeGreaterThan(0);
    if (!owner.refused) await owner.attempt.succeeded(OWNER_DEVICE);
    for (let i = 0; i < 5; i++)
      expect(waitOf(await limiter.begin('a@x.io', `10.0.4.${i}`))).toBe(0);
    expect(waitOf(await limiter.begin('a@x.io', '10.0.5.1'))).toBe(SECOND);
    // the owner's known address is not held behind the guesses
    expect(waitOf(await limiter.begin('a@x.io', '192.168.1.1'))).toBe(0);
  });

  it('spaces an address’s attempts after 20 failures over any accounts, never refuses it for the window', async () => {
    const { clock, limiter } = throttle();
    for (let i = 0; i < 20; i++)
      expect(waitOf(await limiter.begin(`u${i}@x.io`, '3.3.3.3'))).toBe(0);
    // the 20th failure makes the next attempt wait 1 s, then 2, 4, 8 … at most 30 s
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const wait = waitOf(await limiter.begin(`v${i}@x.io`, '3.3.3.3'));
      waits.push(wait / SECOND);
      clock.advance(wait);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 30, 30, 30]);
    clock.advance(LOGIN_LIMITS.windowMs);
    expect(waitOf(await limiter.begin('other@x.io', '3.3.3.3'))).toBe(0);
  });

  it('refuses (briefly) a flooding address’s attempts whose turn is over a minute away', async () => {
    const { limiter } = throttle();
    for (let i = 0; i < 24; i++) await limiter.begin(`u${i}@x.io`, '3.3.3.4');
    // turns are now 1+2+4+8+16 = 31 s ahead: the next waits 31 s, the one after 61 s
    expect(waitOf(await limiter.begin('w1@x.io', '3.3.3.4')) / SECOND).toBe(31);
    expect(await limiter.begin('w2@x.io', '3.3.3.4')).toEqual({
      refused: true,
      retryAfterMs: MINUTE,
    });
  });

  it('lets only 5 of many parallel guesses from one address through', async () => {
    const { limiter } = throttle();
    const decisions = await Promise.all(
      Array.from({ length: 50 }, () => limiter.begin('a@x.io', '4.4.4.4')),
    );
    expect(decisions.filter((d) => !d.refused)).toHaveLength(5);
  });
});

describe('LoginThrottle: known devices (device cookies)', () => {
  it('judges a device that logged in before by its own failures only', async () => {
    const { limiter } = throttle();
    const first = await limiter.begin('a@x.io', '5.5.5.5');
    if (first.refused) throw new Error('refused');
    await first.attempt.succeeded(OWNER_DEVICE);
    // guessing from many addresses and from the owner's own address: the account queues
    for (let i = 0; i < 12; i++) await limiter.begin('a@x.io', `10.0.6.${i}`);
    for (let i = 0; i < 5; i++) await limiter.begin('a@x.io', '5.5.5.5');
    expect(await limiter.begin('a@x.io', '10.0.7.1')).toMatchObject({ refused: true });
    expect(await limiter.begin('a@x.io', '5.5.5.5')).toMatchObject({ refused: true });
    // the owner's device, from anywhere: no wait, no refusal
    for (const address of ['5.5.5.5', '10.0.7.2', '10.0.7.3']) {
      const decision = await limiter.begin('a@x.io', address, OWNER_DEVICE);
      expect(decision).toMatchObject({ refused: false, attempt: { waitMs: 0, knownDevice: true } });
    }
  });

  it('refuses a known device for the window after its own 5 failures; the device of another account is unknown here', async () => {
    const { clock, limiter } = throttle();
    const first = await limiter.begin('a@x.io', '5.5.5.6');
    if (first.refused) throw new Error('refused');
    await first.attempt.succeeded(OWNER_DEVICE);
    for (let i = 0; i < 5; i++) waitOf(await limiter.begin('a@x.io', `10.0.8.${i}`, OWNER_DEVICE));
    clock.advance(MINUTE);
    expect(await limiter.begin('a@x.io', '10.0.8.9', OWNER_DEVICE)).toEqual({
      refused: true,
      retryAfterMs: 14 * MINUTE,
    });
    // known for a@x.io only: for b@x.io it is one more unknown device
    expect(await limiter.begin('b@x.io', '10.0.8.9', OWNER_DEVICE)).toMatchObject({
      refused: false,
      attempt: { knownDevice: false },
    });
  });

  it('forgets a device that has not logged in for 90 days', async () => {
    const { clock, limiter } = throttle();
    const first = await limiter.begin('a@x.io', '5.5.5.7');
    if (first.refused) throw new Error('refused');
    await first.attempt.succeeded(OWNER_DEVICE);
    clock.advance(LOGIN_LIMITS.knownDeviceMs - 1);
    expect(await limiter.begin('a@x.io', '5.5.5.7', OWNER_DEVICE)).toMatchObject({
      attempt: { knownDevice: true },
    });
    clock.advance(1);
    expect(await limiter.begin('a@x.io', '5.5.5.7', OWNER_DEVICE)).toMatchObject({
      attempt: { knownDevice: false },
    });
  });
});

describe('MemoryRateLimitStore', () => {
  it('drops idle keys so random emails cannot grow it', async () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 600; i++) await store.hit(`guess-${i}`, 0, MINUTE);
    for (let i = 0; i < 600; i++) await store.hit(`other-${i}`, 2 * MINUTE, MINUTE);
    expect(store.size).toBe(600);
  });

  it('hands turns out in call order, spaced, and takes none beyond the longest wait', async () => {
    const store = new MemoryRateLimitStore();
    expect(await store.takeTurn('k', 100, 5000, 6000)).toBe(100);
    expect(await store.takeTurn('k', 100, 5000, 6000)).toBe(5100);
    expect(await store.takeTurn('k', 100, 5000, 6000)).toBeNull();
    expect(await store.takeTurn('k', 200, 0, 10_000)).toBe(10_100);
  });
});
