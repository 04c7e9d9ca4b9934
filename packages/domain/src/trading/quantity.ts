import { isAbove, isBelow, isOnGrid, roundTo, tickDecimals, wholeSteps } from '../market/price.ts';
import { TOLERANCE } from '../values/tolerance.ts';

/** Quantity bounds when no instrument data is known (spec section 9). */
export const FALLBACK_MIN_QUANTITY = 1;
export const FALLBACK_MAX_QUANTITY = 1_000_000;
/** Default order quantity on the ticket. */
export const DEFAULT_ORDER_QUANTITY = 1;

export const QUANTITY_MESSAGES = {
  notPositive: '数量必须大于0',
  noInstrument: 'instrument data unavailable, cannot validate',
  invalid: 'Invalid quantity',
  belowMin: (min: number, step: number) =>
    `Quantity must be at least ${min} and a multiple of ${step}`,
  aboveMax: (max: number, step: number) =>
    `Quantity cannot exceed ${max} and must be a multiple of ${step}`,
  offStep: (step: number, examples: number[]) =>
    `Quantity must be a multiple of ${step}, for example ${examples.join(', ')}`,
} as const;

/** The instrument fields the quantity rules read. */
export type QuantityTerms = {
  vol_limit_min: number;
  vol_limit_max: number;
  min_limit_ov: number;
  max_limit_ov: number;
};

export type QuantityRule = { min: number; max: number; step: number };

/**
 * Quantity bounds of an order (spec section 5): market orders use vol_limit_min (default
 * 1) to vol_limit_max with step vol_limit_min; limit orders use min_limit_ov to
 * max_limit_ov with step min_limit_ov when both are above 0, else the market rule.
 */
export function quantityRule(terms: QuantityTerms, orderType: 'market' | 'limit'): QuantityRule {
  const marketMin = terms.vol_limit_min > 0 ? terms.vol_limit_min : FALLBACK_MIN_QUANTITY;
  const marketMax = terms.vol_limit_max > 0 ? terms.vol_limit_max : FALLBACK_MAX_QUANTITY;
  if (orderType === 'limit' && terms.min_limit_ov > 0 && terms.max_limit_ov > 0) {
    return { min: terms.min_limit_ov, max: terms.max_limit_ov, step: terms.min_limit_ov };
  }
  return { min: marketMin, max: marketMax, step: marketMin };
}

/** The close rule: the market rule with the maximum capped at the available volume. */
export function closeQuantityRule(terms: QuantityTerms, available: number): QuantityRule {
  const rule = quantityRule(terms, 'market');
  return { ...rule, max: Math.max(0, Math.min(rule.max, available)) };
}

/** True when `quantity` is a whole number of steps (within TOLERANCE.onGrid of a step). */
export function isMultipleOfStep(quantity: number, step: number): boolean {
  return isOnGrid(quantity, step);
}

/** Three valid quantities near `quantity` on the step grid within the bounds. */
export function validQuantityExamples(rule: QuantityRule, quantity: number): number[] {
  const decimals = tickDecimals(rule.step);
  const base = Math.max(rule.min, wholeSteps(quantity, rule.step, 'floor') * rule.step);
  const examples: number[] = [];
  for (let k = 0; examples.length < 3 && k < 10; k++) {
    const value = roundTo(base + k * rule.step, decimals);
    if (value >= rule.min && value <= rule.max) examples.push(value);
  }
  return examples;
}

/**
 * The first quantity rule `quantity` breaks, or null when it is valid. Without a rule
 * (no instrument data) only quantity > 0 is required.
 */
export function validateQuantity(quantity: number, rule: QuantityRule | null): string | null {
  if (!Number.isFinite(quantity)) return QUANTITY_MESSAGES.invalid;
  if (quantity <= 0) return QUANTITY_MESSAGES.notPositive;
  if (!rule) return null;
  const onStep = isMultipleOfStep(quantity, rule.step);
  if (isBelow(quantity, rule.min, TOLERANCE.quantityBound)) {
    return QUANTITY_MESSAGES.belowMin(rule.min, rule.step);
  }
  if (isAbove(quantity, rule.max, TOLERANCE.quantityBound)) {
    return QUANTITY_MESSAGES.aboveMax(rule.max, rule.step);
  }
  if (!onStep) return QUANTITY_MESSAGES.offStep(rule.step, validQuantityExamples(rule, quantity));
  return null;
}

/** Raises a quantity below the minimum to the minimum (the ticket's automatic clamp). */
export function clampQuantityUp(quantity: number, rule: QuantityRule): number {
  return Number.isFinite(quantity) && quantity >= rule.min ? quantity : rule.min;
}
