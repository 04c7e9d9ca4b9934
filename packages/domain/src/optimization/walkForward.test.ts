import { describe, expect, it } from 'vitest';
import { describeIssues } from '../api/envelope.ts';
import {
  walkForwardEfficiency,
  walkForwardFolds,
  walkForwardSchema,
  type WalkForwardFold,
  type WalkForwardSettings,
} from './walkForward.ts';

function folds(barCount: number, settings: Partial<WalkForwardSettings>): WalkForwardFold[] {
  const result = walkForwardFolds(barCount, {
    folds: 4,
    in_sample_pct: 75,
    anchored: false,
    ...settings,
  });
  if (!result.ok) throw new Error(result.error);
  return result.folds;
}

/** The properties every layout must have, checked bar by bar. */
function expectSound(all: WalkForwardFold[], barCount: number) {
  all.forEach((fold, i) => {
    // In sample strictly before out of sample, touching it.
    expect(fold.inSample.end).toBe(fold.outOfSample.start - 1);
    expect(fold.inSample.start).toBeGreaterThanOrEqual(0);
    // Out-of-sample parts consecutive and non-overlapping.
    if (i > 0) expect(fold.outOfSample.start).toBe(all[i - 1]!.outOfSample.end + 1);
  });
  expect(all.at(-1)!.outOfSample.end).toBe(barCount - 1);
}

describe('walkForwardFolds', () => {
  it('rolls a fixed window forward', () => {
    const result = folds(1000, { folds: 4, in_sample_pct: 75 });
    // L = ⌊1000 / (4 + 3)⌋ = 142, I = 1000 − 4 × 142 = 432.
    expect(result).toEqual([
      { inSample: { start: 0, end: 431 }, outOfSample: { start: 432, end: 573 } },
      { inSample: { start: 142, end: 573 }, outOfSample: { start: 574, end: 715 } },
      { inSample: { start: 284, end: 715 }, outOfSample: { start: 716, end: 857 } },
      { inSample: { start: 426, end: 857 }, outOfSample: { start: 858, end: 999 } },
    ]);
    expectSound(result, 1000);
  });

  it('anchors every in-sample part at the first bar', () => {
    const result = folds(2148, { folds: 5, in_sample_pct: 70, anchored: true });
    expect(result.map((f) => f.inSample.start)).toEqual([0, 0, 0, 0, 0]);
    expect(result[0]!.inSample.end + 1).toBeGreaterThanOrEqual(
      0.7 * (result[0]!.outOfSample.end + 1) - 1,
    );
    expectSound(result, 2148);
  });

  it('keeps the layout sound for many shapes', () => {
    for (const barCount of [200, 333, 1001, 5000]) {
      for (const count of [1, 2, 3, 7]) {
        for (const pct of [50, 66.7, 80]) {
          for (const anchored of [false, true]) {
            const result = walkForwardFolds(barCount, {
              folds: count,
              in_sample_pct: pct,
              anchored,
            });
            if (result.ok) expectSound(result.folds, barCount);
          }
        }
      }
    }
  });

  it('refuses too few bars with the sizes it would have made', () => {
    expect(walkForwardFolds(100, { folds: 10, in_sample_pct: 50, anchored: false })).toEqual({
      ok: false,
      error:
        'walk_forward: 100 bars are too few for 10 folds at 50% in sample (each in-sample part would have 10 bars and each out-of-sample part 9; at least 20 each are needed). Use more bars, fewer folds or another in_sample_pct',
    });
  });
});

describe('walkForwardSchema', () => {
  it.each([
    [{ folds: 0, in_sample_pct: 70 }, 'walk_forward.folds: folds must be at least 1'],
    [{ folds: 21, in_sample_pct: 70 }, 'walk_forward.folds: folds must be at most 20'],
    [{ folds: 2.5, in_sample_pct: 70 }, 'walk_forward.folds: folds must be a whole number'],
    [
      { folds: 3, in_sample_pct: 100 },
      'walk_forward.in_sample_pct: in_sample_pct must be above 0 and below 100',
    ],
    [
      { folds: 3, in_sample_pct: 0 },
      'walk_forward.in_sample_pct: in_sample_pct must be above 0 and below 100',
    ],
    [
      { folds: 3, in_sample_pct: 70, anchored: 'yes' },
      'walk_forward.anchored: anchored must be true or false',
    ],
  ])('refuses %j', (body, message) => {
    const result = walkForwardSchema.safeParse(body);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(
        describeIssues(
          result.error.issues.map((i) => ({ ...i, path: ['walk_forward', ...i.path] })),
        ),
      ).toBe(message);
    }
  });

  it('defaults to rolling', () => {
    expect(walkForwardSchema.parse({ folds: 3, in_sample_pct: 70 })).toEqual({
      folds: 3,
      in_sample_pct: 70,
      anchored: false,
    });
  });
});

describe('walkForwardEfficiency', () => {
  it('divides the pooled annual rates', () => {
    const result = walkForwardEfficiency([
      { inSample: { return: 0.2, days: 365 }, outOfSample: { return: 0.05, days: 73 } },
      { inSample: { return: 0.1, days: 365 }, outOfSample: { return: 0.01, days: 73 } },
    ]);
    // In sample 0.3 over 730 days = 15% a year; out of sample 0.06 over 146 days = 15% a year.
    expect(result.inSampleAnnual).toBeCloseTo(0.15, 12);
    expect(result.outOfSampleAnnual).toBeCloseTo(0.15, 12);
    expect(result.efficiency).toBeCloseTo(1, 12);
  });

  it('goes negative when out of sample loses, and is null without an in-sample gain', () => {
    expect(
      walkForwardEfficiency([
        { inSample: { return: 0.1, days: 100 }, outOfSample: { return: -0.02, days: 40 } },
      ]).efficiency,
    ).toBeCloseTo(-0.5, 12);
    expect(
      walkForwardEfficiency([
        { inSample: { return: -0.1, days: 100 }, outOfSample: { return: -0.2, days: 40 } },
      ]).efficiency,
    ).toBeNull();
    expect(
      walkForwardEfficiency([
        { inSample: { return: 0, days: 100 }, outOfSample: { return: 0.2, days: 40 } },
      ]).efficiency,
    ).toBeNull();
  });
});
