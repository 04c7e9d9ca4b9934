import { SERIES } from '../values/tolerance.ts';

/*
 * The standard normal distribution for the overfitting statistics (docs/architecture.md
 * "Optimisation rules (domain)"). Written here rather than taken from a package: the small
 * JS statistics packages approximate Φ to 3–7 digits (tables or short polynomials), and the
 * deflated Sharpe ratio needs the far tails (Φ⁻¹(1 − 1/N) for thousands of trials).
 */

const SQRT2 = Math.SQRT2;
const SQRT_PI = Math.sqrt(Math.PI);
const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** erf(z) for 0 ≤ z < 2: 2/√π · e^(−z²) · Σ (2z²)ⁿ z / (1·3·…·(2n+1)), all terms positive. */
function erfSeries(z: number): number {
  const factor = 2 * z * z;
  let term = z;
  let sum = z;
  for (let n = 1; n < 200; n++) {
    term *= factor / (2 * n + 1);
    sum += term;
    if (term < sum * SERIES.term) break;
  }
  return (2 / SQRT_PI) * Math.exp(-z * z) * sum;
}

/**
 * erfc(z) for z ≥ 2 by its continued fraction e^(−z²)/√π · 1/(z + ½/(z + 1/(z + 3⁄2/(z + …)))),
 * evaluated with the modified Lentz method: full relative precision in the far tail.
 */
function erfcContinuedFraction(z: number): number {
  const tiny = SERIES.tiny;
  let f = z;
  let c = f;
  let d = 0;
  for (let n = 1; n < 1000; n++) {
    const a = n / 2;
    d = z + a * d;
    d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
    c = z + a / c;
    if (Math.abs(c) < tiny) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < SERIES.step) break;
  }
  return Math.exp(-z * z) / SQRT_PI / f;
}

/** erfc(z) for z ≥ 0. */
function erfcPositive(z: number): number {
  if (z === Infinity) return 0;
  return z < 2 ? 1 - erfSeries(z) : erfcContinuedFraction(z);
}

/**
 * Φ(x), the standard normal cumulative distribution: P(Z ≤ x). Relative error below 1e-13
 * over the whole line (the lower tail is computed directly, never as 1 − something).
 * ±Infinity → 0 / 1; NaN → NaN.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return 0.5 * erfcPositive(-x / SQRT2);
  return 1 - 0.5 * erfcPositive(x / SQRT2);
}

// Acklam's rational approximation of Φ⁻¹ (relative error 1.15e-9), then refined below.
const A = [
  -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2,
  -3.066479806614716e1, 2.506628277459239,
];
const B = [
  -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1,
  -1.328068155211027e1,
];
const C = [
  -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734,
  4.374664141464968, 2.938163982698783,
];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
const P_LOW = 0.02425;

function acklam(p: number): number {
  const [a0, a1, a2, a3, a4, a5] = A as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = B as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = C as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = D as [number, number, number, number];
  if (p < P_LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
    (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  );
}

/**
 * Φ⁻¹(p), the standard normal quantile: the x with P(Z ≤ x) = p. Acklam's algorithm
 * refined by Halley steps on normalCdf, to about 1e-14 relative. p ≤ 0 → −Infinity,
 * p ≥ 1 → Infinity, NaN → NaN. The upper half is computed by symmetry from 1 − p.
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p)) return NaN;
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  if (p > 0.5) return -normalQuantile(1 - p);
  let x = acklam(p);
  for (let i = 0; i < 2; i++) {
    const e = normalCdf(x) - p;
    const u = e * SQRT_2PI * Math.exp((x * x) / 2);
    x -= u / (1 + (x * u) / 2);
  }
  return x;
}
