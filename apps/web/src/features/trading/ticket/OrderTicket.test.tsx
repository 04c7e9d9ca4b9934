import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InstrumentsModule from '../../../market/instruments';
import type * as LiveModule from '../../../realtime/live';
import { resetQuotes } from '../../../realtime/quotes';
import { buildUser } from '../../../test/fixtures';
import { renderWithProviders, storeSession } from '../../../test/render';
import { useAuthStore } from '../../auth/store';
import { emitChartTradeAction, useChartTradeStore } from '../../../shared/tradeAction';
import {
  buildPending,
  buildPosition,
  helperOk,
  knowBtc,
  knowEurusd,
  refused,
  setQuote,
  stubTradingFetch,
} from '../testSupport';
import { OrderTicket } from './OrderTicket';

// The catalogue and the live feed are set by the tests, not fetched.
vi.mock('../../../market/instruments', async (importOriginal) => ({
  ...(await importOriginal<typeof InstrumentsModule>()),
  useInstrumentCatalogue: () => {},
}));
vi.mock('../../../realtime/live', async (importOriginal) => ({
  ...(await importOriginal<typeof LiveModule>()),
  watchSymbol: () => () => {},
}));

function renderTicket(symbol = 'BTCUSDT') {
  const view = renderWithProviders(<OrderTicket symbol={symbol} />);
  const place = () => screen.getByRole('button', { name: /^Place (Buy|Sell) Order$/ });
  const quantity = () => screen.getByLabelText('Quantity');
  const limitPrice = () => screen.getByLabelText('Limit Price');
  const margin = () => screen.getByLabelText('Margin (USD)');
  const chooseLimit = () => view.user.click(screen.getByText('Limit', { exact: true }));
  return { ...view, place, quantity, limitPrice, margin, chooseLimit };
}

