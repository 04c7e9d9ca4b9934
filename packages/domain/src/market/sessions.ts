import { DAY_MS, MINUTE_MS } from './periods.ts';

/**
 * Trading session calendars. Times are evaluated in the exchange's local time; daylight
 * saving follows the US and EU rules where the exchange observes them. A UTC day's
 * sessions use the offset in force at noon UTC of that day (a simplification that only
 * matters on the two switch days a year). Exchange holidays are not modelled.
 */
export type SessionCalendar =
  | '24x7' // crypto
  | 'fx' // Sunday 17:00 to Friday 17:00 New York time
  | 'cme' // CME Globex: Sunday 18:00 to Friday 17:00 New York, daily break 17:00-18:00
  | 'us-equity' // NYSE/Nasdaq regular hours 09:30-16:00 New York, Monday-Friday
  | 'eu-equity' // Xetra 09:00-17:30 Frankfurt, Monday-Friday
  | 'cn-futures'; // Shanghai: 09:00-10:15, 10:30-11:30, 13:30-15:00, 21:00-23:00, Mon-Fri

/** UTC ms of the n-th (1-based) given weekday (0 Sunday) of a month, at `hourUtc`. */
function nthWeekday(year: number, month: number, weekday: number, n: number, hourUtc: number) {
  const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
  const day = 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
  return Date.UTC(year, month, day, hourUtc);
}

/** UTC ms of the last given weekday of a month, at `hourUtc`. */
function lastWeekday(year: number, month: number, weekday: number, hourUtc: number) {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  const back = (lastDay.getUTCDay() - weekday + 7) % 7;
  return Date.UTC(year, month, lastDay.getUTCDate() - back, hourUtc);
}

/** New York offset from UTC in minutes (-240 in summer time, -300 otherwise). */
export function newYorkOffsetMinutes(t: number): number {
  const year = new Date(t).getUTCFullYear();
  const start = nthWeekday(year, 2, 0, 2, 7); // second Sunday of March, 02:00 EST
  const end = nthWeekday(year, 10, 0, 1, 6); // first Sunday of November, 02:00 EDT
  return t >= start && t < end ? -240 : -300;
}

/** Frankfurt offset from UTC in minutes (120 in summer time, 60 otherwise). */
export function frankfurtOffsetMinutes(t: number): number {
  const year = new Date(t).getUTCFullYear();
  const start = lastWeekday(year, 2, 0, 1); // last Sunday of March, 01:00 UTC
  const end = lastWeekday(year, 9, 0, 1); // last Sunday of October, 01:00 UTC
  return t >= start && t < end ? 120 : 60;
}

type LocalRule = {
  offset: (t: number) => number;
  /** Is local weekday (0 Sunday) at local minute-of-day open? */
  open: (weekday: number, minute: number) => boolean;
};

const hm = (h: number, m = 0) => h * 60 + m;

const RULES: Record<Exclude<SessionCalendar, '24x7'>, LocalRule> = {
  fx: {
    offset: newYorkOffsetMinutes,
    open: (wd, m) => (wd >= 1 && wd <= 4) || (wd === 0 && m >= hm(17)) || (wd === 5 && m < hm(17)),
  },
  cme: {
    offset: newYorkOffsetMinutes,
    open: (wd, m) => {
      if (wd === 6) return false;
      if (wd === 0) return m >= hm(18);
      if (wd === 5) return m < hm(17);
      return m < hm(17) || m >= hm(18);
    },
  },
  'us-equity': {
    offset: newYorkOffsetMinutes,
    open: (wd, m) => wd >= 1 && wd <= 5 && m >= hm(9, 30) && m < hm(16),
  },
  'eu-equity': {
    offset: frankfurtOffsetMinutes,
    open: (wd, m) => wd >= 1 && wd <= 5 && m >= hm(9) && m < hm(17, 30),
  },
  'cn-futures': {
    offset: () => 480,
    open: (wd, m) =>
      wd >= 1 &&
      wd <= 5 &&
      ((m >= hm(9) && m < hm(10, 15)) ||
        (m >= hm(10, 30) && m < hm(11, 30)) ||
        (m >= hm(13, 30) && m < hm(15)) ||
        (m >= hm(21) && m < hm(23))),
  },
};

const ALL_MINUTES = Uint16Array.from({ length: 1440 }, (_, i) => i);
const dayCache = new Map<string, Uint16Array>();

/**
 * Minutes of the UTC day starting at `dayStart` (0…1439, ascending) during which the
 * calendar trades. Cached per weekday and offset, so a long history costs little.
 */
export function sessionMinutesOfDay(calendar: SessionCalendar, dayStart: number): Uint16Array {
  if (calendar === '24x7') return ALL_MINUTES;
  const rule = RULES[calendar];
  const offset = rule.offset(dayStart + DAY_MS / 2);
  const weekday = new Date(dayStart).getUTCDay();
  const key = `${calendar}:${weekday}:${offset}`;
  let minutes = dayCache.get(key);
  if (!minutes) {
    const open: number[] = [];
    for (let m = 0; m < 1440; m++) {
      const local = m + offset;
      const localWeekday = (weekday + Math.floor(local / 1440) + 7) % 7;
      const localMinute = ((local % 1440) + 1440) % 1440;
      if (rule.open(localWeekday, localMinute)) open.push(m);
    }
    minutes = Uint16Array.from(open);
    dayCache.set(key, minutes);
  }
  return minutes;
}

/** True when the calendar trades during the minute containing `t` (UTC ms). */
export function isTradingAt(calendar: SessionCalendar, t: number): boolean {
  if (calendar === '24x7') return true;
  const dayStart = Math.floor(t / DAY_MS) * DAY_MS;
  const minute = Math.floor((t - dayStart) / MINUTE_MS);
  const minutes = sessionMinutesOfDay(calendar, dayStart);
  // binary search in the ascending minute list
  let lo = 0;
  let hi = minutes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = minutes[mid] ?? -1;
    if (value === minute) return true;
    if (value < minute) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
