import { create } from 'zustand';

export type TradeSide = 'buy' | 'sell';

/** A trade started from a chart (spec section 3, Chart trade action). */
export type ChartTradeAction = {
  chartId: string;
  symbol: string;
  tradeAction: TradeSide;
};

/**
 * The latest chart trade action, for the trading panel (it sets the order side) and the
 * workspace (it opens the trading panel, or the trading modal on phones). `seq` grows with
 * every action, so the same button pressed twice is still a new action.
 */
export const useChartTradeStore = create<{ action: ChartTradeAction | null; seq: number }>(() => ({
  action: null,
  seq: 0,
}));

/** The Buy and Sell buttons of a chart call this. */
export function emitChartTradeAction(action: ChartTradeAction): void {
  useChartTradeStore.setState((s) => ({ action: { ...action }, seq: s.seq + 1 }));
}

/** The trading panel or modal took the action (closing the mobile modal clears it too). */
export function clearChartTradeAction(): void {
  useChartTradeStore.setState({ action: null });
}

export function useChartTradeAction(): ChartTradeAction | null {
  return useChartTradeStore((s) => s.action);
}
