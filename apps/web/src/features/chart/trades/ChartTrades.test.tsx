import type { PositionView } from '@ct/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { IChartApi, ISeriesApi, SeriesType, Time } from 'lightweight-charts';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../shared/queryClient';
import { buildUser } from '../../../test/fixtures';
import { storeSession } from '../../../test/render';
import { useTradingDialogs } from '../../trading/dialogs';
import { tradingKeys } from '../../trading/queries';
import {
  buildPending,
  buildPosition,
  knowBtc,
  ok,
  setQuote,
  stubTradingFetch,
} from '../../trading/testSupport';
import type { ChartController, ChartLayer } from '../ChartController';
import { ChartTrades } from './ChartTrades';

/*
 * The labels of the trader's lines, on a stand-in chart whose price scale maps price p to
 * y = (50 000 − p) / 10 (jsdom draws no canvas).
 */

/** The stand-in chart's element (the layer marks it while a line is dragged). */
let chartElement: HTMLElement;

function fakeController(): ChartController {
  const element = document.createElement('div');
  chartElement = element;
  const series = {
    attachPrimitive: () => {},
    detachPrimitive: () => {},
    createPriceLine: (o: { price: number }) => {
      let current = { ...o };
      return {
        options: () => current,
        applyOptions: (next: object) => {
          current = { ...current, ...next };
        },
      };
    },
    removePriceLine: () => {},
    priceToCoordinate: (price: number) => (50_000 - price) / 10,
    coordinateToPrice: (y: number) => 50_000 - y * 10,
  };
  const chart = {
    chartElement: () => element,
    options: () => ({}),
    applyOptions: () => {},
    panes: () => [{ getHeight: () => 1000 }],
  };
  return {
    addLayer(layer: ChartLayer) {
      layer.attach(
        chart as unknown as IChartApi,
        series as unknown as ISeriesApi<SeriesType, Time> as never,
      );
      return () => layer.detach();
    },
  } as unknown as ChartController;
}

const colors = { up: 'green', down: 'red' } as Parameters<typeof ChartTrades>[0]['colors'];

function renderTrades() {
  return render(
    <ChartTrades controller={fakeController()} symbol="BTCUSDT" tick={0.1} colors={colors} />,
  );
}

// A buy of 2 lots with 0.5 closed, opened at 45 000, TP 45 500; a buy limit at 44 000.
const position = buildPosition({ tp: 45_500, sl: 0 });
const pending = buildPending({ pId: '21', pendPrice: 44_000, expireType: 'GFD' });

