import { type Bar } from './bars.ts';
import { DAY_MS, MINUTE_MS } from './periods.ts';
import { createRng, hashString, mixSeed, type Rng } from './prng.ts';
import { snapToTick, snapToTickDirected } from './price.ts';
import { sessionMinutesOfDay, type SessionCalendar } from './sessions.ts';

/** What the simulator needs to know about one instrument. */
export type SimulationSpec = {
  symbol: string;
  /** Global seed: the same seed gives the same prices for every instrument. */
  seed: number;
  tick: number;
  /** Long-run level the price reverts to (slowly), and the first open when `startPrice` is absent. */
  basePrice: number;
  /** First open, e.g. the last close of real history this simulation continues. */
  startPrice?: number;
  /** Annualised volatility of the daily log return (0.6 = 60 %). */
  annualVolatility: number;
  /** Quoted spread in ticks (ask = bid + spreadTicks × tick), at least 1. */
  spreadTicks: number;
  calendar: SessionCalendar;
  /** Mean traded volume of one trading day (whole units). */
  dailyVolume: number;
  /** Live ticks per minute (each a bid/ask quote). */
  ticksPerMinute: number;
  /** UTC ms of the first simulated day (midnight). */
  startDay: number;
};

/** A live quote: bid and ask on the tick grid with bid < ask, and the traded size. */
export type SimQuote = { time: number; bid: number; ask: number; size: number };

/** At least four ticks a minute, so a minute's ticks can touch its high and low. */
function ticksPerMinuteOf(spec: SimulationSpec): number {
  return Math.max(4, Math.round(spec.ticksPerMinute));
}

/** Mean reversion per day of the log price towards log(basePrice): a half-life of ~140 days, so prices stay near realistic levels (one standard deviation ≈ ±30 % for crypto). */
const REVERSION_PER_DAY = 1 / 200;

/**
 * Splits a whole volume into `weights.length` whole parts that sum exactly to it:
 * part i = round(cumulative share up to i) − round(cumulative share up to i − 1).
 */
function splitVolume(total: number, weights: Float64Array): Float64Array {
  const parts = new Float64Array(weights.length);
  let weightSum = 0;
  for (const w of weights) weightSum += w;
  let cumulative = 0;
  let previous = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += weights[i] ?? 0;
    const rounded = i === weights.length - 1 ? total : Math.round((total * cumulative) / weightSum);
    parts[i] = rounded - previous;
    previous = rounded;
  }
  return parts;
}

/** Folds `value` into [low, high] by reflecting it at the bounds (no flat runs at them). */
function reflectInto(value: number, low: number, high: number): number {
  const range = high - low;
  if (!(range > 0)) return low;
  const period = 2 * range;
  let x = (value - low) % period;
  if (x < 0) x += period;
  return low + (x > range ? period - x : x);
}

/**
 * Fills `path` between fixed anchor indices with Brownian bridges of step deviation
 * `sigma`, reflected into [low, high] and snapped to the tick. Anchors keep their values.
 */
function fillBridges(
  path: Float64Array,
  anchors: number[],
  rng: Rng,
  sigma: number,
  low: number,
  high: number,
  tick: number,
): void {
  for (let s = 0; s + 1 < anchors.length; s++) {
    const i0 = anchors[s] ?? 0;
    const i1 = anchors[s + 1] ?? 0;
    const n = i1 - i0;
    if (n < 2) continue;
    const walk = new Float64Array(n + 1);
    for (let k = 1; k <= n; k++) walk[k] = (walk[k - 1] ?? 0) + sigma * rng.normal();
    const v0 = path[i0] ?? 0;
    const v1 = path[i1] ?? 0;
    const drift = v1 - v0 - (walk[n] ?? 0);
    for (let k = 1; k < n; k++) {
      const value = reflectInto(v0 + (walk[k] ?? 0) + (k / n) * drift, low, high);
      path[i0 + k] = Math.min(high, Math.max(low, snapToTick(value, tick)));
    }
  }
}

