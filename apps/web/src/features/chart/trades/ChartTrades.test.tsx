import type { PositionView } from '@ct/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { IChartApi, ISeriesApi, SeriesType, Time } from 'lightweight-charts';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../shared/queryClient';
import { buildUser } from '../../../test/fixtures';
import { storeSession } from '../../../test/render';
import { useTradingDialogs } from '../../trading/dialogs';
import { tradingKeys } from '../../trading/store';
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

function fakeController(): ChartController {
  const element = document.createElement('div');
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
    screen.getByRole('group', { name: 'Pending order 21: Buy Limit 1 GFD at 44000.0' });
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
    fireEvent.click(within(order).getByRole('button', { name: 'Cancel pending order 21' }));
    expect(useTradingDialogs.getState().cancelPending?.pId).toBe('21');
    await screen.findByRole('dialog', { name: 'Cancel Pending Order' });
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
