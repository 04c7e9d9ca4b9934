/**
 * What the one-line OHLCV legend shows in the width it has. Small charts drop parts in
 * this order rather than wrapping over the bars: volume, the title (the chart's header
 * already names instrument and period), open, high and low, then the change; the close
 * always stays. Badges shrink to their icon first.
 */
export type LegendParts = {
  title: boolean;
  /** Badges with their text; otherwise only their icon (the text is in the tooltip). */
  badgeText: boolean;
  openHighLow: boolean;
  change: boolean;
  volume: boolean;
};

/** The texts the legend would show, for measuring. */
export type LegendTexts = {
  title: string;
  badges: readonly string[];
  /** 'O 1.2345' style items: open, high, low. */
  openHighLow: readonly string[];
  close: string;
  change: string;
  volume: string;
};

/** Width of one character at the legend's 12 px (tabular digits, semibold values). */
export const LEGEND_CHAR_PX = 7;
/** Space between two items. */
const GAP_PX = 8;
/** The legend's own horizontal padding. */
const PADDING_PX = 12;
/** A badge beyond its text: padding and icon. */
const BADGE_EXTRA_PX = 28;
/** A badge as an icon only. */
const BADGE_ICON_PX = 24;

const FULL: LegendParts = {
  title: true,
  badgeText: true,
  openHighLow: true,
  change: true,
  volume: true,
};

/** From the richest to the leanest: each step drops one more part. */
const STEPS: readonly LegendParts[] = [
  FULL,
  { ...FULL, badgeText: false },
  { ...FULL, badgeText: false, volume: false },
  { ...FULL, badgeText: false, volume: false, title: false },
  { ...FULL, badgeText: false, volume: false, title: false, openHighLow: false },
  { title: false, badgeText: false, openHighLow: false, change: false, volume: false },
];

const textPx = (text: string) => text.length * LEGEND_CHAR_PX;

/** Estimated width of the legend showing `parts`. */
export function legendWidth(texts: LegendTexts, parts: LegendParts): number {
  const items: number[] = [];
  if (parts.title) items.push(textPx(texts.title));
  for (const badge of texts.badges) {
    items.push(parts.badgeText ? textPx(badge) + BADGE_EXTRA_PX : BADGE_ICON_PX);
  }
  if (parts.openHighLow) items.push(...texts.openHighLow.map(textPx));
  items.push(textPx(texts.close));
  if (parts.change && texts.change) items.push(textPx(texts.change));
  if (parts.volume) items.push(textPx(texts.volume));
  return PADDING_PX + items.reduce((sum, w) => sum + w, 0) + GAP_PX * (items.length - 1);
}

/**
 * The richest parts that fit in `available` px on one line; everything when the width is
 * not known (yet).
 */
export function legendParts(available: number | null, texts: LegendTexts): LegendParts {
  if (available === null) return FULL;
  return STEPS.find((parts) => legendWidth(texts, parts) <= available) ?? STEPS.at(-1)!;
}
