import { describe, expect, it } from 'vitest';
import { aggregateBars, isConsistentBar } from './bars.ts';
import { simulatedBars, tradedMinuteBars } from './history.ts';
import { DAY_MS, MINUTE_MS } from './periods.ts';
import { isOnTick } from './price.ts';
import { MarketSimulator, type SimulationSpec } from './simulator.ts';

const START = Date.UTC(2026, 0, 1);

function spec(overrides: Partial<SimulationSpec> = {}): SimulationSpec {
  return {
    symbol: 'BTCUSDT',
    seed: 7,
    tick: 0.1,
    basePrice: 45000,
    annualVolatility: 0.6,
    spreadTicks: 3,
    calendar: '24x7',
    dailyVolume: 50_000,
    ticksPerMinute: 60,
    startDay: START,
    ...overrides,
  };
}

describe('MarketSimulator', () => {
  it('is deterministic under a seed and differs across seeds', () => {
    const a = new MarketSimulator(spec());
    const b = new MarketSimulator(spec());
    const c = new MarketSimulator(spec({ seed: 8 }));
    const day = START + 20 * DAY_MS;
    expect(a.dayBar(day)).toEqual(b.dayBar(day));
    expect(a.minuteBarsOfDay(day)).toEqual(b.minuteBarsOfDay(day));
    expect(a.dayBar(day)).not.toEqual(c.dayBar(day));
  });

  it('chains days without gaps and keeps every price on the tick grid', () => {
    const sim = new MarketSimulator(spec());
    let previousClose = 45000;
    for (let d = 0; d < 200; d++) {
      const bar = sim.dayBar(START + d * DAY_MS);
      expect(bar).not.toBeNull();
      if (!bar) continue;
      expect(bar.open).toBe(previousClose);
      expect(isConsistentBar(bar)).toBe(true);
      for (const p of [bar.open, bar.high, bar.low, bar.close]) expect(isOnTick(p, 0.1)).toBe(true);
      previousClose = bar.close;
    }
  });

  it('makes each day exactly the aggregate of its minutes, and each minute of its ticks', () => {
    const sim = new MarketSimulator(spec({ symbol: 'XAUUSD', tick: 0.01, basePrice: 2000 }));
    for (const d of [3, 17, 42]) {
      const dayStart = START + d * DAY_MS;
      const minutes = sim.minuteBarsOfDay(dayStart);
      expect(minutes).toHaveLength(1440);
      const [aggregate] = aggregateBars(minutes, 'day');
      expect(aggregate).toEqual(sim.dayBar(dayStart));
      for (const m of minutes.slice(0, 30)) {
        expect(isConsistentBar(m)).toBe(true);
        const full = sim.partialMinuteBar(m.time + MINUTE_MS - 1);
        expect(full).toEqual(m);
      }
    }
  });

  it('touches the day extremes without flat runs along them', () => {
    const sim = new MarketSimulator(
      spec({ symbol: 'ETHUSDT', tick: 0.01, basePrice: 3000, annualVolatility: 0.7 }),
    );
    for (let d = 0; d < 30; d++) {
      const dayStart = START + d * DAY_MS;
      const day = sim.dayBar(dayStart);
      const minutes = sim.minuteBarsOfDay(dayStart);
      const atLow = minutes.filter((m) => m.close === day?.low).length;
      const atHigh = minutes.filter((m) => m.close === day?.high).length;
      expect(atLow + atHigh, `day ${d}`).toBeLessThanOrEqual(6);
    }
  });

  it('quotes bid below ask by the spread, on the tick grid', () => {
    const sim = new MarketSimulator(
      spec({ symbol: 'EURUSD', tick: 0.00001, basePrice: 1.08, spreadTicks: 12 }),
    );
    for (let i = 0; i < 500; i++) {
      const q = sim.quoteAt(START + 5 * DAY_MS + i * 777);
      expect(q).not.toBeNull();
      if (!q) continue;
      expect(q.bid).toBeLessThan(q.ask);
      expect(q.ask - q.bid).toBeCloseTo(12 * 0.00001, 9);
      expect(isOnTick(q.bid, 0.00001)).toBe(true);
    }
  });

  it('has no bars or quotes outside the trading session', () => {
    const sim = new MarketSimulator(
      spec({ symbol: 'AAPL', calendar: 'us-equity', tick: 0.01, basePrice: 200 }),
    );
    const saturday = Date.UTC(2026, 0, 3);
    const monday = Date.UTC(2026, 0, 5);
    expect(sim.dayBar(saturday)).toBeNull();
    expect(sim.quoteAt(saturday + 15 * 3600_000)).toBeNull();
    const minutes = sim.minuteBarsOfDay(monday);
    expect(minutes).toHaveLength(390); // 09:30-16:00 New York
    expect(minutes[0]?.time).toBe(monday + (14 * 60 + 30) * MINUTE_MS); // EST: 14:30 UTC
    expect(sim.lastQuoteAt(saturday + 12 * 3600_000)?.bid).toBe(
      sim.dayBar(Date.UTC(2026, 0, 2))?.close,
    );
  });
});

describe('simulatedBars', () => {
  const sim = new MarketSimulator(spec());
  const now = START + 40 * DAY_MS + 5 * 3600_000 + 17 * MINUTE_MS + 12_345;

  it('ends with the bar in progress and continues the minute history without a jump', () => {
    const bars = simulatedBars(sim, '1m', Number.POSITIVE_INFINITY, 500, now);
    expect(bars).toHaveLength(500);
    const last = bars.at(-1);
    expect(last?.time).toBe(Math.floor(now / MINUTE_MS) * MINUTE_MS);
    expect(last?.close).toBe(sim.quoteAt(now)?.bid);
    for (let i = 1; i < bars.length; i++) {
      expect(bars[i]?.open).toBe(bars[i - 1]?.close);
      expect((bars[i]?.time ?? 0) - (bars[i - 1]?.time ?? 0)).toBe(MINUTE_MS);
    }
  });

  it('pages back strictly older bars without duplicates', () => {
    const first = simulatedBars(sim, '15m', Number.POSITIVE_INFINITY, 300, now);
    const oldest = first[0]?.time ?? 0;
    const older = simulatedBars(sim, '15m', oldest, 300, now);
    expect(older).toHaveLength(300);
    expect(older.at(-1)?.time).toBe(oldest - 15 * MINUTE_MS);
    expect(older.at(-1)?.close).toBe(first[0]?.open);
  });

  it('aggregates higher periods consistently from lower ones', () => {
    const hours = simulatedBars(sim, '1h', Number.POSITIVE_INFINITY, 48, now);
    const fourHours = simulatedBars(sim, '4h', Number.POSITIVE_INFINITY, 12, now);
    expect(aggregateBars(hours, '4h').slice(-11)).toEqual(fourHours.slice(-11));
    const days = simulatedBars(sim, 'day', Number.POSITIVE_INFINITY, 40, now);
    const minutesToday = tradedMinuteBars(sim, Math.floor(now / DAY_MS) * DAY_MS, now);
    expect(aggregateBars(minutesToday, 'day')[0]).toEqual(days.at(-1));
    const weeks = simulatedBars(sim, 'week', Number.POSITIVE_INFINITY, 3, now);
    expect(aggregateBars(days, 'week').slice(-3)).toEqual(weeks);
  });

  it('stops at the start of the simulation', () => {
    const months = simulatedBars(sim, 'month', Number.POSITIVE_INFINITY, 500, now);
    expect(months).toHaveLength(2);
    expect(months[0]?.time).toBe(START);
  });
});
