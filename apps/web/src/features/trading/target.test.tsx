import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InstrumentsModule from '../../market/instruments';
import type * as LiveModule from '../../realtime/live';
import { resetQuotes } from '../../realtime/quotes';
import { useChartTradeStore } from '../../shared/tradeAction';
import { buildUser } from '../../test/fixtures';
import { renderWithProviders, storeSession } from '../../test/render';
import { cancelPendingOrder, closePosition, modifyPendingOrder, updateTpsl } from './actions';
import { editableOrderOf } from './dialogs';
import {
  setChartTradingTarget,
  targetOfAccount,
  useTradingTargets,
  type TradingTarget,
} from './target';
import { buildPending, buildPosition, knowBtc, setQuote, stubTradingFetch } from './testSupport';
import { TradingTabs } from './TradingTabs';

// The catalogue and the live feed are set by the tests, not fetched.
vi.mock('../../market/instruments', async (importOriginal) => ({
  ...(await importOriginal<typeof InstrumentsModule>()),
  useInstrumentCatalogue: () => {},
}));
vi.mock('../../realtime/live', async (importOriginal) => ({
  ...(await importOriginal<typeof LiveModule>()),
  watchSymbol: () => () => {},
}));

const ACCOUNT = 'replay:session-1';
const ok = { success: true, message: 'done' };

function replayTarget(overrides: Partial<TradingTarget> = {}): TradingTarget {
  return {
    account: ACCOUNT,
    label: 'Replay account',
    symbol: 'BTCUSDT',
    quote: { bid: 40_000, ask: 40_000.5 },
    figures: {
      balance: 100_000,
      equity: 100_000,
      floating: 0,
      margin: 0,
      freeMargin: 100_000,
      currency: 'USD',
    },
    positions: [],
    pendings: [],
    settles: [],
    place: vi.fn().mockResolvedValue(ok),
    close: vi.fn().mockResolvedValue(ok),
    cancel: vi.fn().mockResolvedValue(ok),
    tpsl: vi.fn().mockResolvedValue(ok),
    modify: vi.fn().mockResolvedValue(ok),
    ...overrides,
  };
}

describe('the trading panel’s target', () => {
  beforeEach(() => {
    storeSession(buildUser());
    knowBtc();
    resetQuotes();
    setQuote('BTCUSDT', 45_000, 45_000.5);
    useChartTradeStore.setState({ action: null, seq: 0 });
    useTradingTargets.setState({ byChart: {} });
  });
  afterEach(() => {
    resetQuotes();
    useTradingTargets.setState({ byChart: {} });
  });

  it('the ticket trades the trader’s account at live prices without a target', () => {
    renderWithProviders(<TradingTabs symbol="BTCUSDT" />);
    expect(screen.getByRole('radio', { name: 'Buy' })).toHaveTextContent('45000.5');
  });

  it('with a target the ticket quotes the replay’s price and places there, not on the account', async () => {
    const calls = stubTradingFetch({});
    const target = replayTarget();
    const { user, fill } = renderWithProviders(<TradingTabs symbol="BTCUSDT" target={target} />);
    // the replay cursor's prices, not the live quote
    expect(screen.getByRole('radio', { name: 'Buy' })).toHaveTextContent('40000.5');
    expect(screen.getByRole('radio', { name: 'Sell' })).toHaveTextContent('40000.0');
    await user.click(screen.getByText('Limit', { exact: true }));
    expect(screen.getByLabelText('Limit Price')).toHaveValue('40000.5');
    await fill(screen.getByLabelText('Limit Price'), '39000');
    // a replay's limit order stays until filled or cancelled
    expect(screen.getByRole('radio', { name: 'GTC' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Stop Loss' }));
    await user.click(screen.getByRole('button', { name: 'Place Buy Order' }));
    expect(target.place).toHaveBeenCalledWith(
      expect.objectContaining({
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        quantity: 1,
        limitPrice: 39000,
        tp: null,
        sl: expect.any(Number),
      }),
    );
    expect(calls.filter((c) => c.path.startsWith('/trading/'))).toEqual([]);
  });

  it('a row of the target is closed, cancelled and edited on the target', async () => {
    const calls = stubTradingFetch({});
    const target = replayTarget();
    setChartTradingTarget('chart-1', target);
    expect(targetOfAccount(ACCOUNT)).toBe(target);
    const position = buildPosition({ orderId: '3', uuid: ACCOUNT, volume: 2 });
    await closePosition(position, 0.5);
    expect(target.close).toHaveBeenCalledWith('3', 0.5);
    await cancelPendingOrder(buildPending({ pId: '4', uuid: ACCOUNT }));
    expect(target.cancel).toHaveBeenCalledWith('4');
    const order = editableOrderOf(position);
    expect(order.account).toBe(ACCOUNT);
    await updateTpsl(order, { tp: null, sl: null, tpEnabled: false, slEnabled: false });
    expect(target.tpsl).toHaveBeenCalledWith('3', 0, 0);
    // a pending order's line dragged on the chart moves the target's order
    const change = { price: 39_000, tp: 0, sl: 38_000 };
    await modifyPendingOrder(buildPending({ pId: '4', uuid: ACCOUNT }), change);
    expect(target.modify).toHaveBeenCalledWith('4', change);
    expect(calls).toEqual([]);
  });

  it('a row of a replay that was left reaches nothing, least of all the trader’s account', async () => {
    const calls = stubTradingFetch({});
    setChartTradingTarget('chart-1', replayTarget());
    setChartTradingTarget('chart-1', null);
    const outcome = await closePosition(buildPosition({ orderId: '3', uuid: ACCOUNT }), 1);
    expect(outcome).toEqual({
      success: false,
      message: 'This replay has ended; its orders can no longer be changed',
    });
    expect((await cancelPendingOrder(buildPending({ uuid: ACCOUNT }))).success).toBe(false);
    const moved = await modifyPendingOrder(buildPending({ uuid: ACCOUNT }), {
      price: 1,
      tp: 0,
      sl: 0,
    });
    expect(moved.success).toBe(false);
    expect(calls).toEqual([]);
  });

  it('the trader’s own rows still go to the trading calls while a chart replays', async () => {
    const calls = stubTradingFetch({});
    const target = replayTarget();
    setChartTradingTarget('chart-1', target);
    await closePosition(buildPosition({ orderId: '11', uuid: 'acc-1' }), 1);
    expect(target.close).not.toHaveBeenCalled();
    expect(calls.map((c) => c.path)).toContain('/trading/order/close');
  });
});
