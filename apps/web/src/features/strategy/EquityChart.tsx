import { theme } from 'antd';
import { BaselineSeries, createChart } from 'lightweight-charts';
import { useEffect, useMemo, useRef } from 'react';
import { canDrawCharts } from '../../shared/canvas';
import { chartColorsFrom, chartLayout, withAlpha } from '../../shared/chartTheme';
import { equityPoints } from './equityCurve';

const HEIGHT = 200;

/**
 * The account value at every bar close of a backtest, green above the initial capital and
 * red below it (a baseline at the starting value).
 */
export function EquityChart({
  curve,
  initialCapital,
  label,
}: {
  curve: readonly (readonly [string, number])[];
  initialCapital: number;
  label: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const points = useMemo(() => equityPoints(curve), [curve]);

  useEffect(() => {
    const element = container.current;
    if (!element || points.length === 0 || !canDrawCharts()) return;
    const colors = chartColorsFrom(token);
    const chart = createChart(element, {
      autoSize: true,
      // The price charts on the same page carry the library's attribution logo.
      layout: { ...chartLayout(colors), attributionLogo: false },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderColor: colors.border },
      timeScale: { borderColor: colors.border, timeVisible: true, secondsVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    const series = chart.addSeries(BaselineSeries, {
      baseValue: { type: 'price', price: initialCapital },
      topLineColor: colors.up,
      topFillColor1: withAlpha(colors.up, 0.28),
      topFillColor2: withAlpha(colors.up, 0.04),
      bottomLineColor: colors.down,
      bottomFillColor1: withAlpha(colors.down, 0.04),
      bottomFillColor2: withAlpha(colors.down, 0.28),
      lineWidth: 2,
      priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
    });
    series.setData(points);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points, initialCapital, token]);

  if (points.length === 0) return null;
  return (
    <div
      ref={container}
      role="img"
      aria-label={label}
      data-testid="equity-chart"
      data-points={points.length}
      style={{ height: HEIGHT, width: '100%', marginBottom: 12 }}
    />
  );
}
