import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { renderWithProviders } from '../../test/render';
import { resetLive, watchers } from '../../realtime/live';
import { resetQuotes } from '../../realtime/quotes';
import { filterGroups } from './InstrumentSelect';
import { useInstrumentStore } from '../../market/instruments';
import { GROUPS, stubMarketFetch } from './testSupport';
import { TradingChart } from './TradingChart';
import { useChartTradeStore } from '../../shared/tradeAction';
import { parseInstrumentGroups, type InstrumentGroupTuple } from '@ct/domain';

// lightweight-charts needs a real canvas: a stand-in controller keeps the React side testable.
const loads: { symbol: string; period: string }[] = [];
/** The charts created (the newest last). */
const controllers: { markerDetails: StoreApi<unknown> }[] = [];
vi.mock('./ChartController', async () => {
  const { watchSymbol } = await import('../../realtime/live');
  class FakeController {
    legend = createStore(() => ({
      bar: { time: 0, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 },
      previousClose: 1,
      hovered: false,
    }));
    markerDetails = createStore<unknown>(() => null);
    status = createStore(() => ({
      phase: 'idle',
      error: null,
      loadingHistory: false,
      historyExhausted: false,
    }));
    private release: (() => void) | null = null;
    constructor() {
      controllers.push(this);
    }
    async load(source: { symbol: string; period: string }) {
      loads.push({ symbol: source.symbol, period: source.period });
      this.release?.();
      this.release = watchSymbol(source.symbol);
      this.status.setState({ phase: 'ready' });
    }
    setColors() {}
    setChartType() {}
    setLocale() {}
    fitContent() {}
    resetZoom() {}
    setMarkers() {}
    addBarListener() {
      return () => {};
    }
    addLayer() {
      return () => {};
    }
    setVolumeVisible() {}
    // What the indicator layer reads of the library: no series, one pane.
    chartApi = { chartElement: () => document.createElement('div'), panes: () => [{}] };
    reload() {}
    dispose() {
      this.release?.();
    }
  }
  return { ChartController: FakeController };
});

const groups = parseInstrumentGroups(GROUPS as InstrumentGroupTuple[]);

function renderChart(props: Partial<Parameters<typeof TradingChart>[0]> = {}) {
  const onSymbolChange = vi.fn();
  const onPeriodChange = vi.fn();
  const onChartTypeChange = vi.fn();
  const view = renderWithProviders(
    <TradingChart
      chartId="chart-7"
      symbol="XAUUSD"
      period="1h"
      chartType="candles"
      onSymbolChange={onSymbolChange}
      onPeriodChange={onPeriodChange}
      onChartTypeChange={onChartTypeChange}
      {...props}
    />,
  );
  return { ...view, onSymbolChange, onPeriodChange, onChartTypeChange };
}

