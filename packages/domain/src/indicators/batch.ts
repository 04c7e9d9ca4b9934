import { barDirection, type Bar } from '../market/bars.ts';
import type { IndicatorKind } from './config.ts';
import {
  rsiOf,
  vwapAnchor,
  type BollingerValues,
  type IndicatorValues,
  type MacdValues,
  type SmaValues,
  type VolumeValues,
} from './compute.ts';
import { resolveIndicatorParams } from './params.ts';

/*
 * The indicators' definitions written the plain way, over the whole series at once (O(n ×
 * period) where a window is involved). They are the reference the incremental states of
 * `compute.ts` are tested against; the chart uses those.
 */

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Simple moving average of `values` over `period`; null for the first period − 1. */
export function smaSeries(values: readonly number[], period: number): (number | null)[] {
  return values.map((_, i) => (i + 1 < period ? null : mean(values.slice(i + 1 - period, i + 1))));
}

/** EMA of `values` (k = 2 / (period + 1)) seeded with the SMA of the first `period`. */
export function emaSeries(values: readonly number[], period: number): (number | null)[] {
  const k = 2 / (period + 1);
  const out: (number | null)[] = [];
  let previous: number | null = null;
  for (let i = 0; i < values.length; i++) {
    if (i + 1 < period) out.push(null);
    else if (i + 1 === period) out.push((previous = mean(values.slice(0, period))));
    else out.push((previous = previous! + k * (values[i]! - previous!)));
  }
  return out;
}

/** Bollinger Bands over the closes (population standard deviation). */
export function bollingerSeries(
  bars: readonly Bar[],
  period: number,
  deviation: number,
): BollingerValues[] {
  const closes = bars.map((b) => b.close);
  return closes.map((_, i) => {
    if (i + 1 < period) return { middle: null, upper: null, lower: null };
    const window = closes.slice(i + 1 - period, i + 1);
    const m = mean(window);
    const sd = Math.sqrt(mean(window.map((x) => (x - m) ** 2)));
    return { middle: m, upper: m + deviation * sd, lower: m - deviation * sd };
  });
}

/** VWAP of the typical price anchored at each UTC day. */
export function vwapSeries(bars: readonly Bar[]): SmaValues[] {
  let day = Number.NaN;
  let pv = 0;
  let volume = 0;
  return bars.map((bar) => {
    if (vwapAnchor(bar.time) !== day) {
      day = vwapAnchor(bar.time);
      pv = 0;
      volume = 0;
    }
    pv += ((bar.high + bar.low + bar.close) / 3) * bar.volume;
    volume += bar.volume;
    return { value: volume > 0 ? pv / volume : null };
  });
}

/** Wilder's RSI of the closes. */
export function rsiSeries(bars: readonly Bar[], period: number): SmaValues[] {
  const gains: number[] = [];
  const losses: number[] = [];
  let gain = 0;
  let loss = 0;
  return bars.map((bar, i) => {
    if (i === 0) return { value: null };
    const change = bar.close - bars[i - 1]!.close;
    gains.push(Math.max(change, 0));
    losses.push(Math.max(-change, 0));
    if (i < period) return { value: null };
    if (i === period) {
      gain = mean(gains);
      loss = mean(losses);
    } else {
      gain = (gain * (period - 1) + gains[i - 1]!) / period;
      loss = (loss * (period - 1) + losses[i - 1]!) / period;
    }
    return { value: rsiOf(gain, loss) };
  });
}

/** MACD line, signal line and histogram of the closes. */
export function macdSeries(
  bars: readonly Bar[],
  fast: number,
  slow: number,
  signal: number,
): MacdValues[] {
  const closes = bars.map((b) => b.close);
  const f = emaSeries(closes, fast);
  const s = emaSeries(closes, slow);
  const macd = closes.map((_, i) => (f[i] == null || s[i] == null ? null : f[i]! - s[i]!));
  const first = macd.findIndex((x) => x !== null);
  const signalLine = first < 0 ? [] : emaSeries(macd.slice(first) as number[], signal);
  return macd.map((m, i) => {
    const line = first < 0 || i < first ? null : (signalLine[i - first] ?? null);
    return {
      macd: m,
      signal: line,
      histogram: m === null || line === null ? null : m - line,
    };
  });
}

/** Each bar's volume and direction. */
export function volumeSeries(bars: readonly Bar[]): VolumeValues[] {
  return bars.map((bar) => ({ value: bar.volume, direction: barDirection(bar) }));
}

/** Every bar's values of an indicator, computed over the whole series at once. */
export function indicatorSeries(
  kind: IndicatorKind,
  params: Readonly<Record<string, number>>,
  bars: readonly Bar[],
): IndicatorValues[] {
  const p = resolveIndicatorParams(kind, params);
  const closes = bars.map((b) => b.close);
  switch (kind) {
    case 'sma':
      return smaSeries(closes, p.period!).map((value) => ({ value }));
    case 'ema':
      return emaSeries(closes, p.period!).map((value) => ({ value }));
    case 'bollinger':
      return bollingerSeries(bars, p.period!, p.deviation!);
    case 'vwap':
      return vwapSeries(bars);
    case 'rsi':
      return rsiSeries(bars, p.period!);
    case 'macd':
      return macdSeries(bars, p.fast!, p.slow!, p.signal!);
    case 'volume':
      return volumeSeries(bars);
  }
}
