import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useMobileModalStore } from '../../../realtime/frames';
import {
  clearChartTradeAction,
  emitChartTradeAction,
  useChartTradeStore,
} from '../../../shared/tradeAction';
import { useMobileTradingModal } from './mobileModal';

const action = { chartId: 'chart-1', symbol: 'BTCUSDT', tradeAction: 'buy' } as const;

describe('the phone trading modal’s shared visibility', () => {
  afterEach(() => {
    useChartTradeStore.setState({ action: null, seq: 0 });
    useMobileModalStore.setState({ visible: false });
  });

  it('shows while a chart trade action exists, and hides when it is cleared', () => {
    const { unmount } = renderHook(() => useMobileTradingModal());
    expect(useMobileModalStore.getState().visible).toBe(false);
    emitChartTradeAction(action);
    expect(useMobileModalStore.getState().visible).toBe(true);
    clearChartTradeAction();
    expect(useMobileModalStore.getState().visible).toBe(false);
    emitChartTradeAction(action);
    unmount(); // the narrow layout left: no phone modal
    expect(useMobileModalStore.getState().visible).toBe(false);
  });

  it('closed from another window (the flag turned off), it clears the trade action', () => {
    renderHook(() => useMobileTradingModal());
    emitChartTradeAction(action);
    useMobileModalStore.setState({ visible: false }); // as a cw_state_update would
    expect(useChartTradeStore.getState().action).toBeNull();
  });
});
