import type { IndicatorKind } from './config.ts';

/** One numeric parameter of an indicator: its default and the range the editor allows. */
export type IndicatorParamSpec = {
  name: string;
  default: number;
  min: number;
  max: number;
  step: number;
  /** Whole numbers only (periods). */
  integer: boolean;
};

const period = (fallback: number, min = 1): IndicatorParamSpec => ({
  name: 'period',
  default: fallback,
  min,
  max: 500,
  step: 1,
  integer: true,
});

/** Each kind's parameters in the order the editor shows them. */
export const INDICATOR_PARAMS: Readonly<Record<IndicatorKind, readonly IndicatorParamSpec[]>> = {
  sma: [period(20)],
  ema: [period(20)],
  bollinger: [
    period(20, 2),
    { name: 'deviation', default: 2, min: 0.1, max: 10, step: 0.1, integer: false },
  ],
  vwap: [],
  rsi: [period(14, 2)],
  macd: [
    { name: 'fast', default: 12, min: 1, max: 500, step: 1, integer: true },
    { name: 'slow', default: 26, min: 2, max: 500, step: 1, integer: true },
    { name: 'signal', default: 9, min: 1, max: 500, step: 1, integer: true },
  ],
  volume: [],
};

/**
 * Where an indicator is drawn: over the price bars, in a pane of its own, or as the chart's
 * volume histogram (one per chart).
 */
export const INDICATOR_PLACEMENT: Readonly<Record<IndicatorKind, 'price' | 'pane' | 'volume'>> = {
  sma: 'price',
  ema: 'price',
  bollinger: 'price',
  vwap: 'price',
  rsi: 'pane',
  macd: 'pane',
  volume: 'volume',
};

/**
 * The parameters an indicator runs with: each of its kind's parameters from `params`, or its
 * default when missing or not finite, clamped to its range, periods rounded to whole bars.
 * Names the kind does not know are dropped.
 */
export function resolveIndicatorParams(
  kind: IndicatorKind,
  params: Readonly<Record<string, number>>,
): Record<string, number> {
  const resolved: Record<string, number> = {};
  for (const spec of INDICATOR_PARAMS[kind]) {
    const raw = params[spec.name];
    let value = typeof raw === 'number' && Number.isFinite(raw) ? raw : spec.default;
    if (spec.integer) value = Math.round(value);
    resolved[spec.name] = Math.min(spec.max, Math.max(spec.min, value));
  }
  return resolved;
}

/** The default parameters of a kind (a new indicator starts with these). */
export function defaultIndicatorParams(kind: IndicatorKind): Record<string, number> {
  return resolveIndicatorParams(kind, {});
}
