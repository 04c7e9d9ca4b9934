import { describe, expect, it } from 'vitest';
import type { Bar } from '../market/bars.ts';
import { createRng } from '../market/prng.ts';
import { INDICATOR_KINDS } from './config.ts';
import { indicatorSeries } from './batch.ts';
import {
  bollingerState,
  createIndicatorState,
  emaState,
  macdState,
  rsiState,
  smaState,
  volumeState,
  vwapState,
  type IndicatorState,
  type IndicatorValues,
} from './compute.ts';

const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 10, 22, 0);

/** Bars with the given closes, one a minute; open = previous close, volume 1. */
function barsOf(closes: readonly number[], start = T0): Bar[] {
  return closes.map((close, i) => {
    const open = i === 0 ? close : closes[i - 1]!;
    return {
      time: start + i * MIN,
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
      volume: 1,
    };
  });
}

function feed<V extends IndicatorValues>(state: IndicatorState<V>, bars: readonly Bar[]): V[] {
  return bars.map((bar) => state.push(bar));
}

/** Rounds every number of `values` to 6 decimals for comparison with hand-computed figures. */
function rounded(values: readonly IndicatorValues[]) {
  return values.map((v) =>
    Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, x === null ? null : Math.round(x * 1e6) / 1e6]),
    ),
  );
}

describe('indicators against hand-computed values', () => {
  it('SMA 3 of 1, 2, 4, 7, 11 is -, -, 7/3, 13/3, 22/3', () => {
    const out = feed(smaState(3), barsOf([1, 2, 4, 7, 11]));
    expect(rounded(out)).toEqual([
      { value: null },
      { value: null },
      { value: 2.333333 },
      { value: 4.333333 },
      { value: 7.333333 },
    ]);
  });

  it('EMA 3 (k = 0.5) of 1, 2, 4, 7, 11 starts at the SMA 7/3, then 14/3, 47/6', () => {
    const out = feed(emaState(3), barsOf([1, 2, 4, 7, 11]));
    // seed (1 + 2 + 4) / 3 = 2.333333; 2.333333 + 0.5 × (7 − 2.333333) = 4.666667;
    // 4.666667 + 0.5 × (11 − 4.666667) = 7.833333
    expect(rounded(out)).toEqual([
      { value: null },
      { value: null },
      { value: 2.333333 },
      { value: 4.666667 },
      { value: 7.833333 },
    ]);
  });

  it('Bollinger 3, 2 of 1, 2, 3, 5: middle ± 2 population standard deviations', () => {
    const out = feed(bollingerState(3, 2), barsOf([1, 2, 3, 5]));
    // window 1, 2, 3: mean 2, variance 2/3, sd 0.816497 → 3.632993 / 0.367007
    // window 2, 3, 5: mean 10/3, variance 14/9, sd 1.247219 → 5.827772 / 0.838895
    expect(rounded(out)).toEqual([
      { middle: null, upper: null, lower: null },
      { middle: null, upper: null, lower: null },
      { middle: 2, upper: 3.632993, lower: 0.367007 },
      { middle: 3.333333, upper: 5.827772, lower: 0.838895 },
    ]);
  });

  it('Bollinger keeps its digits at prices near 45,000', () => {
    const closes = [45_000.5, 45_001.5, 45_000.5, 45_001.5];
    const out = feed(bollingerState(2, 1), barsOf(closes));
    // every window of two is 0.5 from its mean
    expect(rounded(out.slice(1))).toEqual([
      { middle: 45_001, upper: 45_001.5, lower: 45_000.5 },
      { middle: 45_001, upper: 45_001.5, lower: 45_000.5 },
      { middle: 45_001, upper: 45_001.5, lower: 45_000.5 },
    ]);
  });

  it('VWAP weights the typical price by volume and starts again at 00:00 UTC', () => {
    const dayStart = Date.UTC(2026, 2, 10);
    const bars: Bar[] = [
      { time: dayStart + 23 * 3_600_000, open: 9, high: 12, low: 8, close: 10, volume: 100 },
      { time: dayStart + 23.5 * 3_600_000, open: 10, high: 15, low: 9, close: 12, volume: 300 },
      { time: dayStart + DAY, open: 20, high: 21, low: 19, close: 20, volume: 50 },
      { time: dayStart + DAY + MIN, open: 20, high: 20, low: 20, close: 20, volume: 0 },
    ];
    // typical prices 10 and 12: (10 × 100 + 12 × 300) / 400 = 11.5; the next day starts at 20
    expect(rounded(feed(vwapState(), bars))).toEqual([
      { value: 10 },
      { value: 11.5 },
      { value: 20 },
      { value: 20 },
    ]);
  });

  it('VWAP is empty while the day has no volume', () => {
    const bars = barsOf([5, 6]).map((b) => ({ ...b, volume: 0 }));
    expect(feed(vwapState(), bars)).toEqual([{ value: null }, { value: null }]);
  });

  it("RSI 3 with Wilder's smoothing", () => {
    // changes +1, −0.5, +1, +0.5, −1
    // seed: gain (1 + 0 + 1) / 3 = 2/3, loss 0.5 / 3 = 1/6 → RS 4 → RSI 80
    // then gain (2/3 × 2 + 0.5) / 3 = 11/18, loss (1/6 × 2) / 3 = 1/9 → RS 5.5 → 84.615385
    // then gain (11/18 × 2) / 3 = 11/27, loss (1/9 × 2 + 1) / 3 = 11/27 → RSI 50
    const out = feed(rsiState(3), barsOf([10, 11, 10.5, 11.5, 12, 11]));
    expect(rounded(out)).toEqual([
      { value: null },
      { value: null },
      { value: null },
      { value: 80 },
      { value: 84.615385 },
      { value: 50 },
    ]);
  });

  it('RSI is 100 without losses and 50 without any move', () => {
    expect(feed(rsiState(2), barsOf([1, 2, 3])).at(-1)).toEqual({ value: 100 });
    expect(feed(rsiState(2), barsOf([4, 4, 4])).at(-1)).toEqual({ value: 50 });
  });

  it('MACD 2, 3, 2: EMA(2) − EMA(3), its EMA(2) signal and the histogram', () => {
    // closes 1, 3, 2, 5, 4, 6
    // EMA2 (k 2/3): -, 2, 2, 4, 4, 16/3; EMA3 (k 1/2): -, -, 2, 3.5, 3.75, 4.875
    // MACD: -, -, 0, 0.5, 0.25, 0.458333; signal seeded (0 + 0.5) / 2 = 0.25, then 0.25,
    // 0.25 + 2/3 × (0.458333 − 0.25) = 0.388889
    const out = feed(macdState(2, 3, 2), barsOf([1, 3, 2, 5, 4, 6]));
    expect(rounded(out)).toEqual([
      { macd: null, signal: null, histogram: null },
      { macd: null, signal: null, histogram: null },
      { macd: 0, signal: null, histogram: null },
      { macd: 0.5, signal: 0.25, histogram: 0.25 },
      { macd: 0.25, signal: 0.25, histogram: 0 },
      { macd: 0.458333, signal: 0.388889, histogram: 0.069444 },
    ]);
  });

  it('volume carries the bar direction: up at or above the open, down below', () => {
    const bars: Bar[] = [
      { time: T0, open: 10, high: 11, low: 9, close: 11, volume: 5 },
      { time: T0 + MIN, open: 11, high: 11, low: 9, close: 11, volume: 6 },
      { time: T0 + 2 * MIN, open: 11, high: 11, low: 9, close: 10, volume: 7 },
    ];
    expect(feed(volumeState(), bars)).toEqual([
      { value: 5, direction: 1 },
      { value: 6, direction: 1 },
      { value: 7, direction: -1 },
    ]);
  });

  it('a period of 1 is the close itself', () => {
    expect(feed(smaState(1), barsOf([3, 4]))).toEqual([{ value: 3 }, { value: 4 }]);
    expect(feed(emaState(1), barsOf([3, 4]))).toEqual([{ value: 3 }, { value: 4 }]);
  });
});

