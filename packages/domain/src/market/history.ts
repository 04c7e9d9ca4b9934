import { aggregateBars, type Bar } from './bars.ts';
import { DAY_MS, MINUTE_MS, bucketStart, isIntraday, type Period } from './periods.ts';
import type { MarketSimulator } from './simulator.ts';

/**
 * One-minute bars of the UTC day `dayStart` that have traded by `now`: complete minutes,
 * plus the minute in progress as far as it has traded.
 */
export function tradedMinuteBars(sim: MarketSimulator, dayStart: number, now: number): Bar[] {
  const bars = sim.minuteBarsOfDay(dayStart);
  const currentMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const out: Bar[] = [];
  for (const bar of bars) {
    if (bar.time < currentMinute) out.push(bar);
    else break;
  }
  if (currentMinute >= dayStart && currentMinute < dayStart + DAY_MS) {
    const partial = sim.partialMinuteBar(now);
    if (partial) out.push(partial);
  }
  return out;
}

/** The daily bar of `dayStart` as far as it has traded by `now` (null if none yet). */
export function tradedDayBar(sim: MarketSimulator, dayStart: number, now: number): Bar | null {
  if (dayStart + DAY_MS <= now) return sim.dayBar(dayStart);
  return aggregateBars(tradedMinuteBars(sim, dayStart, now), 'day')[0] ?? null;
}

/**
 * Up to `limit` simulated bars of `period` that start before `endBefore` and have begun
 * trading by `now`, ascending. The newest bar may be in progress. Stops at the start of
 * the simulation.
 */
export function simulatedBars(
  sim: MarketSimulator,
  period: Period,
  endBefore: number,
  limit: number,
  now: number,
): Bar[] {
  const firstDay = sim.spec.startDay;
  const end = Math.min(endBefore, now + 1);
  let dayStart = Math.floor((end - 1) / DAY_MS) * DAY_MS;
  const chunks: Bar[][] = [];
  let count = 0;
  if (isIntraday(period)) {
    while (count < limit && dayStart >= firstDay) {
      const day = dayStart;
      const complete = day + DAY_MS <= now;
      const aggregated = complete
        ? sim.memo(`${period}:${day}`, () => aggregateBars(sim.minuteBarsOfDay(day), period))
        : aggregateBars(tradedMinuteBars(sim, day, now), period);
      const bars = aggregated.filter((bar) => bar.time < end);
      chunks.push(bars);
      count += bars.length;
      dayStart -= DAY_MS;
    }
  } else {
    // walk back day by day, grouping days into their period's bucket
    let bucket: Bar[] = [];
    let bucketKey = Number.NaN;
    const flush = () => {
      if (bucket.length > 0) {
        const merged = aggregateBars(bucket.reverse(), period);
        chunks.push(merged);
        count += merged.length;
      }
      bucket = [];
    };
    while (dayStart >= firstDay) {
      const key = bucketStart(period, dayStart);
      if (key !== bucketKey) {
        flush();
        if (count >= limit) break;
        bucketKey = key;
      }
      const day = tradedDayBar(sim, dayStart, now);
      if (day && day.time < end) bucket.push(day);
      dayStart -= DAY_MS;
    }
    flush();
  }
  const all = chunks.reverse().flat();
  return all.slice(Math.max(0, all.length - limit));
}
