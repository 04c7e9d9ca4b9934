import { toEpochMs } from '../values/units.ts';
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Epoch seconds as local 'YYYY-MM-DD HH:mm:ss'; 'Unknown' when missing or not a number.
 * Local means the time zone of the Date implementation that runs it (the browser's).
 */
export function formatEpochSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
    return 'Unknown';
  }
  return formatLocalDateTime(new Date(toEpochMs(seconds)));
}

/** A Date as local 'YYYY-MM-DD HH:mm:ss'. */
export function formatLocalDateTime(d: Date): string {
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

/** UTC ms as 'YYYY-MM-DD HH:mm:ss' in UTC (the kline call's `ctmFmt`). */
export function formatUtcDateTime(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}