/** Two distinct interior indices of 0…n (n ≥ 3), in random order. */
function twoInteriorIndices(rng: Rng, n: number): [number, number] {
  const a = 1 + Math.floor(rng.next() * (n - 1));
  let b = 1 + Math.floor(rng.next() * (n - 2));
  if (b >= a) b += 1;
  return [a, b];
}

/**
 * A path of `points` prices from `open` to `close` that touches `high` and `low` exactly
 * and never leaves [low, high]. With fewer than 4 points the extremes are not placed
 * (callers then use max/min of open and close as the extremes).
 */
function constrainedPath(
  rng: Rng,
  points: number,
  open: number,
  close: number,
  high: number,
  low: number,
  tick: number,
): Float64Array {
  const path = new Float64Array(points);
  path[0] = open;
  path[points - 1] = close;
  const anchors = [0, points - 1];
  if (points >= 4) {
    const [ia, ib] = twoInteriorIndices(rng, points - 1);
    path[ia] = high;
    path[ib] = low;
    anchors.push(ia, ib);
    anchors.sort((x, y) => x - y);
  }
  const sigma = (high - low) / Math.sqrt(points) / 1.5;
  fillBridges(path, anchors, rng, sigma, low, high, tick);
  return path;
}

type DayPath = {
  dayStart: number;
  bars: Bar[]; // the day's one-minute bars, complete
};

type MinuteTicks = { minuteStart: number; prices: Float64Array; sizes: Float64Array };

/**
 * Deterministic market simulator of one instrument. Daily bars form a mean-reverting
 * random walk of the log price (open = previous close, so there are no gaps); each day's
 * one-minute bars are a bridge from the day's open to its close that touches the day's high
 * and low exactly, and each minute's ticks are a bridge inside that minute's bar. So every
 * coarser bar is exactly the aggregate of the finer ones, and live ticks continue history.
 */
export class MarketSimulator {
  readonly spec: SimulationSpec;
  private readonly symbolHash: number;
  private readonly days: (Bar | null)[] = [];
  private lastClose: number;
  private readonly dayPaths = new Map<number, DayPath>();
  private readonly minuteTicks = new Map<number, MinuteTicks>();
  private readonly memoized = new Map<string, unknown>();

  constructor(spec: SimulationSpec) {
    if (!(spec.tick > 0)) throw new Error(`${spec.symbol}: tick must be positive`);
    if (spec.spreadTicks < 1) throw new Error(`${spec.symbol}: spread must be at least one tick`);
    this.spec = spec;
    this.symbolHash = hashString(spec.symbol);
    this.lastClose = snapToTick(spec.startPrice ?? spec.basePrice, spec.tick);
  }

  /** Daily sigma of the log price. */
  private get dailySigma(): number {
    const daysPerYear = this.spec.calendar === '24x7' ? 365 : 252;
    return this.spec.annualVolatility / Math.sqrt(daysPerYear);
  }

  /** The complete daily bar of the UTC day starting at `dayStart`, or null without a session. */
  dayBar(dayStart: number): Bar | null {
    const index = Math.round((dayStart - this.spec.startDay) / DAY_MS);
    if (index < 0) return null;
    while (this.days.length <= index) this.generateDay(this.days.length);
    return this.days[index] ?? null;
  }

