import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InstrumentsModule from '../../market/instruments';
import type * as LiveModule from '../../realtime/live';
import { resetQuotes } from '../../realtime/quotes';
import { buildUser } from '../../test/fixtures';
import { renderWithProviders, storeSession } from '../../test/render';
import { emitChartTradeAction, useChartTradeStore } from '../../shared/tradeAction';
import { closeEditOrder, openEditOrder, useTradingDialogs } from './dialogs';
import { EditOrderModal, TradingModal } from './PhoneTradingModals';
import { buildPosition, knowBtc, setQuote } from './testSupport';

vi.mock('../../market/instruments', async (importOriginal) => ({
  ...(await importOriginal<typeof InstrumentsModule>()),
  useInstrumentCatalogue: () => {},
}));
vi.mock('../../realtime/live', async (importOriginal) => ({
  ...(await importOriginal<typeof LiveModule>()),
  watchSymbol: () => () => {},
}));

describe('phone trading modals', () => {
  beforeEach(() => {
    storeSession(buildUser());
    knowBtc();
    resetQuotes();
    setQuote('BTCUSDT', 45_000, 45_000.5);
    useChartTradeStore.setState({ action: null, seq: 0 });
    closeEditOrder();
  });

  it('a chart trade action opens the full-screen trading modal on its side; closing clears it', async () => {
    const { user } = renderWithProviders(<TradingModal />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    act(() => emitChartTradeAction({ chartId: 'chart-1', symbol: 'BTCUSDT', tradeAction: 'sell' }));
    const dialog = await screen.findByRole('dialog', { name: 'BTCUSDT Paper Trading' });
    expect(dialog.closest('.fullscreen-modal')).not.toBeNull();
    expect(within(dialog).getByRole('tab', { name: 'Order' })).toBeInTheDocument();
    expect(within(dialog).getByRole('tab', { name: 'DOM' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Sell' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(useChartTradeStore.getState().action).toBeNull();
  });

  it('the Edit Order panel is a full-screen modal', async () => {
    const { user } = renderWithProviders(<EditOrderModal />);
    act(() => openEditOrder(buildPosition()));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Order' });
    expect(dialog.closest('.fullscreen-modal')).not.toBeNull();
    expect(within(dialog).getByText('Available Volume')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(useTradingDialogs.getState().editOrder).toBeNull();
  });
});
