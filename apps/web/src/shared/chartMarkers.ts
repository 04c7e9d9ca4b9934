import { create } from 'zustand';

type MarkerBase = {
  /** Epoch seconds. */
  time: number;
  shape: 'arrowUp' | 'arrowDown';
  color: string;
  /** The label when there is room ('Buy 1', 'Live Sell 2', 'OB'). */
  text: string;
  /** The label when markers crowd ('B', 'LS', 'OB'); the text when not given. */
  short?: string;
  /** What the marker stands for, in full, for the details on hover or click; the text when not given. */
  detail?: string;
};

/**
 * A marker drawn on a chart's price series: above or below its bar (strategy deals), or
 * with its tip at a price (the trader's own fills, chart/trades).
 */
export type ChartMarker =
  | (MarkerBase & { position: 'aboveBar' | 'belowBar' })
  | (MarkerBase & { position: 'atPriceTop' | 'atPriceBottom'; price: number });

/** Markers per chart id; TradingChart draws those of its chart. */
export type ChartMarkerSet = { symbol: string; markers: readonly ChartMarker[] };

/** Markers per chart id, for one symbol; TradingChart draws those of its chart and symbol. */
export const useChartMarkers = create<{ byChart: Record<string, ChartMarkerSet> }>(() => ({
  byChart: {},
}));

const NONE: readonly ChartMarker[] = [];

/** Replaces a chart's markers (an empty list clears them). */
export function setChartMarkers(
  chartId: string,
  symbol: string,
  markers: readonly ChartMarker[],
): void {
  useChartMarkers.setState((s) => ({ byChart: { ...s.byChart, [chartId]: { symbol, markers } } }));
}

/** The markers a chart shows while it displays `symbol`. */
export function useMarkersOf(chartId: string, symbol: string | null): readonly ChartMarker[] {
  return useChartMarkers((s) => {
    const set = s.byChart[chartId];
    return set && set.symbol === symbol ? set.markers : NONE;
  });
}

/** A marker as drawn: the markers of one bar, side and kind merged, with the label that fits. */
export type DrawnMarker = ChartMarker & {
  /** Unique on the chart ('m0', 'm1'…): the library reports it for the hovered marker. */
  id: string;
  /** The markers it stands for, oldest first (one when nothing was merged). */
  members: readonly ChartMarker[];
};

/** Width of one character of a marker's label at the chart's 11 px font. */
export const MARKER_CHAR_PX = 7;
/** Least space between two labels. */
const MARKER_GAP_PX = 4;

type Side = 'above' | 'below';

/** Where the label sits: above the arrow for markers above the bar or price, else below. */
const sideOf = (m: ChartMarker): Side =>
  m.position === 'aboveBar' || m.position === 'atPriceBottom' ? 'above' : 'below';

const shortOf = (m: ChartMarker) => m.short ?? m.text;

/** The labels of a group, richest first: full, short, none. */
function labelsOf(members: readonly ChartMarker[]): string[] {
  const first = members[0]!;
  if (members.length === 1) return [first.text, shortOf(first), ''];
  const shorts = [...new Set(members.map(shortOf))].join('/');
  return [`${shorts} ×${members.length}`, `×${members.length}`, ''];
}

/**
 * Markers as the chart should draw them, so they stay readable near busy recent bars:
 * - the markers of one bar with the same kind (above/below the bar, or at a price), arrow
 *   and colour merge into one marker whose label carries the count ('B ×3'; an arrow at a
 *   price points at the lowest buy or the highest sell of the bar);
 * - each label is the richest that fits between its neighbours on the same side, at
 *   `barSpacing` px per bar: the full text, then the short one ('B', 'LB', 'OB', or '×3'
 *   for a merged marker), then none (the arrow alone; the details show on hover or click).
 * `barOf` gives a time's bar index (fractional or null for times outside the bars: such a
 * marker is measured against nothing). Sorted by time, as the library requires.
 */
export function layoutMarkers(
  markers: readonly ChartMarker[],
  barOf: (time: number) => number | null,
  barSpacing: number,
): DrawnMarker[] {
  const groups = new Map<string, ChartMarker[]>();
  for (const m of [...markers].sort((a, b) => a.time - b.time)) {
    const kind = m.position === 'aboveBar' || m.position === 'belowBar' ? 'bar' : 'price';
    const key = `${m.time}|${kind}|${m.shape}|${m.color}|${sideOf(m)}`;
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }
  const merged = [...groups.values()].map((members, i) => {
    const first = members[0]!;
    const drawn: DrawnMarker = { ...first, id: `m${i}`, members };
    if (drawn.position === 'atPriceTop' || drawn.position === 'atPriceBottom') {
      const prices = members.map((m) => ('price' in m ? m.price : drawn.price));
      // an up arrow sits under its price, a down arrow over it: under or over all of them
      drawn.price = drawn.position === 'atPriceTop' ? Math.min(...prices) : Math.max(...prices);
    }
    return { drawn, x: barOf(first.time), labels: labelsOf(members) };
  });
  return merged.map(({ drawn, x, labels }) => {
    let room = Number.POSITIVE_INFINITY;
    if (x !== null) {
      for (const other of merged) {
        // markers of one bar stack up (the library's layout): they share no line
        if (other.drawn === drawn || other.x === null || other.x === x) continue;
        if (sideOf(other.drawn) !== sideOf(drawn)) continue;
        room = Math.min(room, Math.abs(other.x - x) * barSpacing - MARKER_GAP_PX);
      }
    }
    const text = labels.find((label) => label.length * MARKER_CHAR_PX <= room) ?? '';
    return { ...drawn, text };
  });
}

/** Two marker lists as one, in time order (the chart draws markers sorted by time). */
export function mergeMarkers(
  a: readonly ChartMarker[],
  b: readonly ChartMarker[],
): readonly ChartMarker[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  return [...a, ...b].sort((x, y) => x.time - y.time);
}
