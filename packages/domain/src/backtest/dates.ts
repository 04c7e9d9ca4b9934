import { formatUtcDateTime } from '../format/datetime.ts';

// Dates of the strategy contract are wall-clock texts without a time zone. We read them as
// UTC so that a text maps to one instant and back to the same text, whatever the server's
// zone: 'YYYY-MM-DD HH:MM:SS' in, the same text out.
const DATE_PATTERN =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?Z?$/;

/**
 * Parses a contract date: 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM' or 'YYYY-MM-DD HH:MM:SS' (also
 * with '/' between the date parts, 'T' before the time, fractional seconds, a final 'Z').
 * Returns UTC epoch ms, or null when the text is not such a date or names no real day.
 */
export function parseContractDate(text: string): number | null {
  const fast = parseCanonical(text);
  if (fast !== null) return fast;
  const m = DATE_PATTERN.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m
    .slice(1, 7)
    .map((part) => (part === undefined ? 0 : Number(part)));
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined ||
    second === undefined
  ) {
    return null;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2024-02-31 over into March: such a date does not exist.
  if (new Date(ms).getUTCDate() !== day) return null;
  return ms;
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

// 100,000 bars are 100,000 dates: the common 'YYYY-MM-DD HH:MM:SS' / 'YYYY/MM/DD HH:MM:SS'
// is read without a regular expression.
function digit(text: string, at: number): number {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : Number.NaN;
}

function parseCanonical(text: string): number | null {
  if (text.length !== 19) return null;
  const sep = text[4];
  if ((sep !== '-' && sep !== '/') || text[7] !== sep || text[10] !== ' ') return null;
  if (text[13] !== ':' || text[16] !== ':') return null;
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
  const month = digit(text, 5) * 10 + digit(text, 6);
  const day = digit(text, 8) * 10 + digit(text, 9);
  const hour = digit(text, 11) * 10 + digit(text, 12);
  const minute = digit(text, 14) * 10 + digit(text, 15);
  const second = digit(text, 17) * 10 + digit(text, 18);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31)) return null;
  if (!(hour <= 23 && minute <= 59 && second <= 59)) return null;
  if (Number.isNaN(year)) return null;
  if (year < 100) {
    // Date.UTC reads years 0–99 as 1900–1999: kept as it always read them
    const ms = Date.UTC(year, month - 1, day, hour, minute, second);
    if (day > 28 && new Date(ms).getUTCDate() !== day) return null;
    return ms;
  }
  if (day > 28 && day > daysInMonth(year, month)) return null;
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return MONTH_DAYS[month - 1] as number;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (as Date.UTC counts
 * them), in integer arithmetic: Date.UTC cost about half of reading a date, and 100,000 bars
 * are 100,000 dates (H. Hinnant, "chrono-compatible low-level date algorithms").
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

let cachedDay = Number.NaN;
let cachedDayText = '';

/** UTC epoch ms as the contract's date text 'YYYY-MM-DD HH:MM:SS'. */
export function formatContractDate(ms: number): string {
  const dayStart = Math.floor(ms / DAY_MS) * DAY_MS;
  if (dayStart !== cachedDay) {
    cachedDay = dayStart;
    cachedDayText = formatUtcDateTime(dayStart).slice(0, 10);
  }
  const seconds = Math.floor((ms - dayStart) / 1000);
  const h = TWO_DIGITS[Math.floor(seconds / 3600)] ?? '00';
  const m = TWO_DIGITS[Math.floor(seconds / 60) % 60] ?? '00';
  const s = TWO_DIGITS[seconds % 60] ?? '00';
  return `${cachedDayText} ${h}:${m}:${s}`;
}
