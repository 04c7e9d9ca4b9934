import { PNL_DECIMALS, roundTo } from '../market/price.ts';
import { roundLots } from '../values/units.ts';

/**
 * The one way money, percentages and lots are shown. Money: 2 decimals (spec section 9) with
 * thousands separators, the same in every table, card and bar; '+' only when asked for and
 * only above zero after rounding. Percent: the caller names the unit of its value.
 */

/** A value's unit: 0.125 as a 'fraction' is 12.5 %; 12.5 as a 'percent' is 12.5 %. */
export type PercentUnit = 'fraction' | 'percent';

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(decimals: number, grouping: boolean): Intl.NumberFormat {
  const key = `${decimals}:${grouping}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      useGrouping: grouping,
    });
    formats.set(key, format);
  }
  return format;
}

function withSign(text: string, value: number, signed: boolean): string {
  return signed && value > 0 ? `+${text}` : text;
}

/** Money (balances, P&L, commission): '1,200.50'; signed: '+1,200.50', '-4.00', '0.00'. */
export function formatMoney(value: number, options: { signed?: boolean } = {}): string {
  // roundTo first: -0.001 shows 0.00 (not -0.00) and gets no '+'
  const rounded = roundTo(value, PNL_DECIMALS) || 0;
  return withSign(
    numberFormat(PNL_DECIMALS, true).format(rounded),
    rounded,
    options.signed ?? false,
  );
}

/**
 * A percentage with `decimals` decimals (default 2) and thousands separators: '12.50%';
 * `symbol: false` leaves the '%' to the caller's text.
 */
export function formatPercent(
  value: number,
  unit: PercentUnit,
  options: { decimals?: number; symbol?: boolean; signed?: boolean } = {},
): string {
  const decimals = options.decimals ?? 2;
  const percent = roundTo(unit === 'fraction' ? value * 100 : value, decimals) || 0;
  const text = withSign(
    numberFormat(decimals, true).format(percent),
    percent,
    options.signed ?? false,
  );
  return options.symbol === false ? text : `${text}%`;
}

/**
 * The unit of a run's win rate (`胜率` of its performance), spec section 9: the product's runs
 * give a fraction, and a saved result may carry a percent, which is the one above 1.
 */
export function winRateUnit(winRate: number): PercentUnit {
  return winRate > 1 ? 'percent' : 'fraction';
}

/** Lots as written, without float noise (0.1 + 0.2 shows 0.3) and without separators. */
export function formatLots(value: number): string {
  return String(roundLots(value));
}
