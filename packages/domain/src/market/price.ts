/** Default tick size when an instrument gives none (spec section 3). */
export const DEFAULT_TICK = 0.01;
/** Display precision upper bounds (spec section 9). */
export const PRICE_DECIMALS = 4;
export const PNL_DECIMALS = 2;
export const PERCENT_DECIMALS = 4;

const decimalsByTick = new Map<number, number>();

/** Number of decimals a tick size needs (0.01 → 2, 0.25 → 2, 5 → 0), at most 8. */
export function tickDecimals(tick: number): number {
  if (!(tick > 0)) return 2;
  const known = decimalsByTick.get(tick);
  if (known !== undefined) return known;
  let decimals = 8;
  for (let d = 0; d <= 8; d++) {
    const scaled = tick * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9) {
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
  const rounded = Math.round(Math.abs(value) * factor + 1e-9) / factor;
  return Math.sign(value) * rounded || 0;
}

/** Snaps a price to the nearest multiple of the tick, expressed with the tick's decimals. */
export function snapToTick(price: number, tick: number): number {
  if (!(tick > 0)) return price;
  return roundTo(Math.round(price / tick) * tick, tickDecimals(tick));
}

/** Snaps down (floor) or up (ceil) to the tick grid. */
export function snapToTickDirected(price: number, tick: number, direction: 'down' | 'up'): number {
  if (!(tick > 0)) return price;
  const steps = price / tick;
  const whole = direction === 'down' ? Math.floor(steps + 1e-9) : Math.ceil(steps - 1e-9);
  return roundTo(whole * tick, tickDecimals(tick));
}

/** True when the price lies on the tick grid (within a millionth of a tick). */
export function isOnTick(price: number, tick: number): boolean {
  if (!(tick > 0)) return true;
  const steps = price / tick;
  return Math.abs(steps - Math.round(steps)) < 1e-6;
}
