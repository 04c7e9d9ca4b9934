import {
  formatDuration,
  formatPercent,
  formatPrice,
  measureSpan,
  PERCENT_DECIMALS,
} from '@ct/domain';
import { messages } from '../../../i18n/firstScreen';
import type { ScreenPoint } from './geometry';
import type { Anchor } from './shapes';

/*
 * The measuring tool's readout (pure): its text (price distance, percent, bars, time) and
 * where it goes, beside B and kept inside the pane.
 */

export type MeasureReadout = {
  text: string;
  /** Where the label goes, in px of the chart's element (near B). */
  x: number;
  y: number;
  up: boolean;
};

/** Whether the span from A to B goes up (or stays level). */
export const spanUp = (a: Anchor, b: Anchor): boolean => b.price >= a.price;

/** "+1.50 (+1.23%) · 5 bars · 5h": signed distance, percent of A, bars and time from A to B. */
export function measureText(a: Anchor, b: Anchor, tick: number): string {
  const m = measureSpan(a, b, b.index - a.index);
  const sign = m.priceDistance > 0 ? '+' : m.priceDistance < 0 ? '−' : '';
  const percent =
    m.percent === null
      ? ''
      : ` (${sign}${formatPercent(Math.abs(m.percent), 'percent', { decimals: PERCENT_DECIMALS })})`;
  return `${sign}${formatPrice(Math.abs(m.priceDistance), tick)}${percent} · ${messages.drawings.bars(
    Math.abs(m.bars),
  )} · ${formatDuration(m.seconds)}`;
}

/** The readout of the span from A to B, placed at B's screen point inside a pane of `size`. */
export function measureReadout(
  a: Anchor,
  b: Anchor,
  at: ScreenPoint,
  tick: number,
  size: { width: number; height: number },
): MeasureReadout {
  return {
    text: measureText(a, b, tick),
    x: Math.max(0, Math.min(at.x ?? 0, size.width)),
    y: Math.max(0, Math.min(at.y ?? 0, size.height)),
    up: spanUp(a, b),
  };
}

export const sameReadout = (a: MeasureReadout | null, b: MeasureReadout | null): boolean =>
  a?.text === b?.text && a?.x === b?.x && a?.y === b?.y && a?.up === b?.up;
