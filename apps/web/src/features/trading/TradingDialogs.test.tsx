import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InstrumentsModule from '../../market/instruments';
import { resetQuotes } from '../../realtime/quotes';
import { buildUser } from '../../test/fixtures';
import { renderWithProviders, storeSession } from '../../test/render';
import { openCancelPending, openClosePosition, useTradingDialogs } from './dialogs';
import { useInstrumentStore } from '../../market/instruments';
import {
  BTC_INFO,
  buildPending,
  buildPosition,
  knowBtc,
  knowEurusd,
  setQuote,
  stubTradingFetch,
} from './testSupport';
import { TradingDialogs } from './TradingDialogs';

vi.mock('../../market/instruments', async (importOriginal) => ({
  ...(await importOriginal<typeof InstrumentsModule>()),
  useInstrumentCatalogue: () => {},
}));

async function openClose(position = buildPosition()) {
  const view = renderWithProviders(<TradingDialogs />);
  act(() => openClosePosition(position));
  const dialog = await screen.findByRole('dialog', { name: 'Close Position' });
  return {
    ...view,
    dialog,
    quantity: () => within(dialog).getByLabelText('Close quantity'),
    confirm: () => within(dialog).getByRole('button', { name: 'Close Position' }),
  };
}

describe('Close Position modal', () => {
  beforeEach(() => {
    storeSession(buildUser());
    knowBtc();
    resetQuotes();
    useTradingDialogs.setState({ closePosition: null, cancelPending: null, editOrder: null });
  });

  it('starts at the available volume with the confirm button enabled', async () => {
    const { quantity, confirm, dialog } = await openClose();
    expect(quantity()).toHaveValue('1.50');
    expect(confirm()).toBeEnabled();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    ['0', '数量必须大于0'],
    ['2', 'Quantity cannot exceed 1.5 and must be a multiple of 0.01'],
    ['', 'Invalid quantity'],
  ])(
    'a quantity of "%s" disables the confirm button with its message, before any click',
    async (text, message) => {
      const calls = stubTradingFetch({});
      const { quantity, confirm, dialog, fill, user } = await openClose();
      await fill(quantity(), text);
      expect(within(dialog).getByRole('alert')).toHaveTextContent(message);
      expect(confirm()).toBeDisabled();
      await user.click(confirm());
      expect(calls.some((c) => c.path === '/trading/order/close')).toBe(false);
      // a valid quantity enables it again
      await fill(quantity(), '0.5');
      expect(confirm()).toBeEnabled();
    },
  );

  it('an off-step quantity disables the confirm button with its message', async () => {
    useInstrumentStore.setState({ symbols: { BTCUSDT: { ...BTC_INFO, vol_limit_min: 0.25 } } });
    const { quantity, confirm, dialog, fill } = await openClose();
    await fill(quantity(), '0.3');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Quantity must be a multiple of 0.25, for example 0.25, 0.5, 0.75',
    );
    expect(confirm()).toBeDisabled();
  });

  it('shows the open and market prices with the instrument’s decimals', async () => {
    knowEurusd();
    setQuote('EURUSD', 1.29896, 1.29904);
    const { dialog } = await openClose(
      buildPosition({ symbol: 'EURUSD', price: 1.2988, marketPrice: 1.2989 }),
    );
    expect(within(dialog).getByText('1.29880')).toBeInTheDocument();
    // a buy closes at the bid
    expect(within(dialog).getByText('1.29896')).toBeInTheDocument();
  });
});

describe('Cancel Pending Order confirmation', () => {
  beforeEach(() => {
    storeSession(buildUser());
    knowBtc();
    useTradingDialogs.setState({ closePosition: null, cancelPending: null, editOrder: null });
  });

  it('shows the pending price and its levels with the instrument’s decimals', async () => {
    knowEurusd();
    renderWithProviders(<TradingDialogs />);
    act(() =>
      openCancelPending(buildPending({ symbol: 'EURUSD', pendPrice: 1.2, tp: 1.21, sl: 1.19 })),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Pending Order' });
    expect(dialog).toHaveTextContent('EURUSD @ 1.20000 · GTC · TP 1.21000 · SL 1.19000');
  });
});
