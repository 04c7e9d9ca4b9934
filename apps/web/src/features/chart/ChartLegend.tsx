import { BellOutlined } from '@ant-design/icons';
import { formatPrice } from '@ct/domain';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { messages } from '../../i18n/firstScreen';
import type { LegendState } from './ChartController';
import type { IndicatorReading } from './indicators/IndicatorLayer';
import { formatChange, formatVolume } from './format';
import { legendParts } from './legendLayout';

const l = messages.chart.legend;

/** A session or connection flag after the legend's title. */
export type LegendBadge = {
  key: string;
  icon: ReactNode;
  text: string;
  /** Tooltip; the text when the badge shows only its icon. */
  hint?: string;
  warning?: boolean;
};

/**
 * OHLCV of the hovered bar, or of the newest bar when the pointer is elsewhere, on one
 * line: in a narrow chart it drops parts (legendLayout) instead of covering the bars.
 * Below it, one line per shown indicator with its values at the same bar, in its colours.
 */
export function ChartLegend({
  store,
  tick,
  title,
  badges = [],
  width = null,
  indicators,
  onAddAlert = null,
}: {
  store: StoreApi<LegendState>;
  /** Tick size of the instrument: prices show its decimals. */
  tick: number;
  title: string;
  badges?: readonly LegendBadge[];
  /** Room for the legend in px; null while not measured (everything shows). */
  width?: number | null;
  /** The shown indicators' values at a bar index (the newest when null). */
  indicators?: (index: number | null) => readonly IndicatorReading[];
  /** An indicator's "Add alert" (its reading's key); none without it. */
  onAddAlert?: ((key: string) => void) | null;
}) {
  const { bar, previousClose, index } = useStore(store);
  const readings = indicators ? indicators(index) : [];
  const direction = bar ? (bar.close >= bar.open ? 'up' : 'down') : 'flat';
  const open = bar ? formatPrice(bar.open, tick) : '';
  const high = bar ? formatPrice(bar.high, tick) : '';
  const low = bar ? formatPrice(bar.low, tick) : '';
  const close = bar ? formatPrice(bar.close, tick) : '';
  const change = bar ? formatChange(bar.close, previousClose) : '';
  const volume = bar ? formatVolume(bar.volume) : '';
  const parts = legendParts(width, {
    title,
    badges: badges.map((b) => b.text),
    openHighLow: bar ? [`${l.open} ${open}`, `${l.high} ${high}`, `${l.low} ${low}`] : [],
    close: bar ? `${l.close} ${close}` : '',
    change,
    volume: bar ? `${l.volume} ${volume}` : '',
  });
  return (
    <>
      <div className="chart-legend" data-direction={direction} aria-live="off">
        {parts.title && <span className="chart-legend-title">{title}</span>}
        {badges.map((badge) => (
          <span
            key={badge.key}
            className={badge.warning ? 'chart-badge chart-badge-warning' : 'chart-badge'}
            title={parts.badgeText ? badge.hint : (badge.hint ?? badge.text)}
            aria-label={parts.badgeText ? undefined : badge.text}
          >
            {badge.icon}
            {parts.badgeText && ` ${badge.text}`}
          </span>
        ))}
        {bar && (
          <span className="chart-legend-values">
            {parts.openHighLow && (
              <>
                <span>
                  {l.open} <b className="chart-legend-num">{open}</b>
                </span>
                <span>
                  {l.high} <b className="chart-legend-num">{high}</b>
                </span>
                <span>
                  {l.low} <b className="chart-legend-num">{low}</b>
                </span>
              </>
            )}
            <span>
              {l.close}{' '}
              <b className="chart-legend-num" data-testid="legend-close">
                {close}
              </b>
            </span>
            {parts.change && change && (
              <span className="chart-legend-change chart-legend-num">{change}</span>
            )}
            {parts.volume && (
              <span>
                {l.volume} <b className="chart-legend-num">{volume}</b>
              </span>
            )}
          </span>
        )}
      </div>
      {readings.length > 0 && (
        <ul className="chart-legend-indicators" aria-label={l.indicators} aria-live="off">
          {readings.map((r) => (
            <li key={r.key}>
              <span className="chart-legend-indicator-label" style={{ color: r.color }}>
                {r.label}
              </span>
              {onAddAlert && (
                <button
                  type="button"
                  className="chart-legend-alert"
                  aria-label={messages.indicators.addAlertOn(r.label)}
                  title={messages.indicators.addAlertOn(r.label)}
                  onClick={() => onAddAlert(r.key)}
                >
                  <BellOutlined aria-hidden="true" />
                </button>
              )}
              {r.values.map((v, i) => (
                <b key={i} className="chart-legend-num" style={{ color: v.color }}>
                  {v.text}
                </b>
              ))}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