describe('the trader’s lines on a chart', () => {
  beforeEach(() => {
    useTradingDialogs.setState({ closePosition: null, cancelPending: null, editOrder: null });
    storeSession(buildUser());
    knowBtc();
    setQuote('BTCUSDT', 45_100, 45_100.5);
    stubTradingFetch({
      '/trading/order/position': ok({ orders: [position] }),
      '/trading/order/pending': ok({ pendings: [pending] }),
      '/trading/order/logs': ok({ orders: [], lastSortId: -1, total: 0 }),
    });
  });

  it('labels a position with side, open volume and live P&L, its TP, and a pending order', async () => {
    renderTrades();
    const row = await screen.findByRole('group', { name: 'Position 11: Buy 1.5' });
    // (45 100 − 45 000) × 1.5 at the bid
    expect(row).toHaveTextContent('+150.00');
    const tp = screen.getByRole('group', {
      name: 'TP of position 11 at 45500.0, drag to change',
    });
    // if reached: (45 500 − 45 000) × 1.5
    expect(tp).toHaveTextContent('+750.00');
    expect(tp.dataset.y).toBe('450');
    screen.getByRole('group', {
      name: 'Pending order 21: Buy Limit 1 GFD at 44000.0, drag to change',
    });
    expect(screen.queryByRole('group', { name: /^SL of position/ })).toBeNull();

    act(() => setQuote('BTCUSDT', 44_900, 44_900.5));
    expect(row).toHaveTextContent('-150.00');
  });

  it('opens the Close Position and Cancel Pending Order dialogs from the lines', async () => {
    renderTrades();
    const row = await screen.findByRole('group', { name: 'Position 11: Buy 1.5' });
    fireEvent.click(within(row).getByRole('button', { name: 'Close position 11' }));
    expect(useTradingDialogs.getState().closePosition?.orderId).toBe('11');
    // away from the workspace (here: /), the chart brings the dialogs itself
    await screen.findByRole('dialog', { name: 'Close Position' });
    act(() => useTradingDialogs.setState({ closePosition: null }));
    const order = screen.getByRole('group', { name: /^Pending order 21/ });
    // the label is a drag handle, but a press on its × is the button's, not a drag
    const cancel = within(order).getByRole('button', { name: 'Cancel pending order 21' });
    fireEvent.pointerDown(cancel, { pointerId: 1, button: 0, pointerType: 'mouse' });
    expect(chartElement.classList.contains('chart-trades-dragging')).toBe(false);
    fireEvent.click(cancel);
    expect(useTradingDialogs.getState().cancelPending?.pId).toBe('21');
    await screen.findByRole('dialog', { name: 'Cancel Pending Order' });
  });

  it('moves a pending order with the keys, confirms, and saves it with its change call', async () => {
    const calls = stubTradingFetch({
      '/trading/order/position': ok({ orders: [position] }),
      '/trading/order/pending': ok({ pendings: [pending] }),
      '/trading/order/logs': ok({ orders: [], lastSortId: -1, total: 0 }),
      '/trading/order/pending/modify': (call: { body: { pendPrice: number } }) => ({
        code: 0,
        msg: 'Pending order updated successfully',
        success: true,
        message: 'Pending order updated successfully',
        data: { pending: { ...pending, pendPrice: call.body.pendPrice } },
      }),
    });
    renderTrades();
    const order = await screen.findByRole('group', { name: /^Pending order 21/ });
    // Shift + Arrow Down: ten ticks of 0.1 down; the label shows the price it goes to
    fireEvent.keyDown(order, { key: 'ArrowDown', shiftKey: true });
    expect(order).toHaveTextContent('43999.0');
    fireEvent.keyDown(order, { key: 'Enter' });
    within(order).getByText('Move Buy Limit to 43999.0?');
    // the question and its two buttons only: no × while it asks
    expect(within(order).queryByRole('button', { name: 'Cancel pending order 21' })).toBeNull();
    fireEvent.click(within(order).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('group', {
      name: 'Pending order 21: Buy Limit 1 GFD at 43999.0, drag to change',
    });
    const change = calls.find((c) => c.path === '/trading/order/pending/modify');
    expect(change?.body).toMatchObject({ uuid: 'acc-1', pId: '21', pendPrice: 43_999 });
    // no TP or SL set: none sent
    expect(change?.body).not.toHaveProperty('tp');
  });

  it('puts a pending order dropped outside the band back, with the rule’s message', async () => {
    // the market came close to the order: 44 000.1 lies within 0.999–1.001 of the ask
    setQuote('BTCUSDT', 44_010, 44_010.5);
    renderTrades();
    const order = await screen.findByRole('group', { name: /^Pending order 21/ });
    fireEvent.keyDown(order, { key: 'ArrowUp' });
    expect(order).toHaveTextContent('44000.1');
    fireEvent.keyDown(order, { key: 'Enter' });
    // 0.8 × 44 010.5 = 35 208.4; 0.999 × 44 010.5 = 43 966.4895 → 43 966.4
    await screen.findByText(
      'Limit price must be between 35208.4 and 43966.4 (below the market) or between 44054.6 and 52812.6 (above the market)',
    );
    expect(within(order).queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(order).toHaveAccessibleName(
      'Pending order 21: Buy Limit 1 GFD at 44000.0, drag to change',
    );
  });

  it('follows the cached lists: a new TP moves its line, a closed position takes its lines', async () => {
    renderTrades();
    await screen.findByRole('group', { name: 'Position 11: Buy 1.5' });
    const key = tradingKeys.list('acc-1', 'positions');
    act(() => {
      queryClient.setQueryData<PositionView[]>(key, [{ ...position, tp: 45_600, sl: 44_500 }]);
    });
    const tp = await screen.findByRole('group', {
      name: 'TP of position 11 at 45600.0, drag to change',
    });
    expect(tp.dataset.y).toBe('440');
    await screen.findByRole('group', { name: 'SL of position 11 at 44500.0, drag to change' });
    act(() => {
      queryClient.setQueryData<PositionView[]>(key, []);
    });
    await waitFor(() => expect(screen.queryByRole('group', { name: /position 11/ })).toBeNull());
  });
});