describe('TradingChart', () => {
  beforeEach(() => {
    loads.length = 0;
    resetLive();
    resetQuotes();
    useInstrumentStore.setState({ groups, symbols: {} });
    useChartTradeStore.setState({ action: null, seq: 0 });
    stubMarketFetch();
    // A canvas that gives a 2D context: the chart is created.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
      {} as CanvasRenderingContext2D,
    );
  });
  afterEach(() => resetLive());

  it('loads its instrument at its period, watches it live and lets go on unmount', async () => {
    const { unmount } = renderChart();
    await vi.waitFor(() => expect(loads).toEqual([{ symbol: 'XAUUSD', period: '1h' }]));
    expect(watchers('XAUUSD')).toBe(1);
    unmount();
    expect(watchers('XAUUSD')).toBe(0);
  });

  it('shows the OHLCV legend, bid and ask from the quote cache, and Market closed', async () => {
    renderChart();
    const region = await screen.findByRole('region', { name: 'XAUUSD chart' });
    expect(await within(region).findByText('Market closed')).toBeInTheDocument();
    expect(within(region).getByText('XAUUSD · 1h')).toBeInTheDocument();
    expect(within(region).getByTestId('legend-close')).toHaveTextContent('1.50');
    expect(within(region).getByText('+50.00%')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByTestId('quote-bid')).toHaveTextContent('100.00'));
    expect(screen.getByTestId('quote-ask')).toHaveTextContent('100.50');
  });

  it('shows the details of the markers under the pointer; a clicked bar’s stay until closed', async () => {
    const { user } = renderChart();
    await screen.findByText('XAUUSD · 1h');
    const details = controllers.at(-1)!.markerDetails;
    const buy = {
      time: 1_704_153_600,
      position: 'atPriceTop',
      price: 1.25,
      shape: 'arrowUp',
      color: '#26a69a',
      text: 'Buy 1',
      detail: 'Buy 1 at 1.25',
    };
    act(() =>
      details.setState(
        {
          markers: [buy, { ...buy, text: 'Live Buy 2', detail: 'Live Buy 2 at 1.20' }],
          x: 100,
          y: 80,
          pinned: false,
        },
        true,
      ),
    );
    const tip = screen.getByRole('tooltip', { name: 'Trades on this bar' });
    expect(tip).toHaveTextContent('Tue 2 Jan 2024 00:00');
    expect(within(tip).getByText('Buy 1 at 1.25')).toBeInTheDocument();
    expect(within(tip).getByText('Live Buy 2 at 1.20')).toBeInTheDocument();
    expect(within(tip).queryByRole('button')).toBeNull();
    act(() => details.setState(null, true));
    expect(screen.queryByRole('tooltip')).toBeNull();

    act(() => details.setState({ markers: [buy], x: 100, y: 80, pinned: true }, true));
    await user.click(screen.getByRole('button', { name: 'Close details' }));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => details.setState({ markers: [buy], x: 100, y: 80, pinned: true }, true));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('has no Market closed badge for a trading instrument', async () => {
    renderChart({ symbol: 'BTCUSDT' });
    await screen.findByText('BTCUSDT · 1h');
    await vi.waitFor(() => expect(useInstrumentStore.getState().symbols.BTCUSDT).toBeDefined());
    expect(screen.queryByText('Market closed')).not.toBeInTheDocument();
  });

  it('Buy and Sell emit the chart trade action', async () => {
    const { user } = renderChart();
    await user.click(await screen.findByRole('button', { name: 'Buy XAUUSD' }));
    expect(useChartTradeStore.getState().action).toEqual({
      chartId: 'chart-7',
      symbol: 'XAUUSD',
      tradeAction: 'buy',
    });
    await user.click(screen.getByRole('button', { name: 'Sell XAUUSD' }));
    expect(useChartTradeStore.getState()).toMatchObject({
      action: { chartId: 'chart-7', symbol: 'XAUUSD', tradeAction: 'sell' },
      seq: 2,
    });
  });

  it('left toolbar: chart type, zoom, and the code editor button the strategy workbench enables (hidden on phones)', async () => {
    const { user, onChartTypeChange, unmount } = renderChart();
    const toolbar = screen.getByRole('toolbar', { name: 'Chart tools' });
    expect(within(toolbar).getByRole('button', { name: 'Candles' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(within(toolbar).getByRole('button', { name: 'Line' }));
    expect(onChartTypeChange).toHaveBeenCalledWith('line');
    expect(within(toolbar).getByRole('button', { name: 'Fit all bars' })).toBeEnabled();
    expect(within(toolbar).getByRole('button', { name: 'Reset zoom' })).toBeEnabled();
    expect(within(toolbar).getByRole('button', { name: 'Python Code Editor' })).toBeEnabled();
    unmount();
    renderChart({ mobile: true });
    expect(screen.queryByRole('button', { name: 'Python Code Editor' })).not.toBeInTheDocument();
  });

  it('period selector offers 1m to 1M and reports the choice', async () => {
    const { user, onPeriodChange } = renderChart();
    const periods = screen.getByRole('radiogroup', { name: 'Period' });
    expect(
      within(periods)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['1m', '5m', '15m', '30m', '1h', '4h', '1D', '1W', '1M']);
    await user.click(within(periods).getByText('1D'));
    expect(onPeriodChange).toHaveBeenCalledWith('day');
  });

  it('phones pick the instrument in a search sheet grouped by market', async () => {
    const { user, onSymbolChange } = renderChart({ mobile: true });
    await user.click(screen.getByRole('button', { name: 'Instrument: XAUUSD' }));
    // antd's ids are all 'test-id' under test, so the dialog's label is checked as text.
    const sheet = await screen.findByRole('dialog');
    expect(within(sheet).getByText('Select instrument')).toBeInTheDocument();
    expect(within(sheet).getByRole('region', { name: 'Crypto' })).toBeInTheDocument();
    expect(within(sheet).getByRole('region', { name: 'Metals' })).toBeInTheDocument();
    await user.type(within(sheet).getByRole('textbox', { name: 'Search symbol or name' }), 'eth');
    expect(within(sheet).queryByRole('region', { name: 'Metals' })).not.toBeInTheDocument();
    const options = within(within(sheet).getByRole('region', { name: 'Crypto' })).getAllByRole(
      'button',
    );
    // Symbol matches first, then names containing the text ('Tether').
    expect(options.map((o) => o.textContent)).toEqual([
      'ETHUSDTEther / Tether',
      'BTCUSDTBitcoin / Tether',
    ]);
    await user.click(options[0]!);
    expect(onSymbolChange).toHaveBeenCalledWith('ETHUSDT');
  });
});

describe('filterGroups', () => {
  it('keeps groups with matches, symbol matches first', () => {
    expect(filterGroups(groups, ' usd ').map((g) => g.children.map((c) => c.id))).toEqual([
      ['BTCUSDT', 'ETHUSDT'],
      ['XAUUSD', 'XAGUSD'],
      ['EURUSD'],
    ]);
    expect(filterGroups(groups, 'gold').map((g) => g.name)).toEqual(['Metals']);
    expect(filterGroups(groups, 'zzz')).toEqual([]);
    expect(filterGroups(groups, '')).toHaveLength(3);
  });
});