/**
 * A random walk of 1,500 one-minute bars across two UTC days near 45,000, each bar first
 * seen as it forms: opened at its open, then changed by 1–4 ticks before the next one.
 */
function liveSession(seed: number) {
  const rng = createRng(seed);
  const final: Bar[] = [];
  const steps: { bar: Bar; replace: boolean }[] = [];
  let price = 45_000;
  for (let i = 0; i < 1500; i++) {
    const open = price;
    let bar: Bar = {
      time: T0 + i * MIN,
      open,
      high: open,
      low: open,
      close: open,
      volume: 0,
    };
    steps.push({ bar, replace: false });
    const ticks = 1 + Math.floor(rng.next() * 4);
    for (let t = 0; t < ticks; t++) {
      price = Math.round((price + rng.normal() * 12) * 100) / 100;
      bar = {
        ...bar,
        high: Math.max(bar.high, price),
        low: Math.min(bar.low, price),
        close: price,
        volume: bar.volume + Math.round(rng.next() * 300) / 100,
      };
      steps.push({ bar, replace: true });
    }
    final.push(bar);
  }
  return { final, steps };
}

describe('incremental equals batch', () => {
  const { final, steps } = liveSession(7);
  const cases: [string, Record<string, number>][] = [
    ['sma', { period: 20 }],
    ['ema', { period: 50 }],
    ['bollinger', { period: 20, deviation: 2 }],
    ['vwap', {}],
    ['rsi', { period: 14 }],
    ['macd', { fast: 12, slow: 26, signal: 9 }],
    ['volume', {}],
  ];
  it('covers every kind', () => {
    expect(cases.map(([kind]) => kind).sort()).toEqual([...INDICATOR_KINDS].sort());
  });

  for (const [kind, params] of cases) {
    it(`${kind}: bars fed as they form (live ticks replacing the last) give the batch values`, () => {
      const expected = indicatorSeries(kind as never, params, final);
      const state = createIndicatorState(kind as never, params);
      const got: IndicatorValues[] = [];
      for (const step of steps) {
        if (step.replace) got[got.length - 1] = state.replaceLast(step.bar);
        else got.push(state.push(step.bar));
      }
      expect(state.length).toBe(final.length);
      expect(got).toHaveLength(expected.length);
      for (let i = 0; i < expected.length; i++) {
        for (const [line, want] of Object.entries(expected[i]!)) {
          const have = got[i]![line];
          if (want === null) expect(have, `${line} at ${i}`).toBeNull();
          else expect(Math.abs(have! - want), `${line} at ${i}`).toBeLessThan(1e-7);
        }
      }
    });
  }

  it('replacing the last bar does not grow the state', () => {
    const state = smaState(3);
    for (const bar of barsOf([1, 2, 3])) state.push(bar);
    const last = barsOf([1, 2, 3])[2]!;
    for (let i = 0; i < 100; i++) state.replaceLast({ ...last, close: 3 + i });
    expect(state.length).toBe(3);
    expect(state.replaceLast({ ...last, close: 6 })).toEqual({ value: 3 });
  });

  it('refuses to replace a bar before the first one', () => {
    expect(() => smaState(3).replaceLast(barsOf([1])[0]!)).toThrow(/before the first bar/);
  });
});
