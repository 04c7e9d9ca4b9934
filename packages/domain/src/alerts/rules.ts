import type { DrawingPoint } from '../charts/drawings.ts';

/*
 * The pure rules of alerts (docs/architecture.md, "Alerts"): which side of a level or
 * channel a price is on, when a change of side is the crossing an alert waits for, a trend
 * line's level at a time, whether a fire is allowed by the alert's frequency, and the
 * message's placeholders. No clock: times are passed in.
 */

/** Below (-1), on (0) or above (1) a level. */
export type LevelSide = -1 | 0 | 1;

/** Where a price is against a level: touching it is 0 (neither side). */
export function sideOf(price: number, level: number): LevelSide {
  if (price > level) return 1;
  if (price < level) return -1;
  return 0;
}

/** Below a channel (-1), strictly inside it (0) or above it (1); on an edge: null (no change). */
export function zoneOf(price: number, lower: number, upper: number): LevelSide | null {
  if (price > upper) return 1;
  if (price < lower) return -1;
  if (price > lower && price < upper) return 0;
  return null;
}

export const CROSSING_CONDITIONS = ['crossing_up', 'crossing_down', 'crossing'] as const;
export type CrossingCondition = (typeof CROSSING_CONDITIONS)[number];
export const CHANNEL_CONDITIONS = ['entering', 'exiting'] as const;
export type ChannelCondition = (typeof CHANNEL_CONDITIONS)[number];

/**
 * A crossing of a level, judged between the last side the price was strictly on (`from`,
 * null when it has not been off the level yet) and the side of the new price (`to`): a
 * touch (to = 0) crosses nothing, and neither does a return to the side it came from.
 */
export function crossed(
  condition: CrossingCondition,
  from: LevelSide | null,
  to: LevelSide,
): boolean {
  if (from === null || from === 0 || to === 0 || from === to) return false;
  if (condition === 'crossing_up') return to === 1;
  if (condition === 'crossing_down') return to === -1;
  return true;
}

/** Entering (outside → strictly inside) or exiting (inside → strictly outside) a channel. */
export function channelCrossed(
  condition: ChannelCondition,
  from: LevelSide | null,
  to: LevelSide | null,
): boolean {
  if (from === null || to === null || from === to) return false;
  return condition === 'entering' ? to === 0 : from === 0;
}

/**
 * The side memory an alert carries from tick to tick: the side of the new price, or the
 * one kept when the new price touches the level (or an edge of a channel).
 */
export function nextSide(
  kept: LevelSide | null,
  seen: LevelSide | null,
  isChannel: boolean,
): LevelSide | null {
  if (seen === null) return kept;
  if (!isChannel && seen === 0) return kept;
  return seen;
}

/**
 * A line's level at `timeSeconds`: a horizontal line's price; a trend line through its two
 * points, extended on both sides (the alert follows the line as drawn). Two points at one
 * time: the later point's price.
 */
export function lineLevelAt(points: readonly DrawingPoint[], timeSeconds: number): number | null {
  const [a, b] = points;
  if (!a) return null;
  if (!b) return a.price;
  if (a.time === b.time) return b.price;
  const slope = (b.price - a.price) / (b.time - a.time);
  return a.price + slope * (timeSeconds - a.time);
}

export const ALERT_FREQUENCIES = ['once', 'once_per_bar', 'every_time'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];

/**
 * May an alert fire at a crossing whose bar starts at `barStart`? Once: only if it never
 * fired; once per bar: not twice in one bar; every time: always. `lastFiredBar` is the start
 * of the bar it last fired in, null when it never fired.
 */
export function frequencyAllows(
  frequency: AlertFrequency,
  firedCount: number,
  lastFiredBar: number | null,
  barStart: number,
): boolean {
  if (frequency === 'once') return firedCount === 0;
  if (frequency === 'once_per_bar') return lastFiredBar === null || barStart > lastFiredBar;
  return true;
}

/** The placeholders a message may hold. */
export const ALERT_PLACEHOLDERS = ['symbol', 'price', 'time', 'alert'] as const;
export type AlertPlaceholderValues = Readonly<Record<(typeof ALERT_PLACEHOLDERS)[number], string>>;

/** The message with `{{symbol}}`, `{{price}}`, `{{time}}` and `{{alert}}` replaced; others kept. */
export function renderAlertMessage(template: string, values: AlertPlaceholderValues): string {
  return template.replace(/\{\{\s*(symbol|price|time|alert)\s*\}\}/g, (_, name: string) => {
    return values[name as keyof AlertPlaceholderValues];
  });
}

/**
 * A crossing of two series at the newest closed bar (an indicator line against a threshold
 * or against another line): the side of the newest bar's difference against the last side
 * before it that was not a touch. Null entries (not enough bars yet) end the look back.
 */
export function seriesCrossed(
  condition: CrossingCondition,
  differences: readonly (number | null)[],
): boolean {
  const last = differences.at(-1);
  if (last === undefined || last === null) return false;
  const to = sideOf(last, 0);
  let from: LevelSide | null = null;
  for (let i = differences.length - 2; i >= 0; i -= 1) {
    const d = differences[i];
    if (d === null || d === undefined) break;
    const side = sideOf(d, 0);
    if (side !== 0) {
      from = side;
      break;
    }
  }
  return crossed(condition, from, to);
}
