import type { IndicatorConfig } from '@ct/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordToasts, type RecordedToast } from '../../../test/toasts';
import { queryClient, resetQueryClient } from '../../../shared/queryClient';
import { jsonResponse } from '../../../test/fixtures';
import {
  flushChartIndicators,
  indicatorKeys,
  newIndicator,
  resetIndicatorSaves,
  setChartIndicators,
} from './queries';

const sma = (period: number): IndicatorConfig => ({
  id: 'a1',
  kind: 'sma',
  params: { period },
  visible: true,
});

/** A server that stores what it is sent (or refuses with 422 while `refuse` is set). */
function server() {
  const state = { stored: [] as unknown[], refuse: false, puts: 0 };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      if (init.method === 'PUT') {
        state.puts += 1;
        if (state.refuse) return jsonResponse({ detail: 'Refused' }, 422);
        state.stored = JSON.parse(String(init.body)).indicators;
      }
      return jsonResponse({ indicators: state.stored });
    }),
  );
  return state;
}

// Toasts are recorded here rather than drawn: antd's static message would render after the
// test's document is gone.
let toasts: RecordedToast[] = [];
let unregister = () => {};
beforeEach(() => {
  resetQueryClient();
  resetIndicatorSaves();
  ({ toasts, unregister } = recordToasts());
});
afterEach(() => {
  unregister();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('saving a chart’s indicators', () => {
  it('shows the edit at once and stores it on the server under the chart key', async () => {
    const s = server();
    const saved = setChartIndicators('0', [sma(20)]);
    expect(queryClient.getQueryData(indicatorKeys.of('0'))).toEqual([sma(20)]);
    await saved;
    expect(s.stored).toEqual([sma(20)]);
    expect(queryClient.getQueryData(indicatorKeys.of('1'))).toBeUndefined();
  });

  it('a refused save puts back what the server last confirmed', async () => {
    const s = server();
    await setChartIndicators('0', [sma(20)]);
    s.refuse = true;
    await setChartIndicators('0', [sma(20), { ...sma(50), id: 'b2' }]);
    expect(queryClient.getQueryData(indicatorKeys.of('0'))).toEqual([sma(20)]);
    expect(toasts.map((t) => t.text)).toEqual([expect.stringMatching(/: Refused$/)]);
  });

  it('parameters typed key by key are saved once, with the last value', async () => {
    vi.useFakeTimers();
    const s = server();
    const first = setChartIndicators('2', [sma(2)], { delayMs: 400 });
    const second = setChartIndicators('2', [sma(25)], { delayMs: 400 });
    expect(queryClient.getQueryData(indicatorKeys.of('2'))).toEqual([sma(25)]);
    await vi.advanceTimersByTimeAsync(450);
    await Promise.all([first, second]);
    expect(s.puts).toBe(1);
    expect(s.stored).toEqual([sma(25)]);
  });

  it('closing the dialog sends a waiting save at once', async () => {
    vi.useFakeTimers();
    const s = server();
    void setChartIndicators('3', [sma(30)], { delayMs: 400 });
    await flushChartIndicators('3');
    expect(s.stored).toEqual([sma(30)]);
  });

  it('a new indicator gets default parameters, a free colour and a unique id', () => {
    const ids = ['a1', 'a1', 'c3'];
    const made = newIndicator('macd', [{ ...sma(20), color: '#2962ff' }], () => ids.shift()!);
    expect(made).toEqual({
      id: 'c3',
      kind: 'macd',
      params: { fast: 12, slow: 26, signal: 9 },
      visible: true,
      color: '#ff9800',
    });
  });
});