  private generateDay(index: number): void {
    const { spec } = this;
    const dayStart = spec.startDay + index * DAY_MS;
    const minutes = sessionMinutesOfDay(spec.calendar, dayStart).length;
    if (minutes === 0) {
      this.days.push(null);
      return;
    }
    const rng = createRng(mixSeed(spec.seed, this.symbolHash, index, 0));
    const sigma = this.dailySigma;
    const open = this.lastClose;
    const x = Math.log(open);
    const mean = Math.log(spec.basePrice);
    const nextX = x + REVERSION_PER_DAY * (mean - x) + sigma * rng.normal();
    const close = Math.max(spec.tick, snapToTick(Math.exp(nextX), spec.tick));
    let high = Math.max(open, close);
    let low = Math.min(open, close);
    if (minutes >= 3) {
      high = snapToTickDirected(
        high * Math.exp(Math.abs(rng.normal()) * sigma * 0.5),
        spec.tick,
        'up',
      );
      low = snapToTickDirected(
        low * Math.exp(-Math.abs(rng.normal()) * sigma * 0.5),
        spec.tick,
        'down',
      );
      low = Math.max(spec.tick, low);
    }
    const volume = Math.max(minutes, Math.round(spec.dailyVolume * Math.exp(0.3 * rng.normal())));
    this.days.push({ time: dayStart, open, high, low, close, volume });
    this.lastClose = close;
  }

  /** The one-minute bars of a UTC day (complete day), empty without a session. */
  minuteBarsOfDay(dayStart: number): readonly Bar[] {
    return this.dayPath(dayStart)?.bars ?? [];
  }

  private dayPath(dayStart: number): DayPath | null {
    const cached = this.dayPaths.get(dayStart);
    if (cached) return cached;
    const day = this.dayBar(dayStart);
    if (!day) return null;
    const { spec } = this;
    const minutes = sessionMinutesOfDay(spec.calendar, dayStart);
    const count = minutes.length;
    const index = Math.round((dayStart - spec.startDay) / DAY_MS);
    const rng = createRng(mixSeed(spec.seed, this.symbolHash, index, 1));
    const path = constrainedPath(rng, count + 1, day.open, day.close, day.high, day.low, spec.tick);
    const weights = new Float64Array(count);
    for (let i = 0; i < count; i++) weights[i] = Math.exp(0.5 * rng.normal());
    const volumes = splitVolume(day.volume, weights);
    const sigma = (day.high - day.low) / Math.sqrt(count + 1) / 1.5;
    const bars: Bar[] = [];
    for (let i = 0; i < count; i++) {
      const open = path[i] ?? day.open;
      const close = path[i + 1] ?? day.close;
      let high = Math.max(open, close);
      let low = Math.min(open, close);
      high = Math.min(
        day.high,
        snapToTickDirected(high + Math.abs(rng.normal()) * sigma * 0.3, spec.tick, 'up'),
      );
      low = Math.max(
        day.low,
        snapToTickDirected(low - Math.abs(rng.normal()) * sigma * 0.3, spec.tick, 'down'),
      );
      const time = dayStart + (minutes[i] ?? 0) * MINUTE_MS;
      bars.push({ time, open, high, low, close, volume: volumes[i] ?? 0 });
    }
    const entry = { dayStart, bars };
    this.remember(this.dayPaths, dayStart, entry, 64);
    return entry;
  }

  private remember<K, V>(cache: Map<K, V>, key: K, value: V, capacity: number): void {
    cache.set(key, value);
    if (cache.size > capacity) {
      const oldest = cache.keys().next().value as K;
      cache.delete(oldest);
    }
  }

  /**
   * A value derived only from the seed and complete days (so it never changes), computed
   * once and kept (bounded, oldest dropped first): e.g. a finished day's hourly bars.
   */
  memo<T>(key: string, compute: () => T): T {
    if (this.memoized.has(key)) return this.memoized.get(key) as T;
    const value = compute();
    this.remember(this.memoized, key, value, 20_000);
    return value;
  }

