import { TOLERANCE } from '../values/tolerance.ts';

/** Default tick size when an instrument gives none (spec section 3). */
export const DEFAULT_TICK = 0.01;
/** Display precision upper bounds (spec section 9). */
export const PRICE_DECIMALS = 4;
export const PNL_DECIMALS = 2;
export const PERCENT_DECIMALS = 4;
/** Lots are kept with at most 8 decimals (0.1 + 0.2 lots is 0.3 lots). */
export const LOT_DECIMALS = 8;

const decimalsByTick = new Map<number, number>();

/**
 * Number of decimals a tick size (or lot step) needs (0.01 → 2, 0.25 → 2, 5 → 0), at most
 * 8; 2 for a tick that is not above 0.
 */
export function tickDecimals(tick: number): number {
  if (!(tick > 0)) return 2;
  const known = decimalsByTick.get(tick);
  if (known !== undefined) return known;
  let decimals = 8;
  for (let d = 0; d <= 8; d++) {
    const scaled = tick * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < TOLERANCE.snap) {
      decimals = d;
      break;
    }
  }
  if (decimalsByTick.size < 1000) decimalsByTick.set(tick, decimals);
  return decimals;
}

/**
 * Decimals a price of an instrument is shown with: its tick's (0.01 → 2, 0.00001 → 5,
 * 1 → 0, at most 8); the spec's 4 (PRICE_DECIMALS) for an instrument without a tick.
 */
export function priceDecimals(tick: number | null | undefined): number {
  return tick !== null && tick !== undefined && tick > 0 ? tickDecimals(tick) : PRICE_DECIMALS;
}

/**
 * The one way a price is shown: with its instrument's decimals (see priceDecimals);
 * '—' for a missing or non-finite price.
 */
export function formatPrice(
  price: number | null | undefined,
  tick: number | null | undefined,
): string {
  if (price === null || price === undefined || !Number.isFinite(price)) return '—';
  return price.toFixed(priceDecimals(tick));
}

/** Rounds to a number of decimals, half away from zero, without float residue. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(Math.abs(value) * factor + TOLERANCE.snap) / factor;
  return Math.sign(value) * rounded || 0;
}

/** Snaps a price to the nearest multiple of the tick, expressed with the tick's decimals. */
export function snapToTick(price: number, tick: number): number {
  if (!(tick > 0)) return price;
  return roundTo(Math.round(price / tick) * tick, tickDecimals(tick));
}

/**
 * Whole grid steps in `value`, rounded down ('floor') or up ('ceil'); a value within
 * `tolerance` steps (default TOLERANCE.snap) of a grid line counts as on it, so
 * wholeSteps(0.3, 0.1, 'floor') is 3 and wholeSteps(0.3, 0.1, 'ceil') is 3.
 */
export function wholeSteps(
  value: number,
  step: number,
  direction: 'floor' | 'ceil',
  tolerance: number = TOLERANCE.snap,
): number {
  const steps = value / step;
  return direction === 'floor' ? Math.floor(steps + tolerance) : Math.ceil(steps - tolerance);
}

/** Snaps down (floor) or up (ceil) to the tick grid; the price unchanged without a tick. */
export function snapToTickDirected(price: number, tick: number, direction: 'down' | 'up'): number {
  if (!(tick > 0)) return price;
  const whole = wholeSteps(price, tick, direction === 'down' ? 'floor' : 'ceil');
  return roundTo(whole * tick, tickDecimals(tick));
}

/**
 * True when `value` lies on the grid of `step` (within TOLERANCE.onGrid of a step); always
 * true without a step (not above 0).
 */
export function isOnGrid(value: number, step: number): boolean {
  if (!(step > 0)) return true;
  const steps = value / step;
  return Math.abs(steps - Math.round(steps)) < TOLERANCE.onGrid;
}

/** True when the price lies on the tick grid (within a millionth of a tick). */
export function isOnTick(price: number, tick: number): boolean {
  return isOnGrid(price, tick);
}

/** True when `value` is below `bound` by more than `epsilon` (absolute). */
export function isBelow(value: number, bound: number, epsilon: number): boolean {
  return value < bound - epsilon;
}

/** True when `value` is above `bound` by more than `epsilon` (absolute). */
export function isAbove(value: number, bound: number, epsilon: number): boolean {
  return value > bound + epsilon;
}

/**
 * True when a price lies in [min, max] (ends included, within TOLERANCE.priceBound); false
 * for a non-finite price.
 */
export function isPriceWithin(price: number, range: { min: number; max: number }): boolean {
  return (
    Number.isFinite(price) &&
    !isBelow(price, range.min, TOLERANCE.priceBound) &&
    !isAbove(price, range.max, TOLERANCE.priceBound)
  );
}
