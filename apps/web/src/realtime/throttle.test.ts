import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createThrottle } from './throttle';

describe('createThrottle (leading and trailing)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first request at once and collapses the rest of the window into one run', () => {
    const run = vi.fn();
    const throttle = createThrottle(run, () => 100);
    throttle.schedule();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30);
    throttle.schedule();
    throttle.schedule();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(69);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(500);
    throttle.schedule();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('reads the delay at each request, flushes and cancels', () => {
    let delay = 100;
    const run = vi.fn();
    const throttle = createThrottle(run, () => delay);
    throttle.schedule();
    delay = 500;
    throttle.schedule();
    vi.advanceTimersByTime(499);
    expect(run).toHaveBeenCalledTimes(1);
    throttle.flush();
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10);
    throttle.schedule();
    throttle.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
