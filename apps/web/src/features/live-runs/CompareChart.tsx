import { theme } from 'antd';
import { createChart, LineSeries, LineStyle } from 'lightweight-charts';
import { useEffect, useMemo, useRef } from 'react';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { canDrawCharts } from '../../shared/canvas';
import { chartColorsFrom, figureChartOptions } from '../../shared/chartTheme';
import type { LiveRunComparison } from './api';
import { curvePoints } from './logic';
import { LIVE_COLOR } from './markers';

const HEIGHT = 220;
const c = messages.liveRuns.comparison;

/**
 * The cumulative P&L of the backtest and of the forward run at every trade close, two lines
 * on one chart (the backtest dashed in the theme's text colour, the forward run in the live
 * runs' own colour, as its markers on the price chart), with a legend naming both.
 */
export function CompareChart({ comparison }: { comparison: LiveRunComparison }) {
  const container = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const backtest = useMemo(
    () => curvePoints(comparison.curve_backtest, comparison.from),
    [comparison.curve_backtest, comparison.from],
  );
  const forward = useMemo(
    () => curvePoints(comparison.curve_forward, comparison.from),
    [comparison.curve_forward, comparison.from],
  );
  const empty = backtest.length === 0 && forward.length === 0;

  useEffect(() => {
    const element = container.current;
    if (!element || empty || !canDrawCharts()) return;
    const colors = chartColorsFrom(token);
    const chart = createChart(element, figureChartOptions(colors));
    const format = { type: 'price' as const, precision: 2, minMove: 0.01 };
    const backtestSeries = chart.addSeries(LineSeries, {
      color: token.colorTextSecondary,
      lineWidth: 2,
      lineStyle: LineStyle.Dashed,
      priceFormat: format,
      title: c.equityBacktest,
    });
    const forwardSeries = chart.addSeries(LineSeries, {
      color: LIVE_COLOR,
      lineWidth: 2,
      priceFormat: format,
      title: c.equityForward,
    });
    backtestSeries.setData(backtest);
    forwardSeries.setData(forward);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [backtest, forward, empty, token]);

  if (empty) return null;
  return (
    <figure className="live-run-equity">
      <figcaption>
        {c.equityTitle}
        <span className="live-run-legend">
          <span className="live-run-swatch live-run-swatch-backtest" aria-hidden="true" />
          {c.equityBacktest}
          <span className="live-run-swatch live-run-swatch-forward" aria-hidden="true" />
          {c.equityForward}
        </span>
      </figcaption>
      <div
        ref={container}
        role="img"
        aria-label={c.equityTitle}
        data-testid="live-run-equity"
        data-points={`${backtest.length},${forward.length}`}
        style={{ height: HEIGHT, width: '100%' }}
      />
    </figure>
  );
}
