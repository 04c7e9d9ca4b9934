/**
 * Kline periods. The `cycel` parameter of the kline call takes these ids; the client's
 * period names map onto them (spec section 7: oneDay → day, oneWeek → week, oneMonth → month).
 */
export const PERIODS = ['1m', '5m', '15m', '30m', '1h', '4h', 'day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The client's period names (chart period selector) and the `cycel` id each sends. */
export const PERIOD_NAMES = {
  oneMinute: '1m',
  fiveMinutes: '5m',
  fifteenMinutes: '15m',
  thirtyMinutes: '30m',
  oneHour: '1h',
  fourHours: '4h',
  oneDay: 'day',
  oneWeek: 'week',
  oneMonth: 'month',
} as const satisfies Record<string, Period>;
export type PeriodName = keyof typeof PERIOD_NAMES;

/** Length in ms of the fixed-length periods; week and month are calendar periods. */
const FIXED_MS: Partial<Record<Period, number>> = {
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': HOUR_MS,
  '4h': 4 * HOUR_MS,
  day: DAY_MS,
};

/** Parses a `cycel` value (a period id or a client period name); null when unknown. */
export function parsePeriod(value: string): Period | null {
  if ((PERIODS as readonly string[]).includes(value)) return value as Period;
  if (value in PERIOD_NAMES) return PERIOD_NAMES[value as PeriodName];
  return null;
}

/** True for periods shorter than a day (built from one-minute bars). */
export function isIntraday(period: Period): boolean {
  return period !== 'day' && period !== 'week' && period !== 'month';
}

/** Start (UTC ms) of the bucket of `period` that contains time `t`. Weeks start on Monday. */
export function bucketStart(period: Period, t: number): number {
  const fixed = FIXED_MS[period];
  if (fixed !== undefined) return Math.floor(t / fixed) * fixed;
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  if (period === 'week') {
    const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    return day - weekday * DAY_MS;
  }
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Start (UTC ms) of the bucket after the one starting at `start`. */
export function nextBucketStart(period: Period, start: number): number {
  const fixed = FIXED_MS[period];
  if (fixed !== undefined) return start + fixed;
  if (period === 'week') return start + 7 * DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Start (UTC ms) of the bucket before the one starting at `start`. */
export function previousBucketStart(period: Period, start: number): number {
  const fixed = FIXED_MS[period];
  if (fixed !== undefined) return start - fixed;
  if (period === 'week') return start - 7 * DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
}
