import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

describe('after the first chart', () => {
  // A fresh module each time: the test setup has already marked its own copy drawn.
  beforeEach(() => vi.resetModules());
  afterEach(() => {
    vi.useRealTimers();
    vi.resetModules();
  });

  it('waits for the first drawn chart, not for the fallback', async () => {
    // The frame is faked too: jsdom's own would come in real time, between the checks.
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    });
    const { afterFirstChart, firstChartDrawn } = await import('./firstChart');
    const order: string[] = [];
    void afterFirstChart().then(() => order.push('panels'));
    await Promise.resolve();
    expect(order).toEqual([]);
    firstChartDrawn();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([]); // the frame that draws the chart comes first
    await vi.advanceTimersByTimeAsync(20);
    expect(order).toEqual(['panels']);
    // later waits resolve at once: the chart has been drawn
    void afterFirstChart().then(() => order.push('later'));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['panels', 'later']);
  });

  it('gives up waiting after the fallback when no chart draws', async () => {
    vi.useFakeTimers();
    const mark = vi.spyOn(performance, 'mark');
    const { afterFirstChart, FIRST_CHART_WAIT_MS, FIRST_CHART_WAIT_OVER_MARK } =
      await import('./firstChart');
    let done = false;
    void afterFirstChart().then(() => (done = true));
    void afterFirstChart();
    await vi.advanceTimersByTimeAsync(FIRST_CHART_WAIT_MS - 1);
    expect(done).toBe(false);
    expect(mark).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    // marked once, for the measurements of what the first load asks for
    expect(mark.mock.calls).toEqual([[FIRST_CHART_WAIT_OVER_MARK]]);
  });
});
