import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../shared/queryClient';
import { jsonResponse } from '../test/fixtures';
import {
  instrumentKeys,
  loadInstrumentGroups,
  SYMBOL_LIST_REFRESH_MS,
  useInstrumentCatalogue,
  useInstrumentStore,
  useSymbolInfo,
} from './instruments';

const GROUPS = [[1, 'Crypto', 'crypto', [['BTCUSDT', 'Bitcoin / Tether']]]];

function symbolList(isTrading: boolean) {
  return {
    code: 0,
    msg: 'ok',
    data: {
      lists: [
        {
          market_type: 'crypto',
          market_name: '加密货币',
          market_name_en: 'Crypto',
          lists: [
            {
              symbol: 'BTCUSDT',
              symbol_cn: '比特币/泰达币',
              symbol_en: 'Bitcoin / Tether',
              symbol_type: 1,
              standard_lot: 1,
              volume_multiple: 1,
              margin_ratio_by_money: 0.1,
              currency: 'USD',
              min_price_tick: 0.1,
              quote_time: '',
              trade_time: '',
              is_trading: isTrading,
              vol_limit_max: 100,
              vol_limit_min: 0.01,
              max_limit_ov: 100,
              min_limit_ov: 0.01,
            },
          ],
        },
      ],
    },
  };
}

describe('the instrument catalogue', () => {
  let paths: string[] = [];
  let trading = true;
  beforeEach(() => {
    paths = [];
    trading = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const path = new URL(input, 'http://localhost').pathname;
        paths.push(path);
        if (path === '/trading/symbol/groups') return jsonResponse(GROUPS);
        return jsonResponse(symbolList(trading));
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const asked = (path: string) => paths.filter((p) => p === path).length;

  it('loads the groups once, however many ask at once or later', async () => {
    const [a, b] = await Promise.all([loadInstrumentGroups(), loadInstrumentGroups()]);
    expect(a).toBe(b);
    await loadInstrumentGroups();
    expect(asked('/trading/symbol/groups')).toBe(1);
    expect(queryClient.getQueryData(instrumentKeys.groups)).toBe(a);
    expect(useInstrumentStore.getState().groups).toBe(a);
  });

  it('keeps the symbol list while a chart is shown, refreshed every minute', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const first = renderHook(() => useInstrumentCatalogue());
    const second = renderHook(() => useInstrumentCatalogue());
    const info = renderHook(() => useSymbolInfo('BTCUSDT'));
    await vi.waitFor(() => expect(info.result.current?.is_trading).toBe(true));
    expect(asked('/trading/symbol/list')).toBe(1);
    expect(asked('/trading/symbol/groups')).toBe(1);

    // the market closes: the next refresh says so
    trading = false;
    await act(() => vi.advanceTimersByTimeAsync(SYMBOL_LIST_REFRESH_MS));
    await vi.waitFor(() => expect(info.result.current?.is_trading).toBe(false));
    expect(asked('/trading/symbol/list')).toBe(2);

    // no chart on screen: no refresh
    first.unmount();
    second.unmount();
    await act(() => vi.advanceTimersByTimeAsync(3 * SYMBOL_LIST_REFRESH_MS));
    expect(asked('/trading/symbol/list')).toBe(2);
    expect(asked('/trading/symbol/groups')).toBe(1);
  });
});
