import { barDirection, type Bar } from '../market/bars.ts';
import type { IndicatorKind } from './config.ts';
import { resolveIndicatorParams } from './params.ts';

/*
 * Indicators computed bar by bar. Each state folds the closed bars into running figures and
 * keeps the newest (forming) bar apart: `push` adds a bar, `replaceLast` swaps the forming
 * bar for its newer version (a live tick). Both cost O(1) whatever the number of bars, so a
 * tick never recomputes the history. The batch functions of `batch.ts` are the reference
 * definitions these are tested against.
 */

/** One bar's values of an indicator, by line name; null before the indicator has enough bars. */
export type IndicatorValues = Readonly<Record<string, number | null>>;

export type SmaValues = { value: number | null };
export type BollingerValues = { middle: number | null; upper: number | null; lower: number | null };
export type MacdValues = { macd: number | null; signal: number | null; histogram: number | null };
/** Volume with the bar's direction: 1 when it closed at or above its open, else -1. */
export type VolumeValues = { value: number; direction: 1 | -1 };

/** An indicator fed bar by bar. */
export interface IndicatorState<V extends IndicatorValues = IndicatorValues> {
  /** Adds the next bar (later than every bar so far) and returns its values. */
  push(bar: Bar): V;
  /** Replaces the newest bar with a newer version of it (live tick) in O(1). */
  replaceLast(bar: Bar): V;
  /** Bars fed so far. */
  readonly length: number;
}

type Steps<V> = {
  /** Folds a bar that will not change any more into the running figures. */
  commit(bar: Bar): void;
  /** The values of a forming bar on top of the committed ones; changes nothing. */
  peek(bar: Bar): V;
};

function stateOf<V extends IndicatorValues>(steps: Steps<V>): IndicatorState<V> {
  let forming: Bar | null = null;
  let length = 0;
  return {
    push(bar) {
      if (forming) steps.commit(forming);
      forming = bar;
      length += 1;
      return steps.peek(bar);
    },
    replaceLast(bar) {
      if (!forming) throw new Error('replaceLast before the first bar');
      forming = bar;
      return steps.peek(bar);
    },
    get length() {
      return length;
    },
  };
}

/**
 * The last `size` values of a stream with their sum and sum of squares, taken around a
 * reference value (sums of x − ref, (x − ref)²) so the variance of prices near 45,000 keeps
 * its digits. Every `size` additions the sums are recomputed from the window: float residue
 * cannot pile up, and the cost stays O(1) per value on average.
 */
class Window {
  private readonly ring: Float64Array;
  private head = 0;
  count = 0;
  ref = 0;
  sum = 0;
  sumSq = 0;
  private sinceResum = 0;

  constructor(readonly size: number) {
    this.ring = new Float64Array(size);
  }

  add(x: number): void {
    if (this.size === 0) return;
    if (this.count === this.size) {
      const out = this.ring[this.head]! - this.ref;
      this.sum -= out;
      this.sumSq -= out * out;
    } else {
      this.count += 1;
    }
    this.ring[this.head] = x;
    this.head = (this.head + 1) % this.size;
    const d = x - this.ref;
    this.sum += d;
    this.sumSq += d * d;
    this.sinceResum += 1;
    if (this.sinceResum >= this.size) this.resum(x);
  }

  private resum(ref: number): void {
    this.ref = ref;
    this.sum = 0;
    this.sumSq = 0;
    for (let i = 0; i < this.count; i++) {
      const d = this.ring[i]! - ref;
      this.sum += d;
      this.sumSq += d * d;
    }
    this.sinceResum = 0;
  }
}

/**
 * Mean and population standard deviation of the last `period` values, the newest of which
 * is still forming: null until `period` values exist.
 */
class RollingStats {
  private readonly closed: Window;
  constructor(readonly period: number) {
    this.closed = new Window(period - 1);
  }
  commit(x: number): void {
    this.closed.add(x);
  }
  peek(x: number): { mean: number; sd: number } | null {
    const w = this.closed;
    if (w.count + 1 < this.period) return null;
    const d = x - w.ref;
    const s = (w.sum + d) / this.period;
    const q = (w.sumSq + d * d) / this.period;
    return { mean: w.ref + s, sd: Math.sqrt(Math.max(0, q - s * s)) };
  }
}

/** EMA of a number stream, seeded with the SMA of its first `period` values. */
class Ema {
  private readonly k: number;
  private n = 0;
  private seedSum = 0;
  private value: number | null = null;
  constructor(readonly period: number) {
    this.k = 2 / (period + 1);
  }
  peek(x: number): number | null {
    const n = this.n + 1;
    if (n < this.period) return null;
    if (n === this.period) return (this.seedSum + x) / this.period;
    return this.value! + this.k * (x - this.value!);
  }
  commit(x: number): void {
    const next = this.peek(x);
    this.n += 1;
    if (this.n < this.period) this.seedSum += x;
    this.value = next;
  }
}

/** Simple moving average of the closes over `period` bars. */
export function smaState(period: number): IndicatorState<SmaValues> {
  const stats = new RollingStats(period);
  return stateOf({
    commit: (bar) => stats.commit(bar.close),
    peek: (bar) => ({ value: stats.peek(bar.close)?.mean ?? null }),
  });
}

/** Exponential moving average of the closes (k = 2 / (period + 1), seeded with the SMA). */
export function emaState(period: number): IndicatorState<SmaValues> {
  const ema = new Ema(period);
  return stateOf({
    commit: (bar) => ema.commit(bar.close),
    peek: (bar) => ({ value: ema.peek(bar.close) }),
  });
}

