import { describe, expect, it } from 'vitest';
import { defaultIndicatorParams, resolveIndicatorParams } from './params.ts';

describe('indicator parameters', () => {
  it('defaults are the usual ones: SMA 20, Bollinger 20 / 2, RSI 14, MACD 12 / 26 / 9', () => {
    expect(defaultIndicatorParams('sma')).toEqual({ period: 20 });
    expect(defaultIndicatorParams('bollinger')).toEqual({ period: 20, deviation: 2 });
    expect(defaultIndicatorParams('rsi')).toEqual({ period: 14 });
    expect(defaultIndicatorParams('macd')).toEqual({ fast: 12, slow: 26, signal: 9 });
    expect(defaultIndicatorParams('vwap')).toEqual({});
    expect(defaultIndicatorParams('volume')).toEqual({});
  });

  it('clamps to the range, rounds periods and drops unknown names', () => {
    expect(resolveIndicatorParams('sma', { period: 0 })).toEqual({ period: 1 });
    expect(resolveIndicatorParams('sma', { period: 9_999 })).toEqual({ period: 500 });
    expect(resolveIndicatorParams('ema', { period: 20.6, other: 3 })).toEqual({ period: 21 });
    expect(resolveIndicatorParams('rsi', { period: 1 })).toEqual({ period: 2 });
    expect(resolveIndicatorParams('bollinger', { deviation: 2.5 })).toEqual({
      period: 20,
      deviation: 2.5,
    });
    expect(resolveIndicatorParams('bollinger', { deviation: 0 })).toEqual({
      period: 20,
      deviation: 0.1,
    });
  });
});
