import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../test/fixtures';
import { renderWithProviders, storeSession } from '../../test/render';
import { useAuthStore } from '../auth/store';
import type { EditableOrder } from './actions';
import { EditOrderPanel } from './EditOrderPanel';
import { resetQuotes } from '../../realtime/quotes';
import { buildPosition, helperOk, refused, setQuote, stubTradingFetch } from './testSupport';

const BUY: EditableOrder = {
  orderId: '11',
  symbol: 'BTCUSDT',
  side: 'buy',
  availableVolume: 1.5,
  totalVolume: 2,
  openPrice: 45_000,
  tp: 0,
  sl: 44_000,
  tick: 0.1,
};

function renderPanel(order: EditableOrder = BUY) {
  const onClose = vi.fn();
  const view = renderWithProviders(<EditOrderPanel order={order} onClose={onClose} />);
  return {
    ...view,
    onClose,
    save: () => view.user.click(screen.getByRole('button', { name: 'Save' })),
  };
}

describe('Edit Order panel', () => {
  beforeEach(() => {
    resetQuotes();
    storeSession(buildUser());
  });

  it('shows the order with Not Set for a missing level, and Close and Cancel close it', async () => {
    const { user, onClose } = renderPanel();
    expect(screen.getByRole('heading', { name: 'Edit Order' })).toBeInTheDocument();
    for (const [label, value] of [
      ['Symbol', 'BTCUSDT'],
      ['Direction', 'Buy'],
      ['Available Volume', '1.5'],
      ['Total Volume', '2'],
      ['Open Price', '45000.0'],
      ['Current TP', 'Not Set'],
      ['Current SL', '44000.0'],
    ]) {
      const cell = screen.getByText(label!).closest('tr');
      expect(cell).toHaveTextContent(value!);
    }
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('a checkbox enables its price input with the tick, min 0, step and range hint', async () => {
    const { user } = renderPanel();
    // the SL exists: its checkbox starts on with its price
    expect(screen.getByRole('checkbox', { name: 'SL' })).toBeChecked();
    expect(screen.getByLabelText('SL price')).toHaveValue('44000.0');
    expect(screen.getByText('SL range: 36000.0 ~ 44955.0')).toBeInTheDocument();

    expect(screen.getByRole('checkbox', { name: 'TP' })).not.toBeChecked();
    expect(screen.queryByLabelText('TP price')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'TP' }));
    const tp = screen.getByLabelText('TP price');
    // the default 10 ticks beyond the range's edge (45045.0), not on it
    expect(tp).toHaveValue('45046.0');
    expect(tp).toHaveAttribute('aria-valuemin', '0');
    expect(tp).toHaveAttribute('step', '0.1');
    expect(screen.getAllByText('Tick: 0.1')).toHaveLength(2);
    expect(screen.getByText('TP range: 45045.0 ~ 54000.0')).toBeInTheDocument();
  });

  it('a newly enabled level starts 10 ticks beyond the edge of its range, or of the market', async () => {
    const { user } = renderPanel({ ...BUY, sl: 0 });
    await user.click(screen.getByRole('checkbox', { name: 'SL' }));
    expect(screen.getByLabelText('SL price')).toHaveValue('44954.0');
    // turned off and on again, the level keeps what it had
    await user.click(screen.getByRole('checkbox', { name: 'SL' }));
    await user.click(screen.getByRole('checkbox', { name: 'SL' }));
    expect(screen.getByLabelText('SL price')).toHaveValue('44954.0');
    // the bid is past the TP's edge: the default distance counts from it
    act(() => setQuote('BTCUSDT', 46_000, 46_000.5));
    await user.click(screen.getByRole('checkbox', { name: 'TP' }));
    expect(screen.getByLabelText('TP price')).toHaveValue('46001.0');
  });

  it('refuses a TP outside its range inline, without a call', async () => {
    const calls = stubTradingFetch({});
    const { user, fill, save, onClose } = renderPanel();
    await user.click(screen.getByRole('checkbox', { name: 'TP' }));
    await fill(screen.getByLabelText('TP price'), '44000');
    await save();
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'TP price must be between 45045.0 and 54000.0',
      ),
    );
    await fill(screen.getByLabelText('TP price'), '');
    await save();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Invalid TP price'));
    expect(calls).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('saves the enabled levels only, says so and closes', async () => {
    const calls = stubTradingFetch({
      '/trading/order/tpsl': helperOk(
        { order: buildPosition({ tp: 45_500 }) },
        'Take Profit / Stop Loss updated successfully',
      ),
    });
    const { user, fill, save, onClose } = renderPanel();
    await user.click(screen.getByRole('checkbox', { name: 'TP' }));
    await fill(screen.getByLabelText('TP price'), '45500');
    await user.click(screen.getByRole('checkbox', { name: 'SL' })); // SL removed
    await save();
    expect(await screen.findByText('Take Profit / Stop Loss updated successfully')).toBeVisible();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(calls[0]?.path).toBe('/trading/order/tpsl');
    expect(calls[0]?.body).toEqual({ orderId: '11', tp: 45500, token: 'tok-1', uuid: 'acc-1' });
  });

  it('shows the server’s message inline when the update is refused', async () => {
    stubTradingFetch({
      '/trading/order/tpsl': () => refused('TP price must be above the current price 45600.0'),
    });
    const { user, save, onClose } = renderPanel();
    await user.click(screen.getByRole('checkbox', { name: 'TP' }));
    await save();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'TP price must be above the current price 45600.0',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('falls back to the spec’s text when the request fails', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const { save } = renderPanel();
    await save();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to update Take Profit / Stop Loss',
    );
  });

  it('needs the order id and the account', async () => {
    useAuthStore.setState({ currentTrader: null });
    const { save } = renderPanel();
    await save();
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Missing required trading information'),
    );
  });
});
