import { create } from 'zustand';
import { readChoice, STORAGE_KEYS, writeString } from '../../../app/storage';

export const CHART_LAYOUTS = [1, 2, 4] as const;
export type ChartLayout = (typeof CHART_LAYOUTS)[number];

export type ChartCell = {
  id: string;
  /** The instrument shown; null until the chart issue lets a user pick one. */
  symbol: string | null;
};

const CELLS: ChartCell[] = [1, 2, 3, 4].map((n) => ({ id: `chart-${n}`, symbol: null }));

type ChartGridState = {
  layout: ChartLayout;
  charts: ChartCell[];
  activeChartId: string;
};

function storedLayout(): ChartLayout {
  const raw = readChoice(STORAGE_KEYS.chartLayout, ['1', '2', '4'] as const, '1');
  return Number(raw) as ChartLayout;
}

export const useChartGridStore = create<ChartGridState>(() => ({
  layout: storedLayout(),
  charts: CELLS,
  activeChartId: CELLS[0]!.id,
}));

/** The cells the layout shows, in order. */
export function visibleCharts(state: Pick<ChartGridState, 'charts' | 'layout'>): ChartCell[] {
  return state.charts.slice(0, state.layout);
}

export function setChartLayout(layout: ChartLayout): void {
  writeString(STORAGE_KEYS.chartLayout, String(layout));
  useChartGridStore.setState((state) => {
    const visible = state.charts.slice(0, layout);
    const activeVisible = visible.some((c) => c.id === state.activeChartId);
    return { layout, activeChartId: activeVisible ? state.activeChartId : visible[0]!.id };
  });
}

export function setActiveChart(id: string): void {
  useChartGridStore.setState({ activeChartId: id });
}

/** The active chart's cell. */
export function useActiveChart(): ChartCell | null {
  return useChartGridStore((s) => s.charts.find((c) => c.id === s.activeChartId) ?? null);
}
