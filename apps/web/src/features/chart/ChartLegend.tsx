import { formatPrice } from '@ct/domain';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { messages } from '../../i18n/messages';
import type { LegendState } from './ChartController';
import { formatChange, formatVolume } from './format';

const l = messages.chart.legend;

/** OHLCV of the hovered bar, or of the newest bar when the pointer is elsewhere. */
export function ChartLegend({
  store,
  tick,
  title,
  badges,
}: {
  store: StoreApi<LegendState>;
  /** Tick size of the instrument: prices show its decimals. */
  tick: number;
  title: string;
  /** Session and connection flags shown after the title. */
  badges?: ReactNode;
}) {
  const { bar, previousClose } = useStore(store);
  const direction = bar ? (bar.close >= bar.open ? 'up' : 'down') : 'flat';
  return (
    <div className="chart-legend" data-direction={direction} aria-live="off">
      <span className="chart-legend-title">{title}</span>
      {badges}
      {bar && (
        <span className="chart-legend-values">
          <span>
            {l.open} <b className="chart-legend-num">{formatPrice(bar.open, tick)}</b>
          </span>
          <span>
            {l.high} <b className="chart-legend-num">{formatPrice(bar.high, tick)}</b>
          </span>
          <span>
            {l.low} <b className="chart-legend-num">{formatPrice(bar.low, tick)}</b>
          </span>
          <span>
            {l.close}{' '}
            <b className="chart-legend-num" data-testid="legend-close">
              {formatPrice(bar.close, tick)}
            </b>
          </span>
          <span className="chart-legend-change chart-legend-num">
            {formatChange(bar.close, previousClose)}
          </span>
          <span>
            {l.volume} <b className="chart-legend-num">{formatVolume(bar.volume)}</b>
          </span>
        </span>
      )}
    </div>
  );
}
