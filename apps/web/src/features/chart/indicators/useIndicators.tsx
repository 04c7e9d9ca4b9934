import type { Bar } from '@ct/domain';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ChartColors } from '../../../shared/chartTheme';
import { afterFirstChart } from '../../../shared/firstChart';
import { chartKeyOf } from './chartKey';
import type { IndicatorHost, IndicatorLayer, IndicatorReading } from './IndicatorLayer';
import { useChartIndicators } from './queries';

// The layer that computes and draws indicators is asked for at once by a chart with saved
// indicators, otherwise after the first drawn chart (shared/firstChart.ts): a chart without
// indicators draws its bars without it.
const loadLayer = () => import('./IndicatorLayer');

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

  const [chartDrawn, setChartDrawn] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void afterFirstChart().then(() => {
      if (!cancelled) setChartDrawn(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  const wanted = chartDrawn || (data?.length ?? 0) > 0;

  useEffect(() => {
    if (!chart || !wanted) return;
    let cancelled = false;
    let stop = () => {};
    void loadLayer().then(({ IndicatorLayer: Layer }) => {
      if (cancelled) return;
      const created = new Layer(chart, colorsRef.current);
      const detach = chart.addBarListener(created);
      stop = () => {
        detach();
        created.dispose();
      };
      setLayer(created);
    });
    return () => {
      cancelled = true;
      stop();
      setLayer(null);
    };
  }, [chart, wanted]);

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