  /** The one-minute bar starting at `minuteStart`, or null when the market is closed then. */
  minuteBar(minuteStart: number): Bar | null {
    const dayStart = Math.floor(minuteStart / DAY_MS) * DAY_MS;
    const bars = this.minuteBarsOfDay(dayStart);
    // bars are ascending by time; binary search
    let lo = 0;
    let hi = bars.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const bar = bars[mid];
      if (!bar) break;
      if (bar.time === minuteStart) return bar;
      if (bar.time < minuteStart) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  private ticksOf(bar: Bar): MinuteTicks {
    const cached = this.minuteTicks.get(bar.time);
    if (cached) return cached;
    const { spec } = this;
    const k = ticksPerMinuteOf(spec);
    const rng = createRng(mixSeed(spec.seed, this.symbolHash, Math.floor(bar.time / MINUTE_MS), 2));
    const prices = constrainedPath(rng, k, bar.open, bar.close, bar.high, bar.low, spec.tick);
    const weights = new Float64Array(k);
    for (let i = 0; i < k; i++) weights[i] = 0.5 + rng.next();
    const sizes = splitVolume(bar.volume, weights);
    const entry = { minuteStart: bar.time, prices, sizes };
    this.remember(this.minuteTicks, bar.time, entry, 256);
    return entry;
  }

  /** Milliseconds between two live ticks. */
  get tickIntervalMs(): number {
    return MINUTE_MS / ticksPerMinuteOf(this.spec);
  }

  /**
   * The bar of the minute containing `t` as far as it has traded by `t` (open, extremes
   * so far, the current price as close, the volume so far); null when closed at `t`.
   */
  partialMinuteBar(t: number): Bar | null {
    const minuteStart = Math.floor(t / MINUTE_MS) * MINUTE_MS;
    const bar = this.minuteBar(minuteStart);
    if (!bar) return null;
    const ticks = this.ticksOf(bar);
    const last = Math.min(
      ticks.prices.length - 1,
      Math.floor((t - minuteStart) / this.tickIntervalMs),
    );
    let high = -Infinity;
    let low = Infinity;
    let volume = 0;
    for (let i = 0; i <= last; i++) {
      const p = ticks.prices[i] ?? bar.open;
      high = Math.max(high, p);
      low = Math.min(low, p);
      volume += ticks.sizes[i] ?? 0;
    }
    const close = ticks.prices[last] ?? bar.close;
    return { time: minuteStart, open: bar.open, high, low, close, volume };
  }

  /** The live quote at `t`: the last tick at or before `t`; null when the market is closed. */
  quoteAt(t: number): SimQuote | null {
    const minuteStart = Math.floor(t / MINUTE_MS) * MINUTE_MS;
    const bar = this.minuteBar(minuteStart);
    if (!bar) return null;
    const ticks = this.ticksOf(bar);
    const index = Math.min(
      ticks.prices.length - 1,
      Math.floor((t - minuteStart) / this.tickIntervalMs),
    );
    const bid = ticks.prices[index] ?? bar.close;
    return {
      time: minuteStart + index * this.tickIntervalMs,
      bid,
      ask: snapToTick(bid + this.spec.spreadTicks * this.spec.tick, this.spec.tick),
      size: ticks.sizes[index] ?? 0,
    };
  }

  /**
   * The last quote at or before `t`, also when the market is closed at `t` (the close of
   * the last traded minute). Null before the simulation starts.
   */
  lastQuoteAt(t: number): SimQuote | null {
    const live = this.quoteAt(t);
    if (live) return live;
    const bid = this.lastTradedPrice(t);
    if (bid === null) return null;
    return {
      time: t,
      bid,
      ask: snapToTick(bid + this.spec.spreadTicks * this.spec.tick, this.spec.tick),
      size: 0,
    };
  }

  /** Close of the last minute traded before `t`, or null before the simulation starts. */
  lastTradedPrice(t: number): number | null {
    let dayStart = Math.floor(t / DAY_MS) * DAY_MS;
    const todays = this.minuteBarsOfDay(dayStart);
    for (let i = todays.length - 1; i >= 0; i--) {
      const bar = todays[i];
      if (bar && bar.time + MINUTE_MS <= t) return bar.close;
    }
    for (let back = 0; back < 30; back++) {
      dayStart -= DAY_MS;
      if (dayStart < this.spec.startDay) return null;
      const day = this.dayBar(dayStart);
      if (day) return day.close;
    }
    return null;
  }
}
