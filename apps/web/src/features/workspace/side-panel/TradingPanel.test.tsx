import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InstrumentsModule from '../../../market/instruments';
import type * as LiveModule from '../../../realtime/live';
import { resetQuotes } from '../../../realtime/quotes';
import { buildUser } from '../../../test/fixtures';
import { renderWithProviders, storeSession } from '../../../test/render';
import { useAuthStore } from '../../auth/store';
import { closeEditOrder, openEditOrder } from '../../trading/dialogs';
import { buildPosition, knowBtc, setQuote } from '../../trading/testSupport';
import { WideTradingRuntime } from '../bottom-panel/WideTradingRuntime';
import { DEFAULT_CELLS, useChartGridStore } from '../../../shared/chartGrid';
import { SidePanel } from './SidePanel';
import { clickSideButton, useSidePanelStore } from './store';

vi.mock('../../../market/instruments', async (importOriginal) => ({
  ...(await importOriginal<typeof InstrumentsModule>()),
  useInstrumentCatalogue: () => {},
}));
vi.mock('../../../realtime/live', async (importOriginal) => ({
  ...(await importOriginal<typeof LiveModule>()),
  watchSymbol: () => () => {},
}));

function renderSide() {
  return renderWithProviders(
    <>
      <SidePanel />
      <WideTradingRuntime />
    </>,
  );
}

describe('trading panel', () => {
  beforeEach(() => {
    storeSession(buildUser());
    knowBtc();
    resetQuotes();
    setQuote('BTCUSDT', 45_000, 45_000.5);
    closeEditOrder();
    useSidePanelStore.setState({ active: 'trading' });
    useChartGridStore.setState({
      layout: 1,
      activeChartId: 'chart-1',
      charts: DEFAULT_CELLS.map((cell) => ({ ...cell })),
    });
  });

  it('holds the order ticket of the active chart’s instrument', async () => {
    renderSide();
    // the ticket is a chunk of its own (it follows the first drawn chart)
    expect(
      await screen.findByRole('heading', { name: 'BTCUSDT Paper Trading' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'BTCUSDT Order' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Place Buy Order' })).toBeEnabled();
  });

  it('asks to log in to a trading account without one', async () => {
    useAuthStore.setState({ currentTrader: null });
    renderSide();
    expect(await screen.findByText('Please login to trading account first')).toBeInTheDocument();
  });

  it('an edit-order action takes the side panel, even from another panel; Close ends it', async () => {
    useSidePanelStore.setState({ active: 'analysis' });
    const { user } = renderSide();
    act(() => openEditOrder(buildPosition()));
    expect(useSidePanelStore.getState().active).toBe('trading');
    expect(await screen.findByRole('heading', { name: 'Edit Order' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(
      await screen.findByRole('heading', { name: 'BTCUSDT Paper Trading' }),
    ).toBeInTheDocument();
  });

  it('leaving the trading panel ends the edit', async () => {
    renderSide();
    act(() => openEditOrder(buildPosition()));
    expect(await screen.findByRole('heading', { name: 'Edit Order' })).toBeInTheDocument();
    act(() => clickSideButton('settings'));
    act(() => clickSideButton('trading'));
    expect(
      await screen.findByRole('heading', { name: 'BTCUSDT Paper Trading' }),
    ).toBeInTheDocument();
  });
});
