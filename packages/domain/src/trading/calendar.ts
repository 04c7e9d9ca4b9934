import { DAY_MS, MINUTE_MS } from '../market/periods.ts';
import { sessionMinutesOfDay, type SessionCalendar } from '../market/sessions.ts';

/** Time in force of a pending order: good for the day or good till canceled (default). */
export const EXPIRE_TYPES = ['GFD', 'GTC'] as const;
export type ExpireType = (typeof EXPIRE_TYPES)[number];
export const DEFAULT_EXPIRE_TYPE: ExpireType = 'GTC';

/**
 * When a good-for-the-day order placed at `placedAt` (UTC ms) expires: the end of the
 * instrument's last trading minute of that UTC day (midnight UTC for 24x7 instruments,
 * the session close for exchanges that close during the UTC day). A placement after the
 * day's last session minute expires at the next midnight UTC.
 */
export function gfdExpiresAt(calendar: SessionCalendar, placedAt: number): number {
  const dayStart = Math.floor(placedAt / DAY_MS) * DAY_MS;
  const minutes = sessionMinutesOfDay(calendar, dayStart);
  const last = minutes[minutes.length - 1];
  const end = last === undefined ? dayStart + DAY_MS : dayStart + (last + 1) * MINUTE_MS;
  return end > placedAt ? end : dayStart + DAY_MS;
}

/** The settle date of a close at `t` (UTC ms): the UTC calendar day as the number yyyymmdd. */
export function settleDateOf(t: number): number {
  const d = new Date(t);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}
