import { isIntraday, type Period } from '@ct/domain';
import { messages } from '../../i18n/firstScreen';

/** The chart period selector: the domain's periods with the labels traders know. */
export const CHART_PERIODS: readonly { value: Period; label: string; title: string }[] = [
  { value: '1m', label: '1m', title: '1 minute' },
  { value: '5m', label: '5m', title: '5 minutes' },
  { value: '15m', label: '15m', title: '15 minutes' },
  { value: '30m', label: '30m', title: '30 minutes' },
  { value: '1h', label: '1h', title: '1 hour' },
  { value: '4h', label: '4h', title: '4 hours' },
  { value: 'day', label: '1D', title: '1 day' },
  { value: 'week', label: '1W', title: '1 week' },
  { value: 'month', label: '1M', title: '1 month' },
];

/** A period's name in the current language ('1m', '1D'; 简体中文 '1分', '日'). */
export function periodLabel(period: Period): string {
  const label = CHART_PERIODS.find((p) => p.value === period)?.label ?? period;
  return messages.chart.periodLabel(period, label);
}

/** The selector's options in the current language: name and title of every period. */
export function periodOptions(): { value: Period; label: string; title: string }[] {
  return CHART_PERIODS.map((p) => ({
    value: p.value,
    label: messages.chart.periodLabel(p.value, p.label),
    title: messages.chart.periodTitle(p.value, p.title),
  }));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number) => String(n).padStart(2, '0');

/** Tick mark kinds of the time axis (lightweight-charts' TickMarkType values). */
export const TICK = { year: 0, month: 1, dayOfMonth: 2, time: 3, timeWithSeconds: 4 } as const;

type Parts = {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
};

/**
 * Calendar parts of a bar time (epoch seconds). Intraday bars read in the viewer's time
 * zone; day, week and month bars are UTC calendar buckets and read in UTC, so a daily
 * bar never shows the day before.
 */
export function partsOf(seconds: number, period: Period): Parts {
  const d = new Date(seconds * 1000);
  if (isIntraday(period)) {
    return {
      year: d.getFullYear(),
      month: d.getMonth(),
      day: d.getDate(),
      weekday: d.getDay(),
      hour: d.getHours(),
      minute: d.getMinutes(),
    };
  }
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
  };
}

/** Whether the axis keeps its own English labels ('10 Mar') in this locale. */
const isEnglish = (locale: string) => locale.toLowerCase().startsWith('en');

const formats = new Map<string, Intl.DateTimeFormat>();

/** A bar time (epoch s) written by Intl in `locale`: intraday in the viewer's zone, else UTC. */
function intl(
  seconds: number,
  period: Period,
  locale: string,
  options: Intl.DateTimeFormatOptions,
): string {
  const timeZone = isIntraday(period) ? undefined : 'UTC';
  const key = `${locale}|${timeZone ?? ''}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formats.set(key, format);
  }
  return format.format(new Date(seconds * 1000));
}

const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/**
 * A time axis label suited to the period: clock times for intraday bars, days and
 * months for daily and weekly bars, months and years for monthly bars. English locales
 * (and the default language) keep the terminal's own labels; others are written by Intl.
 */
export function formatTickMark(
  seconds: number,
  tickType: number,
  period: Period,
  locale = 'en-US',
): string {
  if (!isEnglish(locale)) {
    const at = (options: Intl.DateTimeFormatOptions) => intl(seconds, period, locale, options);
    if (tickType === TICK.year) return at({ year: 'numeric' });
    if (tickType === TICK.month)
      return at(period === 'month' ? { year: 'numeric', month: 'short' } : { month: 'short' });
    if (tickType === TICK.dayOfMonth || !isIntraday(period))
      return at({ month: 'short', day: 'numeric' });
    return at(CLOCK);
  }
  const p = partsOf(seconds, period);
  if (tickType === TICK.year) return String(p.year);
  if (tickType === TICK.month)
    return period === 'month' ? `${MONTHS[p.month]} ${p.year}` : MONTHS[p.month]!;
  if (tickType === TICK.dayOfMonth) return `${p.day} ${MONTHS[p.month]}`;
  return isIntraday(period) ? `${pad(p.hour)}:${pad(p.minute)}` : `${p.day} ${MONTHS[p.month]}`;
}

/** The full time of a bar for the crosshair label and the legend, in `locale`. */
export function formatBarTime(seconds: number, period: Period, locale = 'en-US'): string {
  if (!isEnglish(locale)) {
    const at = (options: Intl.DateTimeFormatOptions) => intl(seconds, period, locale, options);
    const day: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
    if (isIntraday(period)) return `${at({ ...day, weekday: 'short' })} ${at(CLOCK)}`;
    if (period === 'week') return messages.chart.weekOf(at(day));
    if (period === 'month') return at({ year: 'numeric', month: 'long' });
    return at({ ...day, weekday: 'short' });
  }
  const p = partsOf(seconds, period);
  const date = `${WEEKDAYS[p.weekday]} ${p.day} ${MONTHS[p.month]} ${p.year}`;
  if (isIntraday(period)) return `${date} ${pad(p.hour)}:${pad(p.minute)}`;
  if (period === 'week') return messages.chart.weekOf(`${p.day} ${MONTHS[p.month]} ${p.year}`);
  if (period === 'month') return `${MONTHS[p.month]} ${p.year}`;
  return date;
}
