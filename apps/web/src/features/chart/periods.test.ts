import { describe, expect, it } from 'vitest';
import { CHART_PERIODS, formatBarTime, formatTickMark, periodLabel, TICK } from './periods';

const s = (ms: number) => ms / 1000;

describe('chart periods', () => {
  it('offers 1m 5m 15m 30m 1h 4h 1D 1W 1M mapped to the kline periods', () => {
    expect(CHART_PERIODS.map((p) => p.label)).toEqual([
      '1m',
      '5m',
      '15m',
      '30m',
      '1h',
      '4h',
      '1D',
      '1W',
      '1M',
    ]);
    expect(CHART_PERIODS.map((p) => p.value)).toEqual([
      '1m',
      '5m',
      '15m',
      '30m',
      '1h',
      '4h',
      'day',
      'week',
      'month',
    ]);
    expect(periodLabel('week')).toBe('1W');
  });
});

describe('time axis labels suited to the period', () => {
  const t = Date.UTC(2026, 2, 10, 13, 45);

  it('intraday: clock times, days at day marks, in the local time zone', () => {
    const local = new Date(t);
    const hhmm = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    expect(formatTickMark(s(t), TICK.time, '5m')).toBe(hhmm);
    expect(formatTickMark(s(t), TICK.dayOfMonth, '1h')).toMatch(/^\d{1,2} [A-Z][a-z]{2}$/);
    expect(formatBarTime(s(t), '1m')).toMatch(new RegExp(`2026 ${hhmm}$`));
  });

  it('daily and weekly bars: UTC days and months, never clock times', () => {
    const day = Date.UTC(2026, 2, 10);
    expect(formatTickMark(s(day), TICK.time, 'day')).toBe('10 Mar');
    expect(formatTickMark(s(day), TICK.dayOfMonth, 'week')).toBe('10 Mar');
    expect(formatTickMark(s(Date.UTC(2026, 3, 1)), TICK.month, 'day')).toBe('Apr');
    expect(formatTickMark(s(Date.UTC(2026, 0, 1)), TICK.year, 'day')).toBe('2026');
    expect(formatBarTime(s(day), 'day')).toBe('Tue 10 Mar 2026');
    expect(formatBarTime(s(Date.UTC(2026, 2, 9)), 'week')).toBe('Week of 9 Mar 2026');
  });

  it('monthly bars: months with their year, and years', () => {
    expect(formatTickMark(s(Date.UTC(2026, 4, 1)), TICK.month, 'month')).toBe('May 2026');
    expect(formatTickMark(s(Date.UTC(2027, 0, 1)), TICK.year, 'month')).toBe('2027');
    expect(formatBarTime(s(Date.UTC(2026, 4, 1)), 'month')).toBe('May 2026');
  });
});

describe('time axis labels in the chosen language', () => {
  it('writes months, days and weekdays in Chinese with a Chinese locale', () => {
    const day = s(Date.UTC(2026, 2, 10));
    expect(formatTickMark(s(Date.UTC(2026, 3, 1)), TICK.month, 'day', 'zh-CN')).toBe('4月');
    expect(formatTickMark(day, TICK.dayOfMonth, 'day', 'zh-CN')).toBe('3月10日');
    expect(formatTickMark(day, TICK.time, 'week', 'zh-CN')).toBe('3月10日');
    expect(formatTickMark(s(Date.UTC(2026, 4, 1)), TICK.month, 'month', 'zh-CN')).toBe('2026年5月');
    expect(formatTickMark(s(Date.UTC(2027, 0, 1)), TICK.year, 'day', 'zh-CN')).toBe('2027年');
    expect(formatBarTime(day, 'day', 'zh-CN')).toBe('2026年3月10日周二');
    expect(formatBarTime(s(Date.UTC(2026, 4, 1)), 'month', 'zh-CN')).toBe('2026年5月');
  });

  it('keeps clock times in 24 hours and no English names in Chinese', () => {
    const t = Date.UTC(2026, 2, 10, 13, 45);
    const local = new Date(t);
    const hhmm = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    expect(formatTickMark(s(t), TICK.time, '5m', 'zh-CN')).toBe(hhmm);
    expect(formatBarTime(s(t), '1h', 'zh-CN')).toMatch(new RegExp(`周. ${hhmm}$`));
    expect(formatBarTime(s(t), '1h', 'zh-CN')).not.toMatch(/[A-Za-z]/);
  });

  it('gives English locales the same labels as the default', () => {
    const day = s(Date.UTC(2026, 2, 10));
    expect(formatTickMark(day, TICK.dayOfMonth, 'day', 'en-US')).toBe('10 Mar');
    expect(formatBarTime(day, 'day', 'en-US')).toBe('Tue 10 Mar 2026');
  });
});
