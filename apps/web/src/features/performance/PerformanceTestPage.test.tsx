import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLive } from '../../realtime/live';
import { resetLiveSettings, useLiveSettingsStore } from '../../realtime/settings';
import { renderWithProviders } from '../../test/render';
import { jsonResponse } from '../../test/fixtures';
import { PerformanceTestPage } from './PerformanceTestPage';
import { PriceSampler, useSampleStore } from './sampler';

describe('performance test page', () => {
  beforeEach(() => {
    resetLiveSettings();
    resetLive();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        String(url).includes('/api/market/load')
          ? jsonResponse({ code: 40400, msg: 'Not found' }, 404)
          : jsonResponse({ code: 0, msg: '', data: { caches: [] } }),
      ),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    resetLiveSettings();
  });

  it('shows its Chinese labels, symbols, presets and sliders', async () => {
    renderWithProviders(<PerformanceTestPage />);
    expect(screen.getByRole('heading', { name: '实时数据性能测试' })).toBeInTheDocument();
    for (const text of [
      '测试品种',
      '性能监控',
      '性能控制面板',
      '预设性能测试',
      '价格图表',
      '嵌入图表页面',
    ]) {
      expect(screen.getAllByText(text).length).toBeGreaterThan(0);
    }
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD']) {
      expect(screen.getAllByText(symbol).length).toBeGreaterThan(0);
    }
    expect(screen.getByRole('button', { name: '开始监控' })).toBeInTheDocument();
    expect(screen.getAllByRole('slider')).toHaveLength(3);
    expect(screen.getByTitle('BTCUSDT 嵌入图表')).toHaveAttribute(
      'src',
      '/chart?instrumentId=BTCUSDT&frameId=perf-1',
    );
    expect(
      await screen.findByText('服务器未开启负载控制（MARKET_LOAD_CONTROL=1）'),
    ).toBeInTheDocument();
  });

  it('a preset changes the settings the live pipeline reads', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PerformanceTestPage />);
    await user.click(screen.getByText('高性能'));
    expect(useLiveSettingsStore.getState().throttle).toEqual({
      priceUpdateDelay: 50,
      chartDataUpdateDelay: 200,
      maxDataPoints: 2000,
    });
    expect(screen.getByTestId('applied-settings')).toHaveTextContent('50/200/2000');
    await user.click(screen.getByText('低性能'));
    expect(screen.getByTestId('applied-settings')).toHaveTextContent('200/1000/500');
  });

  it('monitoring starts and stops', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PerformanceTestPage />);
    await user.click(screen.getByRole('button', { name: '开始监控' }));
    expect(screen.getByText('等待第一次报告…')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '停止监控' }));
    expect(screen.getByText('监控已停止')).toBeInTheDocument();
  });
});

describe('price sampler', () => {
  it('simulates from the base prices while no live price arrives, marked simulated', () => {
    const sampler = new PriceSampler(
      ['BTCUSDT', 'XAGUSD'],
      () => 1_000,
      () => 0.5,
    );
    const seen = vi.fn();
    sampler.onSamples(seen);
    act(() => {
      sampler.sample();
    });
    expect(seen).toHaveBeenCalledWith([
      { symbol: 'BTCUSDT', price: 45000, time: 1_000, simulated: true },
      { symbol: 'XAGUSD', price: 25, time: 1_000, simulated: true },
    ]);
    expect(useSampleStore.getState().bySymbol.BTCUSDT?.simulated).toBe(true);
  });

  it('uses a fresh live quote, marked live', async () => {
    const { useQuoteStore } = await import('../../realtime/quotes');
    useQuoteStore.setState({
      quotes: {
        BTCUSDT: { bid: 50000, ask: 50001, last: 50000.5, timestamp: 900, source: 'realtime' },
      },
    });
    const sampler = new PriceSampler(
      ['BTCUSDT'],
      () => 1_000,
      () => 0.5,
    );
    expect(sampler.sample()).toEqual([
      { symbol: 'BTCUSDT', price: 50000, time: 1_000, simulated: false },
    ]);
    await waitFor(() => expect(useSampleStore.getState().bySymbol.BTCUSDT?.simulated).toBe(false));
  });
});