/** Bollinger Bands: SMA of the closes ± `deviation` population standard deviations. */
export function bollingerState(period: number, deviation: number): IndicatorState<BollingerValues> {
  const stats = new RollingStats(period);
  return stateOf({
    commit: (bar) => stats.commit(bar.close),
    peek: (bar) => {
      const s = stats.peek(bar.close);
      if (!s) return { middle: null, upper: null, lower: null };
      return { middle: s.mean, upper: s.mean + deviation * s.sd, lower: s.mean - deviation * s.sd };
    },
  });
}

const DAY_MS = 86_400_000;

/** The VWAP anchor of a bar time (UTC ms): its UTC day. */
export function vwapAnchor(time: number): number {
  return Math.floor(time / DAY_MS);
}

/**
 * Volume-weighted average of the typical price (high + low + close) / 3, anchored at each
 * UTC day's start (00:00 UTC); null while the day has no volume yet.
 */
export function vwapState(): IndicatorState<SmaValues> {
  let day = Number.NaN;
  let pv = 0;
  let volume = 0;
  const totals = (bar: Bar) => {
    const typical = (bar.high + bar.low + bar.close) / 3;
    const same = vwapAnchor(bar.time) === day;
    return {
      pv: (same ? pv : 0) + typical * bar.volume,
      volume: (same ? volume : 0) + bar.volume,
    };
  };
  return stateOf({
    commit: (bar) => {
      ({ pv, volume } = totals(bar));
      day = vwapAnchor(bar.time);
    },
    peek: (bar) => {
      const t = totals(bar);
      return { value: t.volume > 0 ? t.pv / t.volume : null };
    },
  });
}

/** RSI from average gain and loss: 100 when nothing was lost, 50 when nothing moved. */
export function rsiOf(averageGain: number, averageLoss: number): number {
  if (averageLoss === 0) return averageGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + averageGain / averageLoss);
}

/**
 * Relative Strength Index with Wilder's smoothing: the first averages are the means of the
 * first `period` close-to-close gains and losses, then avg = (avg × (period − 1) + x) / period.
 * The first value is on bar `period` (0-based).
 */
export function rsiState(period: number): IndicatorState<SmaValues> {
  let previous: number | null = null;
  let changes = 0;
  let gain = 0;
  let loss = 0;
  const averages = (close: number) => {
    const up = Math.max(close - previous!, 0);
    const down = Math.max(previous! - close, 0);
    const n = changes + 1;
    if (n <= period) return { n, gain: gain + up, loss: loss + down };
    return {
      n,
      gain: (gain * (period - 1) + up) / period,
      loss: (loss * (period - 1) + down) / period,
    };
  };
  return stateOf({
    commit: (bar) => {
      if (previous !== null) {
        const next = averages(bar.close);
        // Until `period` changes, gain and loss are sums; at `period` they become means.
        changes = next.n;
        gain = next.n === period ? next.gain / period : next.gain;
        loss = next.n === period ? next.loss / period : next.loss;
      }
      previous = bar.close;
    },
    peek: (bar) => {
      if (previous === null) return { value: null };
      const next = averages(bar.close);
      if (next.n < period) return { value: null };
      if (next.n === period) return { value: rsiOf(next.gain / period, next.loss / period) };
      return { value: rsiOf(next.gain, next.loss) };
    },
  });
}

/**
 * MACD: EMA(fast) − EMA(slow) of the closes, its signal line EMA(signal) of the MACD values
 * (from the first bar both EMAs exist), and the histogram MACD − signal.
 */
export function macdState(fast: number, slow: number, signal: number): IndicatorState<MacdValues> {
  const fastEma = new Ema(fast);
  const slowEma = new Ema(slow);
  const signalEma = new Ema(signal);
  const macdOf = (close: number) => {
    const f = fastEma.peek(close);
    const s = slowEma.peek(close);
    return f === null || s === null ? null : f - s;
  };
  return stateOf({
    commit: (bar) => {
      const macd = macdOf(bar.close);
      fastEma.commit(bar.close);
      slowEma.commit(bar.close);
      if (macd !== null) signalEma.commit(macd);
    },
    peek: (bar) => {
      const macd = macdOf(bar.close);
      if (macd === null) return { macd: null, signal: null, histogram: null };
      const line = signalEma.peek(macd);
      return { macd, signal: line, histogram: line === null ? null : macd - line };
    },
  });
}

/** Each bar's volume and direction. */
export function volumeState(): IndicatorState<VolumeValues> {
  return stateOf({
    commit: () => {},
    peek: (bar) => ({ value: bar.volume, direction: barDirection(bar) }),
  });
}

/** A fresh state of an indicator kind, its parameters resolved (defaults, ranges). */
export function createIndicatorState(
  kind: IndicatorKind,
  params: Readonly<Record<string, number>>,
): IndicatorState {
  const p = resolveIndicatorParams(kind, params);
  switch (kind) {
    case 'sma':
      return smaState(p.period!);
    case 'ema':
      return emaState(p.period!);
    case 'bollinger':
      return bollingerState(p.period!, p.deviation!);
    case 'vwap':
      return vwapState();
    case 'rsi':
      return rsiState(p.period!);
    case 'macd':
      return macdState(p.fast!, p.slow!, p.signal!);
    case 'volume':
      return volumeState();
  }
}
