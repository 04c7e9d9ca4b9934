import { z } from 'zod';

/*
 * Walk-forward analysis (docs/architecture.md "Optimisation rules (domain)"): the bars are
 * cut into folds in time; each fold's in-sample part chooses the parameters and the
 * out-of-sample part right after it tests them. The out-of-sample parts follow each other
 * without overlap and end at the last bar; each in-sample part ends on the bar before its
 * out-of-sample part, so choosing only ever sees the past.
 */

/** Most folds of a walk-forward analysis. */
export const MAX_WALK_FORWARD_FOLDS = 20;
/** Fewest bars of any in-sample or out-of-sample part. */
export const MIN_WALK_FORWARD_SEGMENT_BARS = 20;

/** The body's `walk_forward`. */
export const walkForwardSchema = z
  .object({
    folds: z
      .number({ error: 'folds must be a number' })
      .int('folds must be a whole number')
      .min(1, 'folds must be at least 1')
      .max(MAX_WALK_FORWARD_FOLDS, `folds must be at most ${MAX_WALK_FORWARD_FOLDS}`),
    in_sample_pct: z
      .number({ error: 'in_sample_pct must be a number' })
      .gt(0, 'in_sample_pct must be above 0 and below 100')
      .lt(100, 'in_sample_pct must be above 0 and below 100'),
    anchored: z.boolean({ error: 'anchored must be true or false' }).optional().default(false),
  })
  .strict();
export type WalkForwardSettings = z.infer<typeof walkForwardSchema>;

/** Bars `start` … `end` (indices into the run's bars, both inclusive). */
export type BarSpan = { start: number; end: number };

export type WalkForwardFold = { inSample: BarSpan; outOfSample: BarSpan };

/**
 * The folds over `barCount` bars. With k folds and in-sample share p (in_sample_pct / 100),
 * every out-of-sample part has L = ⌊barCount / (k + p / (1 − p))⌋ bars and together they
 * cover the last k × L bars; the first in-sample part is the I = barCount − k × L bars before
 * them (its share of the first fold is p, or a little more: it takes the remainder).
 * Rolling: fold i's in-sample part is the I bars right before its out-of-sample part (a
 * fixed window moving forward by L). Anchored: it starts at the first bar and grows.
 * Errors (prefixed `walk_forward`) when a part would have fewer than `minSegmentBars` bars.
 */
export function walkForwardFolds(
  barCount: number,
  settings: WalkForwardSettings,
  minSegmentBars = MIN_WALK_FORWARD_SEGMENT_BARS,
): { ok: true; folds: WalkForwardFold[] } | { ok: false; error: string } {
  const { folds, in_sample_pct: pct, anchored } = settings;
  const share = pct / 100;
  const outLength = Math.floor(barCount / (folds + share / (1 - share)));
  const inLength = barCount - folds * outLength;
  if (outLength < minSegmentBars || inLength < minSegmentBars) {
    return {
      ok: false,
      error: `walk_forward: ${barCount} bars are too few for ${folds} folds at ${pct}% in sample (each in-sample part would have ${inLength} bars and each out-of-sample part ${outLength}; at least ${minSegmentBars} each are needed). Use more bars, fewer folds or another in_sample_pct`,
    };
  }
  return {
    ok: true,
    folds: Array.from({ length: folds }, (_, i) => {
      const outStart = inLength + i * outLength;
      return {
        inSample: { start: anchored ? 0 : outStart - inLength, end: outStart - 1 },
        outOfSample: { start: outStart, end: outStart + outLength - 1 },
      };
    }),
  };
}

/** A part's result: its return (a fraction of the capital, 0.05 = 5 %) and its length in days. */
export type SegmentReturn = { return: number; days: number };

export type WalkForwardEfficiency = {
  /** Out-of-sample annual rate / in-sample annual rate; null when the in-sample rate is ≤ 0. */
  efficiency: number | null;
  /** Σ in-sample returns / Σ in-sample days × daysPerYear (a simple, not compounded, rate). */
  inSampleAnnual: number;
  outOfSampleAnnual: number;
};

/**
 * Walk-forward efficiency (Pardo): the annualised out-of-sample return over the annualised
 * in-sample return, both pooled over the folds as simple rates (Σ return / Σ days × days
 * per year). 1 means the chosen parameters kept their in-sample pace on unseen data, 0.5
 * half of it, below 0 that they lost money out of sample. When the in-sample rate is zero or
 * negative there was nothing to keep and the efficiency is null (a ratio of two losses
 * would read as a good score). Segments of zero or negative length are ignored.
 */
export function walkForwardEfficiency(
  folds: readonly { inSample: SegmentReturn; outOfSample: SegmentReturn }[],
  daysPerYear = 365,
): WalkForwardEfficiency {
  const annual = (segments: readonly SegmentReturn[]) => {
    const kept = segments.filter((segment) => segment.days > 0 && Number.isFinite(segment.return));
    const days = kept.reduce((sum, segment) => sum + segment.days, 0);
    return days > 0
      ? (kept.reduce((sum, segment) => sum + segment.return, 0) / days) * daysPerYear
      : 0;
  };
  const inSampleAnnual = annual(folds.map((fold) => fold.inSample));
  const outOfSampleAnnual = annual(folds.map((fold) => fold.outOfSample));
  return {
    efficiency: inSampleAnnual > 0 ? outOfSampleAnnual / inSampleAnnual : null,
    inSampleAnnual,
    outOfSampleAnnual,
  };
}
