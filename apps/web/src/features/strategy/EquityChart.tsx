import { theme } from 'antd';
import { BaselineSeries, LineSeries, createChart } from 'lightweight-charts';
import { useEffect, useMemo, useRef } from 'react';
import { canDrawCharts } from '../../shared/canvas';
import { chartColorsFrom, figureChartOptions, withAlpha } from '../../shared/chartTheme';
import { equityPoints } from './equityCurve';

const HEIGHT = 200;

/** A line over the portfolio's curve: one instrument's contribution. */
export type EquityOverlay = { label: string; curve: readonly (readonly [string, number])[] };

/** The overlays' colours (neither the up green nor the down red of the portfolio's curve). */
export function overlayColors(token: ReturnType<typeof theme.useToken>['token']): string[] {
  return [
    token.blue,
    token.orange,
    token.purple,
    token.cyan,
    token.magenta,
    token.gold,
    token.geekblue,
    token.volcano,
    token.lime,
    token.colorTextTertiary,
  ];
}

/**
 * The account value at every bar close of a backtest, green above the initial capital and
 * red below it (a baseline at the starting value); with `overlays` (a run on several
 * instruments) a thin line per instrument and a legend naming them.
 */
export function EquityChart({
  curve,
  initialCapital,
  label,
  overlays = [],
  overlaysLabel,
  curveName = label,
}: {
  curve: readonly (readonly [string, number])[];
  initialCapital: number;
  label: string;
  overlays?: readonly EquityOverlay[];
  /** The legend's name (for assistive technology) when there are overlays. */
  overlaysLabel?: string;
  /** The legend's name of the main curve. */
  curveName?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const points = useMemo(() => equityPoints(curve), [curve]);
  const lines = useMemo(
    () =>
      overlays.map((overlay) => ({ label: overlay.label, points: equityPoints(overlay.curve) })),
    [overlays],
  );
  const colors = overlayColors(token);

  useEffect(() => {
    const element = container.current;
    if (!element || points.length === 0 || !canDrawCharts()) return;
    const colors = chartColorsFrom(token);
    const chart = createChart(element, figureChartOptions(colors));
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
    const palette = overlayColors(token);
    lines.forEach((line, i) => {
      if (line.points.length === 0) return;
      const overlay = chart.addSeries(LineSeries, {
        color: palette[i % palette.length],
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerRadius: 3,
        title: line.label,
        priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
      });
      overlay.setData(line.points);
    });
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points, lines, initialCapital, token]);

  if (points.length === 0) return null;
  return (
    <div style={{ marginBottom: 12 }}>
      <div
        ref={container}
        role="img"
        aria-label={label}
        data-testid="equity-chart"
        data-points={points.length}
        data-overlays={lines.length}
        style={{ height: HEIGHT, width: '100%' }}
      />
      {lines.length > 0 && (
        <ul
          aria-label={overlaysLabel}
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: '4px 16px',
            listStyle: 'none',
            margin: '6px 0 0',
            padding: 0,
            fontSize: token.fontSizeSM,
            color: token.colorTextSecondary,
          }}
        >
          <li style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
            <span
              aria-hidden
              style={{ width: 14, height: 3, borderRadius: 2, background: token.colorSuccess }}
            />
            {curveName}
          </li>
          {lines.map((line, i) => (
            <li key={line.label} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
              <span
                aria-hidden
                style={{
                  width: 14,
                  height: 2,
                  borderRadius: 1,
                  background: colors[i % colors.length],
                }}
              />
              {line.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
