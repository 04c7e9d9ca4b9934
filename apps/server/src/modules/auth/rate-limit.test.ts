import { describe, expect, it } from 'vitest';
import { createClock } from '../../test/helpers.ts';
import { rateLimitMessage, SlidingWindowCounter } from './rate-limit.ts';

const MINUTE = 60_000;

describe('SlidingWindowCounter', () => {
  it('blocks at the limit until the oldest counted event leaves the window', () => {
    const clock = createClock(0);
    const counter = new SlidingWindowCounter(3, 10 * MINUTE, clock.now);
    counter.record('k');
    clock.advance(MINUTE);
    counter.record('k');
    counter.record('k');
    expect(counter.blockedForMs('k')).toBe(9 * MINUTE);
    clock.advance(9 * MINUTE - 1);
    expect(counter.blockedForMs('k')).toBe(1);
    clock.advance(1);
    expect(counter.blockedForMs('k')).toBe(0);
  });

  it('keeps keys apart, forgets one event, clears a key', () => {
    const clock = createClock(0);
    const counter = new SlidingWindowCounter(2, MINUTE, clock.now);
    const at = counter.record('a');
    counter.record('a');
    expect(counter.blockedForMs('a')).toBeGreaterThan(0);
    expect(counter.blockedForMs('b')).toBe(0);
    counter.forget('a', at);
    expect(counter.blockedForMs('a')).toBe(0);
    counter.record('a');
    counter.clear('a');
    expect(counter.blockedForMs('a')).toBe(0);
  });

  it('drops idle keys so memory stays bounded', () => {
    const clock = createClock(0);
    const counter = new SlidingWindowCounter(5, MINUTE, clock.now);
    for (let i = 0; i < 500; i++) counter.record(`guess-${i}@example.com`);
    clock.advance(MINUTE);
    for (let i = 0; i < 500; i++) counter.record(`other-${i}`);
    expect(counter.size).toBe(500);
  });
});

describe('rateLimitMessage', () => {
  it('rounds minutes up, at least 1', () => {
    expect(rateLimitMessage(1)).toBe(
      'Too many failed login attempts. Please try again in 1 minutes.',
    );
    expect(rateLimitMessage(14 * MINUTE + 1)).toContain('in 15 minutes.');
  });
});
