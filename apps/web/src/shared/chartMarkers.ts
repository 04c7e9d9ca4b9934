import { create } from 'zustand';

type MarkerBase = {
  /** Epoch seconds. */
  time: number;
  shape: 'arrowUp' | 'arrowDown';
  color: string;
  text: string;
};

/**
 * A marker drawn on a chart's price series: above or below its bar (strategy deals), or
 * with its tip at a price (the trader's own fills, chart/trades).
 */
export type ChartMarker =
  | (MarkerBase & { position: 'aboveBar' | 'belowBar' })
  | (MarkerBase & { position: 'atPriceTop' | 'atPriceBottom'; price: number });

/** Markers per chart id; TradingChart draws those of its chart. */
export type ChartMarkerSet = { symbol: string; markers: readonly ChartMarker[] };

/** Markers per chart id, for one symbol; TradingChart draws those of its chart and symbol. */
export const useChartMarkers = create<{ byChart: Record<string, ChartMarkerSet> }>(() => ({
  byChart: {},
}));

const NONE: readonly ChartMarker[] = [];

/** Replaces a chart's markers (an empty list clears them). */
export function setChartMarkers(
  chartId: string,
  symbol: string,
  markers: readonly ChartMarker[],
): void {
  useChartMarkers.setState((s) => ({ byChart: { ...s.byChart, [chartId]: { symbol, markers } } }));
}

/** The markers a chart shows while it displays `symbol`. */
export function useMarkersOf(chartId: string, symbol: string | null): readonly ChartMarker[] {
  return useChartMarkers((s) => {
    const set = s.byChart[chartId];
    return set && set.symbol === symbol ? set.markers : NONE;
  });
}