describe('order ticket', () => {
  beforeEach(() => {
    storeSession(buildUser());
    knowBtc();
    resetQuotes();
    setQuote('BTCUSDT', 45_000, 45_000.5);
    useChartTradeStore.setState({ action: null, seq: 0 });
  });
  afterEach(() => {
    resetQuotes();
  });

  it('starts as a Market buy of 1 at GTC with the live reference prices and margin', () => {
    const { place, quantity, margin } = renderTicket();
    expect(screen.getByRole('radio', { name: 'Buy' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByRole('radio', { name: 'Buy' })).toHaveTextContent('45000.5');
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveTextContent('45000.0');
    expect(screen.getByRole('radio', { name: 'Market' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'GTC' })).toBeChecked();
    expect(quantity()).toHaveValue('1.00');
    // margin = ask × 1 lot × 1 × 10 %
    expect(margin()).toHaveValue('4500.05');
    expect(margin()).toBeDisabled();
    expect(place()).toBeEnabled();
    expect(place()).toHaveTextContent('Place Buy Order');
  });

  it('follows the live quote', () => {
    renderTicket();
    act(() => setQuote('BTCUSDT', 45_100, 45_100.5));
    expect(screen.getByRole('radio', { name: 'Buy' })).toHaveTextContent('45100.5');
    expect(screen.getByLabelText('Margin (USD)')).toHaveValue('4510.05');
  });

  it('a side change sets the limit price to that side’s reference price', async () => {
    const { user, chooseLimit, limitPrice, fill } = renderTicket();
    await chooseLimit();
    expect(limitPrice()).toHaveValue('45000.5'); // buy: the ask
    await fill(limitPrice(), '44000');
    await user.click(screen.getByRole('radio', { name: 'Sell' }));
    expect(limitPrice()).toHaveValue('45000.0'); // sell: the bid
    expect(screen.getByRole('button', { name: 'Place Sell Order' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Buy' }));
    expect(limitPrice()).toHaveValue('45000.5');
  });

  it('checks the band: outside refused with the message and the button disabled', async () => {
    const { chooseLimit, limitPrice, fill, place } = renderTicket();
    await chooseLimit();
    // the reference itself lies in the gap between the two bands
    expect(place()).toBeDisabled();
    const bothRanges =
      'Limit price must be between 36000.4 and 44955.4 (below the market) or between 45045.6 and 54000.6 (above the market)';
    expect(screen.getByText(bothRanges)).toBeInTheDocument();
    await fill(limitPrice(), '30000');
    expect(screen.getByText(bothRanges)).toBeInTheDocument();
    expect(place()).toBeDisabled();
    await fill(limitPrice(), '44000');
    expect(screen.queryByText(/Limit price must be between/)).not.toBeInTheDocument();
    expect(place()).toBeEnabled();
    await fill(limitPrice(), '0');
    expect(screen.getByText('Limit order price must be greater than 0')).toBeInTheDocument();
    expect(place()).toBeDisabled();
  });

  it('one click on the message snaps the limit price to the nearest valid price', async () => {
    const { user, chooseLimit, limitPrice, fill, place } = renderTicket();
    await chooseLimit();
    // the ask (45000.5) is as far from both ranges: a buy rests below the market
    await user.click(screen.getByRole('button', { name: 'Use 44955.4' }));
    expect(limitPrice()).toHaveValue('44955.4');
    expect(screen.queryByText(/Limit price must be between/)).not.toBeInTheDocument();
    expect(place()).toBeEnabled();
    await fill(limitPrice(), '60000');
    await user.click(screen.getByRole('button', { name: 'Use 54000.6' }));
    expect(limitPrice()).toHaveValue('54000.6');
    expect(place()).toBeEnabled();
    await user.click(screen.getByRole('radio', { name: 'Sell' }));
    // a sell rests above the bid (45000.0)
    await user.click(screen.getByRole('button', { name: 'Use 45045.0' }));
    expect(limitPrice()).toHaveValue('45045.0');
    expect(screen.getByRole('button', { name: 'Place Sell Order' })).toBeEnabled();
  });

  it('GFD and GTC apply to limit orders only', async () => {
    const { chooseLimit, user } = renderTicket();
    expect(screen.getByRole('radio', { name: 'GFD' })).toBeDisabled();
    await chooseLimit();
    await user.click(screen.getByText('GFD', { exact: true }));
    expect(screen.getByRole('radio', { name: 'GFD' })).toBeChecked();
  });

  it('TP/SL ticks and prices follow each other both ways, from the order price', async () => {
    const { user, fill, chooseLimit, limitPrice } = renderTicket();
    await user.click(screen.getByRole('checkbox', { name: 'Take Profit' }));
    const tpTicks = screen.getByLabelText('TP ticks');
    const tpPrice = screen.getByLabelText('TP price');
    // 10 ticks above the ask would be inside 0.1 % of it: the nearest allowed level instead
    expect(tpTicks).toHaveValue('451');
    expect(tpPrice).toHaveValue('45045.6');
    expect(screen.queryByText(/TP price must be between/)).not.toBeInTheDocument();

    await fill(tpTicks, '10');
    expect(tpPrice).toHaveValue('45001.5');
    expect(screen.getByText('TP price must be between 45045.6 and 54000.6')).toBeInTheDocument();

    await fill(tpTicks, '500');
    expect(tpPrice).toHaveValue('45050.5');
    expect(screen.queryByText(/TP price must be between/)).not.toBeInTheDocument();

    await fill(tpPrice, '45100.5');
    expect(tpTicks).toHaveValue('1000');

    await user.click(screen.getByRole('checkbox', { name: 'Stop Loss' }));
    const slTicks = screen.getByLabelText('SL ticks');
    const slPrice = screen.getByLabelText('SL price');
    await fill(slTicks, '600');
    expect(slPrice).toHaveValue('44940.5'); // below the ask for a buy

    // measured from the limit price once there is one
    await chooseLimit();
    await fill(limitPrice(), '44000');
    expect(slPrice).toHaveValue('43940.0');
    expect(tpTicks).toHaveValue('11005'); // a typed price keeps its price
    expect(tpPrice).toHaveValue('45100.5');

    // a sell mirrors them: TP below, SL above the order price
    await fill(tpTicks, '1000');
    await user.click(screen.getByRole('radio', { name: 'Sell' }));
    expect(limitPrice()).toHaveValue('45000.0');
    expect(screen.getByLabelText('TP price')).toHaveValue('44900.0');
    expect(screen.getByLabelText('SL price')).toHaveValue('45060.0');
  });

  it('enabling TP or SL starts at the default 10 ticks when that level is allowed', async () => {
    setQuote('BTCUSDT', 100, 100.5);
    const { user, place } = renderTicket();
    await user.click(screen.getByRole('checkbox', { name: 'Take Profit' }));
    await user.click(screen.getByRole('checkbox', { name: 'Stop Loss' }));
    expect(screen.getByLabelText('TP ticks')).toHaveValue('10');
    expect(screen.getByLabelText('TP price')).toHaveValue('101.5');
    expect(screen.getByLabelText('SL ticks')).toHaveValue('10');
    expect(screen.getByLabelText('SL price')).toHaveValue('99.5');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(place()).toBeEnabled();
  });

  it('enabling TP or SL starts valid where 10 ticks lie inside the band (EURUSD)', async () => {
    knowEurusd();
    setQuote('EURUSD', 1.29896, 1.29904);
    const { user, place } = renderTicket('EURUSD');
    await user.click(screen.getByRole('checkbox', { name: 'Take Profit' }));
    await user.click(screen.getByRole('checkbox', { name: 'Stop Loss' }));
    // buy: TP from 1.29904 × 1.001, SL up to 1.29904 × 0.999, on the 0.00001 grid
    expect(screen.getByLabelText('TP price')).toHaveValue('1.30034');
    expect(screen.getByLabelText('TP ticks')).toHaveValue('130');
    expect(screen.getByLabelText('SL price')).toHaveValue('1.29774');
    expect(screen.getByLabelText('SL ticks')).toHaveValue('130');
    expect(screen.queryByText(/(TP|SL) price must be between/)).not.toBeInTheDocument();
    expect(place()).toBeEnabled();
  });

  it('a TP or SL the ticket chose stays at the nearest allowed level as the quote moves', async () => {
    const { user, fill, place } = renderTicket();
    await user.click(screen.getByRole('checkbox', { name: 'Take Profit' }));
    await user.click(screen.getByRole('checkbox', { name: 'Stop Loss' }));
    expect(screen.getByLabelText('TP price')).toHaveValue('45045.6');
    expect(screen.getByLabelText('SL price')).toHaveValue('44955.4');
    // 45100.5 × 1.001 = 45145.6005 and × 0.999 = 45055.3995, inwards to the tick
    act(() => setQuote('BTCUSDT', 45_100, 45_100.5));
    expect(screen.getByLabelText('TP price')).toHaveValue('45145.7');
    expect(screen.getByLabelText('TP ticks')).toHaveValue('452');
    expect(screen.getByLabelText('SL price')).toHaveValue('45055.3');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(place()).toBeEnabled();
    // a level the user typed stays where it was put
    await fill(screen.getByLabelText('TP ticks'), '500');
    act(() => setQuote('BTCUSDT', 45_000, 45_000.5));
    expect(screen.getByLabelText('TP price')).toHaveValue('45050.5');
  });

  it('an enabled TP or SL out of range disables the place button with its message', async () => {
    const { user, fill, place } = renderTicket();
    await user.click(screen.getByRole('checkbox', { name: 'Take Profit' }));
    await fill(screen.getByLabelText('TP ticks'), '10');
    expect(screen.getByText('TP price must be between 45045.6 and 54000.6')).toBeInTheDocument();
    expect(place()).toBeDisabled();
    await fill(screen.getByLabelText('TP ticks'), '500');
    expect(place()).toBeEnabled();

    await user.click(screen.getByRole('checkbox', { name: 'Stop Loss' }));
    await fill(screen.getByLabelText('SL price'), '45000');
    expect(screen.getByText('SL price must be between 36000.4 and 44955.4')).toBeInTheDocument();
    expect(place()).toBeDisabled();
    // an SL that is not set any more does not count
    await user.click(screen.getByRole('checkbox', { name: 'Stop Loss' }));
    expect(place()).toBeEnabled();
  });

  it('a limit price off the tick disables the place button with its message', async () => {
    knowEurusd({ min_price_tick: 0.25 });
    setQuote('EURUSD', 100, 100.25);
    const { fill, chooseLimit, limitPrice, place } = renderTicket('EURUSD');
    await chooseLimit();
    await fill(limitPrice(), '95.1');
    expect(
      screen.getByText('Limit price must be a multiple of the tick size 0.25'),
    ).toBeInTheDocument();
    expect(place()).toBeDisabled();
  });

  it('shows EURUSD’s bid and ask with its 5 decimals, the spread visible', () => {
    knowEurusd();
    setQuote('EURUSD', 1.29896, 1.29904);
    renderTicket('EURUSD');
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveTextContent('1.29896');
    expect(screen.getByRole('radio', { name: 'Buy' })).toHaveTextContent('1.29904');
  });

  it('shows prices with 4 decimals while the instrument is unknown', () => {
    setQuote('EURUSD', 1.29896, 1.29904);
    renderTicket('EURUSD');
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveTextContent('1.2990');
    expect(screen.getByRole('radio', { name: 'Sell' })).not.toHaveTextContent('1.30');
  });

  it('margin and limit price are linked: a margin sets the price', async () => {
    const { fill, chooseLimit, limitPrice, margin } = renderTicket();
    await chooseLimit();
    expect(margin()).toBeEnabled();
    await fill(margin(), '4400');
    // 4400 / (1 lot × 1 × 10 %) = 44000
    expect(limitPrice()).toHaveValue('44000.0');
    await fill(screen.getByLabelText('Quantity'), '2');
    expect(margin()).toHaveValue('8800.00');
    await fill(limitPrice(), '43000');
    expect(margin()).toHaveValue('8600.00');
  });

  it('clamps the quantity up to the minimum and shows the quantity rules inline', async () => {
    const { fill, quantity, place } = renderTicket();
    expect(screen.getByText('Min 0.01 · Max 100 · Step 0.01')).toBeInTheDocument();
    await fill(quantity(), '0');
    expect(screen.getByText('数量必须大于0')).toBeInTheDocument();
    expect(place()).toBeDisabled();
    await fill(quantity(), '101');
    expect(
      screen.getByText('Quantity cannot exceed 100 and must be a multiple of 0.01'),
    ).toBeInTheDocument();
    expect(place()).toBeDisabled();
    await fill(quantity(), '0');
    act(() => quantity().blur());
    await waitFor(() => expect(quantity()).toHaveValue('0.01'));
    expect(screen.queryByText('数量必须大于0')).not.toBeInTheDocument();
    expect(place()).toBeEnabled();
  });

  it('is disabled without quotes and without an account', () => {
    resetQuotes();
    const { place } = renderTicket();
    expect(place()).toBeDisabled();
    expect(screen.getByText('Waiting for quotes…')).toBeInTheDocument();
    act(() => setQuote('BTCUSDT', 45_000, 45_000.5));
    expect(place()).toBeEnabled();
    act(() => useAuthStore.setState({ currentTrader: null }));
    expect(place()).toBeDisabled();
  });

  it('a chart Buy or Sell sets the side', () => {
    renderTicket();
    act(() => emitChartTradeAction({ chartId: 'chart-1', symbol: 'BTCUSDT', tradeAction: 'sell' }));
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveAttribute('aria-checked', 'true');
    // another instrument's action is not this ticket's
    act(() => emitChartTradeAction({ chartId: 'chart-2', symbol: 'ETHUSDT', tradeAction: 'buy' }));
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveAttribute('aria-checked', 'true');
  });

  it('a ticket opened by a chart action starts on its side', () => {
    emitChartTradeAction({ chartId: 'chart-1', symbol: 'BTCUSDT', tradeAction: 'sell' });
    renderTicket();
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveAttribute('aria-checked', 'true');
  });

  it('places a market order with TP and shows the order id', async () => {
    const calls = stubTradingFetch({
      '/trading/order/open': helperOk({ order: buildPosition({ orderId: '77' }) }, 'Order filled'),
    });
    const { user, fill, place } = renderTicket();
    await user.click(screen.getByRole('checkbox', { name: 'Take Profit' }));
    await fill(screen.getByLabelText('TP ticks'), '1000');
    await user.click(place());
    expect(await screen.findByText('Order successful! Order ID: 77')).toBeInTheDocument();
    const open = calls.find((c) => c.path === '/trading/order/open');
    expect(open?.body).toMatchObject({
      uuid: 'acc-1',
      token: 'tok-1',
      symbol: 'BTCUSDT',
      cmd: 1,
      volume: 1,
      tp: 45100.5,
      channel: 1,
      device: 1,
    });
    expect(open?.body).not.toHaveProperty('sl');
  });

  it('places a pending order and shows the pending id', async () => {
    const calls = stubTradingFetch({
      '/trading/order/pending/add': helperOk(
        { pending: buildPending({ pId: '88' }) },
        'Pending order placed',
      ),
    });
    const { user, fill, place, chooseLimit, limitPrice } = renderTicket();
    await chooseLimit();
    await user.click(screen.getByRole('radio', { name: 'Sell' }));
    await fill(limitPrice(), '46000');
    await user.click(screen.getByText('GFD', { exact: true }));
    await user.click(place());
    expect(await screen.findByText('Pending order successful! Order ID: 88')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/trading/order/pending/add')?.body).toMatchObject({
      cmd: 2,
      volume: 1,
      pendPrice: 46000,
      expireType: 'GFD',
    });
  });

  it('shows the server’s message when the order is refused', async () => {
    stubTradingFetch({
      '/trading/order/open': () => refused('The market for BTCUSDT is closed', 422),
    });
    const { user, place } = renderTicket();
    await user.click(place());
    expect(await screen.findByText('The market for BTCUSDT is closed')).toBeInTheDocument();
  });

  it('a network failure asks to try again', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const { user, place } = renderTicket();
    await user.click(place());
    expect(await screen.findByText('Order failed, please try again')).toBeInTheDocument();
  });
});
