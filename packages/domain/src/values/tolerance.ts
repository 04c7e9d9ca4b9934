/*
 * The tolerances of float arithmetic, in one place: no epsilon is written inline anywhere
 * else in the product (`inline-epsilon.test.ts` scans the sources for one).
 */

/**
 * The tolerances of float arithmetic on prices and quantities. Every snap, on-grid check
 * and bound comparison goes through the helpers of market/price.ts, which name the one they
 * use. A "grid" is a tick (prices) or a lot step (quantities); "steps" are value / grid.
 */
export const TOLERANCE = {
  /**
   * In steps: division noise forgiven when counting whole steps, reading a step's decimals
   * or rounding half away from zero (0.3 / 0.1 = 2.9999999999999996 is 3 steps).
   */
  snap: 1e-9,
  /**
   * In steps: a value within a millionth of a step of a grid line lies on it
   * (1.29896 / 0.00001 = 129895.99999999999; a typed 1.298961 does not).
   */
  onGrid: 1e-6,
  /**
   * Absolute: a price compared against a band end that is itself on the grid; only
   * representation noise is forgiven, never a fraction of a tick.
   */
  priceBound: 1e-12,
  /** Absolute: a quantity compared against its minimum or maximum, or a position's size. */
  quantityBound: 1e-9,
  /** Absolute: a standard deviation at or below this is no spread at all (no ratio on it). */
  zeroSpread: 1e-12,
} as const;

/**
 * Relative precisions of the normal distribution's series and continued fraction
 * (optimization/normal.ts): where a term or a step no longer changes the result.
 */
export const SERIES = {
  /** A series term this small against the sum adds nothing a double can hold. */
  term: 1e-17,
  /** A continued-fraction step this close to 1 changes nothing more. */
  step: 1e-16,
  /** The modified Lentz method's stand-in for a zero denominator. */
  tiny: 1e-300,
} as const;
