import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../../test/fixtures';
import { renderApp, storeSession } from '../../../test/render';
import { stubMarketFetch } from '../../chart/testSupport';
import { useChartTradeStore } from '../../../shared/tradeAction';
import { useSidePanelStore } from '../side-panel/store';
import { DEFAULT_CELLS, useChartGridStore } from '../../../shared/chartGrid';

describe('chart grid in the workspace', () => {
  beforeEach(() => {
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(1440);
    useChartGridStore.setState({
      layout: 4,
      activeChartId: 'chart-1',
      charts: DEFAULT_CELLS.map((c) => ({ ...c })),
    });
    useChartTradeStore.setState({ action: null, seq: 0 });
    storeSession(buildUser());
    stubMarketFetch();
  });

  it('each cell shows its own instrument; the trading panel titles the active one', async () => {
    useSidePanelStore.setState({ active: 'trading' });
    const { user } = renderApp('/desktop');
    const panel = await screen.findByRole('complementary', { name: 'Trading' });
    expect(within(panel).getByRole('heading')).toHaveTextContent('BTCUSDT Paper Trading');
    const symbols = ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'EURUSD'];
    for (const [i, symbol] of symbols.entries()) {
      expect(screen.getByRole('region', { name: `Chart ${i + 1}` })).toHaveTextContent(symbol);
    }
    await user.click(screen.getByRole('region', { name: 'Chart 3' }));
    expect(within(panel).getByRole('heading')).toHaveTextContent('XAUUSD Paper Trading');
  });

  it('Buy on a chart activates it, emits the trade action and opens the trading panel', async () => {
    useSidePanelStore.setState({ active: 'none' });
    const { user } = renderApp('/desktop');
    const second = await screen.findByRole('region', { name: 'Chart 2' });
    await user.click(within(second).getByRole('button', { name: 'Buy ETHUSDT' }));
    expect(second).toHaveAttribute('aria-current', 'true');
    expect(useChartTradeStore.getState().action).toEqual({
      chartId: 'chart-2',
      symbol: 'ETHUSDT',
      tradeAction: 'buy',
    });
    const panel = await screen.findByRole('complementary', { name: 'Trading' });
    expect(within(panel).getByRole('heading')).toHaveTextContent('ETHUSDT Paper Trading');
  });
});
