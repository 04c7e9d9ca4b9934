import type { Bar } from '@ct/domain';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ChartColors } from '../../../shared/chartTheme';
import { chartKeyOf } from './chartKey';
import { IndicatorLayer, type IndicatorHost } from './IndicatorLayer';
import { IndicatorsDialog } from './IndicatorsDialog';
import { useChartIndicators } from './store';

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
): { open: () => void; dialog: ReactNode } {
  const chartKey = chartKeyOf(chartId);
  const { data } = useChartIndicators(chartKey);
  const [open, setOpen] = useState(false);
  const [layer, setLayer] = useState<IndicatorLayer | null>(null);
  const colorsRef = useRef(colors);

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

  return {
    open: () => setOpen(true),
    dialog: <IndicatorsDialog chartKey={chartKey} open={open} onClose={() => setOpen(false)} />,
  };
}
