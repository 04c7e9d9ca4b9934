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
    if (!owner.refused) await owner.attempt.succeeded();
    for (let i = 0; i < 5; i++)
      expect(waitOf(await limiter.begin('a@x.io', `10.0.4.${i}`))).toBe(0);
    expect(waitOf(await limiter.begin('a@x.io', '10.0.5.1'))).toBe(SECOND);
    // the owner's known address is not held behind the guesses
    expect(waitOf(await limiter.begin('a@x.io', '192.168.1.1'))).toBe(0);
  });

  it('refuses an address after 20 failures over any accounts', async () => {
    const { clock, limiter } = throttle();
    for (let i = 0; i < 20; i++) waitOf(await limiter.begin(`u${i}@x.io`, '3.3.3.3'));
    expect(await limiter.begin('other@x.io', '3.3.3.3')).toEqual({
      refused: true,
      retryAfterMs: LOGIN_LIMITS.windowMs,
    });
    clock.advance(LOGIN_LIMITS.windowMs);
    expect(waitOf(await limiter.begin('other@x.io', '3.3.3.3'))).toBe(0);
  });

  it('lets only 5 of many parallel guesses from one address through', async () => {
    const { limiter } = throttle();
    const decisions = await Promise.all(
      Array.from({ length: 50 }, () => limiter.begin('a@x.io', '4.4.4.4')),
    );
    expect(decisions.filter((d) => !d.refused)).toHaveLength(5);
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
