import type { Bar } from '@ct/domain';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ChartColors } from '../../../shared/chartTheme';
import { chartKeyOf } from './chartKey';
import { IndicatorLayer, type IndicatorHost, type IndicatorReading } from './IndicatorLayer';
import { useChartIndicators } from './store';

// The dialog is a chunk of its own, loaded the first time a trader opens it.
const IndicatorsDialog = lazy(() =>
  import('./IndicatorsDialog').then((m) => ({ default: m.IndicatorsDialog })),
);

const NOTHING_DRAWN = createStore<number>(() => 0);

/** A chart that hands its bars to listeners (ChartController). */
export type IndicatorChart = IndicatorHost & {
  addBarListener(listener: {
    reset(bars: readonly Bar[]): void;
    update(bars: readonly Bar[], from: number): void;
    chartRemoved?(): void;
  }): () => void;
};

/**
 * A chart's indicators: loads its saved list (per chart key), draws it on the chart's
 * controller and gives the toolbar's Indicators button its dialog.
 */
export function useIndicators(
  chart: IndicatorChart | null,
  chartId: string,
  colors: ChartColors,
  tick: number,
): {
  open: () => void;
  dialog: ReactNode;
  /** The shown indicators' values at a bar index (the newest when null), for the legend. */
  readingsAt: (index: number | null) => IndicatorReading[];
} {
  const chartKey = chartKeyOf(chartId);
  const { data } = useChartIndicators(chartKey);
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so its closing animation still plays.
  const [opened, setOpened] = useState(false);
  const [layer, setLayer] = useState<IndicatorLayer | null>(null);
  const colorsRef = useRef(colors);
  // what the layer draws changed: the legend reads its values again
  const drawn = useStore(layer?.drawnVersion ?? NOTHING_DRAWN);

  useEffect(() => {
    if (!chart) return;
    const created = new IndicatorLayer(chart, colorsRef.current);
    const detach = chart.addBarListener(created);
    setLayer(created);
    return () => {
      detach();
      created.dispose();
      setLayer(null);
    };
  }, [chart]);

  useEffect(() => {
    colorsRef.current = colors;
    layer?.setColors(colors);
  }, [layer, colors]);

  useEffect(() => layer?.setTick(tick), [layer, tick]);

  useEffect(() => {
    if (data) layer?.setConfigs(data);
  }, [layer, data]);

  // a new function when what is drawn changes, so the legend reads again
  const readingsAt = useCallback(
    (index: number | null) => (drawn >= 0 && layer ? layer.readingsAt(index) : []),
    [layer, drawn],
  );

  return {
    readingsAt,
    open: () => {
      setOpened(true);
      setOpen(true);
    },
    dialog: opened ? (
      <Suspense fallback={null}>
        <IndicatorsDialog chartKey={chartKey} open={open} onClose={() => setOpen(false)} />
      </Suspense>
    ) : null,
  };
}
