import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, MalformedAnswerError } from '../../../api/client';
import { jsonResponse } from '../../../test/fixtures';
import { fetchChartIndicators, saveChartIndicators } from './api';
import { chartKeyOf } from './chartKey';

const SMA = { id: 'a1', kind: 'sma', params: { period: 20 }, visible: true, color: '#2962ff' };
const RSI = { id: 'b2', kind: 'rsi', params: { period: 14 }, visible: false };

afterEach(() => vi.unstubAllGlobals());

describe('indicator settings client (GET / PUT /api/charts/indicators/{chartKey})', () => {
  it('reads the list of a chart key, parsed by the domain schema', async () => {
    const fetch = vi.fn().mockResolvedValue(jsonResponse({ indicators: [SMA, RSI] }));
    vi.stubGlobal('fetch', fetch);
    expect(await fetchChartIndicators('2')).toEqual([SMA, RSI]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/charts/indicators/2');
    expect(init.method).toBe('GET');
  });

  it('an empty list is no indicators', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ indicators: [] })));
    expect(await fetchChartIndicators('0')).toEqual([]);
  });

  it('saves the whole list as { indicators } and answers what the server stored', async () => {
    const fetch = vi.fn().mockResolvedValue(jsonResponse({ indicators: [SMA] }));
    vi.stubGlobal('fetch', fetch);
    expect(await saveChartIndicators('page', [SMA as never])).toEqual([SMA]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/charts/indicators/page');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(init.body)).toEqual({ indicators: [SMA] });
  });

  it("a refusal (422 { detail }) fails with the server's detail", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse({ detail: 'At most 10 indicators' }, 422)),
    );
    const error = await saveChartIndicators('1', []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('At most 10 indicators');
  });

  it('an answer outside the schema never reaches the chart', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse({ indicators: [{ ...SMA, kind: 'ichimoku' }] })),
    );
    await expect(fetchChartIndicators('1')).rejects.toBeInstanceOf(MalformedAnswerError);
  });

  it('refuses a chart key the server would refuse, without a request', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await expect(fetchChartIndicators('../x')).rejects.toThrow();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('chart keys', () => {
  it("are the grid slot for the workspace's cells and 'page' for the /chart page", () => {
    expect(['chart-1', 'chart-2', 'chart-3', 'chart-4'].map(chartKeyOf)).toEqual([
      '0',
      '1',
      '2',
      '3',
    ]);
    expect(chartKeyOf('chart-page')).toBe('page');
  });
});
