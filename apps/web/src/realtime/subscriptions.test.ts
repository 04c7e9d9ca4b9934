import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RefCountedSubscriptions, SUBSCRIPTION_STAGGER_MS } from './subscriptions';

function setup() {
  const log: string[] = [];
  const cleared: string[] = [];
  const registry = new RefCountedSubscriptions(
    { open: (s) => log.push(`open ${s}`), close: (s) => log.push(`close ${s}`) },
    (s) => cleared.push(s),
  );
  return { registry, log, cleared };
}

describe('RefCountedSubscriptions', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens the channel on the first request only and counts further requests', () => {
    const { registry, log } = setup();
    registry.acquire('BTCUSDT');
    registry.acquire('BTCUSDT');
    registry.acquire('BTCUSDT');
    expect(log).toEqual(['open BTCUSDT']);
    expect(registry.count('BTCUSDT')).toBe(3);
    expect(registry.isOpen('BTCUSDT')).toBe(true);
  });

  it('closes and clears the instrument when the last holder cancels', () => {
    const { registry, log, cleared } = setup();
    const a = registry.acquire('BTCUSDT');
    const b = registry.acquire('BTCUSDT');
    a();
    a(); // a second cancel of the same holder counts nothing
    expect(registry.count('BTCUSDT')).toBe(1);
    expect(log).toEqual(['open BTCUSDT']);
    expect(cleared).toEqual([]);
    b();
    expect(log).toEqual(['open BTCUSDT', 'close BTCUSDT']);
    expect(cleared).toEqual(['BTCUSDT']);
    expect(registry.count('BTCUSDT')).toBe(0);
    expect(registry.symbols()).toEqual([]);
  });

  it('staggers openings of different instruments 50 ms apart', () => {
    const { registry, log } = setup();
    expect(SUBSCRIPTION_STAGGER_MS).toBe(50);
    registry.acquire('A');
    registry.acquire('B');
    registry.acquire('C');
    expect(log).toEqual(['open A']);
    vi.advanceTimersByTime(49);
    expect(log).toEqual(['open A']);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['open A', 'open B']);
    vi.advanceTimersByTime(50);
    expect(log).toEqual(['open A', 'open B', 'open C']);
    // After a quiet spell the next request goes out at once.
    vi.advanceTimersByTime(500);
    registry.acquire('D');
    expect(log.at(-1)).toBe('open D');
  });

  it('never opens a request cancelled before its turn, but still clears it', () => {
    const { registry, log, cleared } = setup();
    registry.acquire('A');
    const cancelB = registry.acquire('B');
    registry.acquire('C');
    cancelB();
    expect(cleared).toEqual(['B']);
    vi.advanceTimersByTime(200);
    expect(log).toEqual(['open A', 'open C']);
  });

  it('reopens an instrument requested again after it was closed', () => {
    const { registry, log } = setup();
    registry.acquire('A')();
    vi.advanceTimersByTime(50);
    registry.acquire('A');
    expect(log).toEqual(['open A', 'close A', 'open A']);
  });

  it('clear() closes every open channel', () => {
    const { registry, log, cleared } = setup();
    registry.acquire('A');
    registry.acquire('B');
    registry.clear();
    vi.advanceTimersByTime(100);
    expect(log).toEqual(['open A', 'close A']);
    expect(cleared.sort()).toEqual(['A', 'B']);
  });
});
