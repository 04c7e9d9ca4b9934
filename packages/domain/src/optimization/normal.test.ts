import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile } from './normal.ts';

// Reference values: scipy.stats.norm.cdf / norm.sf / norm.ppf (SciPy 1.17, double precision).
const CDF: [number, number, number][] = [
  [-8, 6.22096057427174e-16, 0.9999999999999993],
  [-5, 2.866515718791933e-7, 0.9999997133484281],
  [-3, 0.0013498980316300933, 0.9986501019683699],
  [-1.96, 0.024997895148220435, 0.9750021048517795],
  [-1, 0.15865525393145707, 0.8413447460685429],
  [-0.5, 0.3085375387259869, 0.6914624612740131],
  [0, 0.5, 0.5],
  [0.3, 0.6179114221889526, 0.3820885778110474],
  [1, 0.8413447460685429, 0.15865525393145707],
  [1.2838160365336546, 0.9003968344493903, 0.09960316555060966],
  [2.5, 0.9937903346742238, 0.006209665325776132],
  [4, 0.9999683287581669, 3.167124183311986e-5],
  [6, 0.9999999990134123, 9.865876450376946e-10],
];

const QUANTILE: [number, number][] = [
  [1e-12, -7.034483825301131],
  [1e-8, -5.612001244174789],
  [0.001, -3.090232306167813],
  [0.02425, -1.972961051311885],
  [0.025, -1.9599639845400545],
  [0.1, -1.2815515655446004],
  [0.5, 0],
  [0.9, 1.2815515655446004],
  [0.975, 1.959963984540054],
  [0.99, 2.3263478740408408],
  [0.9963212055882856, 2.6802104449668875],
  [0.999999, 4.753424308817087],
];

describe('normalCdf', () => {
  it.each(CDF)('Φ(%d) matches the reference to 1e-12 relative, in both tails', (x, cdf, sf) => {
    expect(Math.abs(normalCdf(x) - cdf)).toBeLessThanOrEqual(1e-12 * cdf);
    // The upper tail through symmetry keeps its relative precision.
    expect(Math.abs(normalCdf(-x) - sf)).toBeLessThanOrEqual(1e-12 * sf);
  });

  it('handles infinities and NaN', () => {
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(NaN)).toBeNaN();
  });
});

describe('normalQuantile', () => {
  it.each(QUANTILE)('Φ⁻¹(%d) matches the reference to 1e-12', (p, x) => {
    expect(Math.abs(normalQuantile(p) - x)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(x)));
  });

  it('inverts normalCdf across the lower half (where Φ keeps its precision)', () => {
    for (let x = -9; x <= 0; x += 0.37) {
      expect(normalQuantile(normalCdf(x))).toBeCloseTo(x, 10);
    }
  });

  it('gives infinities at the ends and NaN for NaN', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(-0.1)).toBe(-Infinity);
    expect(normalQuantile(NaN)).toBeNaN();
  });
});
