import { PERIODS, type Period } from '@ct/domain';
import { z } from 'zod';
import { create } from 'zustand';
import { readChoice, readJson, STORAGE_KEYS, writeJson, writeString } from './storage';

export const CHART_LAYOUTS = [1, 2, 4] as const;
export type ChartLayout = (typeof CHART_LAYOUTS)[number];

export const CHART_TYPES = ['candles', 'line'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export type ChartCell = {
  id: string;
  /** The instrument shown; null when none is chosen. */
  symbol: string | null;
  period: Period;
  chartType: ChartType;
};

/** What a fresh workspace shows: four liquid instruments at periods suited to each. */
export const DEFAULT_CELLS: readonly ChartCell[] = [
  { id: 'chart-1', symbol: 'BTCUSDT', period: '1m', chartType: 'candles' },
  { id: 'chart-2', symbol: 'ETHUSDT', period: '15m', chartType: 'candles' },
  { id: 'chart-3', symbol: 'XAUUSD', period: '1h', chartType: 'candles' },
  { id: 'chart-4', symbol: 'EURUSD', period: '4h', chartType: 'candles' },
];

type ChartGridState = {
  layout: ChartLayout;
  charts: ChartCell[];
  activeChartId: string;
};

const storedCellSchema = z.object({
  id: z.string(),
  symbol: z.string().min(1).max(64).nullable(),
  period: z.enum(PERIODS),
  chartType: z.enum(CHART_TYPES),
});

function storedLayout(): ChartLayout {
  const raw = readChoice(STORAGE_KEYS.chartLayout, ['1', '2', '4'] as const, '1');
  return Number(raw) as ChartLayout;
}

/** Each cell's instrument, period and chart type as last chosen ('chartCells'). */
export function storedCells(): ChartCell[] {
  const stored = readJson(STORAGE_KEYS.chartCells, z.array(z.unknown())) ?? [];
  return DEFAULT_CELLS.map((cell) => {
    const match = stored
      .map((raw) => storedCellSchema.safeParse(raw))
      .find((parsed) => parsed.success && parsed.data.id === cell.id);
    return match?.success ? match.data : { ...cell };
  });
}

export const useChartGridStore = create<ChartGridState>(() => ({
  layout: storedLayout(),
  charts: storedCells(),
  activeChartId: DEFAULT_CELLS[0]!.id,
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
  if (useChartGridStore.getState().activeChartId === id) return;
  useChartGridStore.setState({ activeChartId: id });
}

function updateCell(id: string, patch: Partial<Omit<ChartCell, 'id'>>): void {
  useChartGridStore.setState((state) => ({
    charts: state.charts.map((cell) => (cell.id === id ? { ...cell, ...patch } : cell)),
  }));
  writeJson(STORAGE_KEYS.chartCells, useChartGridStore.getState().charts);
}

/** A chart of the grid shows another instrument (remembered per cell). */
export function setChartSymbol(id: string, symbol: string): void {
  updateCell(id, { symbol });
}

/** A chart of the grid shows another period (remembered per cell). */
export function setChartPeriod(id: string, period: Period): void {
  updateCell(id, { period });
}

/** A chart of the grid draws candles or a line (remembered per cell). */
export function setChartType(id: string, chartType: ChartType): void {
  updateCell(id, { chartType });
}

/** The active chart's cell: its id, instrument, period and chart type. */
export function useActiveChart(): ChartCell | null {
  return useChartGridStore((s) => s.charts.find((c) => c.id === s.activeChartId) ?? null);
}

/** The active chart's cell, outside React. */
export function getActiveChart(): ChartCell | null {
  const state = useChartGridStore.getState();
  return state.charts.find((c) => c.id === state.activeChartId) ?? null;
}
