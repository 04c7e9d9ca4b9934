import { normalCdf, normalQuantile } from './normal.ts';

/*
 * Is the best trial an edge or a fit to noise? (docs/architecture.md "Optimisation rules
 * (domain)").
 *
 * - PBO: the probability of backtest overfitting by combinatorially symmetric
 *   cross-validation, Bailey, Borwein, López de Prado & Zhu (2014/2017), "The Probability
 *   of Backtest Overfitting", J. Computational Finance 20(4).
 * - DSR: the deflated Sharpe ratio, Bailey & López de Prado (2014), "The Deflated Sharpe
 *   Ratio: Correcting for Selection Bias, Backtest Overfitting and Non-Normality", J.
 *   Portfolio Management 40(5).
 *
 * Inputs are per-period returns (one series per trial, the same periods for all: e.g. each
 * bar's change of the trial's equity as a fraction of the equity before it). Sharpe ratios
 * here are per period, never annualised: mean / sample standard deviation.
 */

/** The Euler–Mascheroni constant γ. */
export const EULER_MASCHERONI = 0.5772156649015329;
/** Default number of CSCV partitions S (the paper's choice). */
export const DEFAULT_PBO_PARTITIONS = 16;
/** Largest S accepted: C(16, 8) = 12,870 splits. */
export const MAX_PBO_PARTITIONS = 16;

/** Moments of a return series. */
export type ReturnMoments = {
  count: number;
  mean: number;
  /** Sample standard deviation (n − 1). */
  std: number;
  /** Skewness γ₃ = m₃ / m₂^1.5 (population moments, as in the DSR paper). */
  skewness: number;
  /** Kurtosis γ₄ = m₄ / m₂² (not excess: 3 for a normal distribution). */
  kurtosis: number;
};

/** Mean, sample standard deviation, skewness and (non-excess) kurtosis of `returns` (two passes). */
export function returnMoments(returns: readonly number[]): ReturnMoments {
  const count = returns.length;
  const mean = returns.reduce((sum, r) => sum + r, 0) / count;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (const r of returns) {
    const d = r - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  const std = count > 1 ? Math.sqrt(m2 / (count - 1)) : 0;
  m2 /= count;
  m3 /= count;
  m4 /= count;
  return {
    count,
    mean,
    std,
    skewness: m2 > 0 ? m3 / m2 ** 1.5 : 0,
    kurtosis: m2 > 0 ? m4 / (m2 * m2) : 3,
  };
}

/**
 * Per-period Sharpe ratio of `returns`: mean / sample standard deviation (risk-free 0).
 * null with fewer than 2 returns or when they do not vary.
 */
export function periodSharpe(returns: readonly number[]): number | null {
  if (returns.length < 2) return null;
  const { mean, std } = returnMoments(returns);
  return std > 0 ? mean / std : null;
}

/**
 * Expected maximum of N Sharpe ratios drawn from a normal with mean `mean` and variance
 * `variance` (DSR paper, eq. for SR₀): mean + √V · ((1 − γ) Φ⁻¹(1 − 1/N) + γ Φ⁻¹(1 − 1/(N e))).
 * N ≤ 1 → mean (one trial has no selection to correct for).
 */
export function expectedMaxSharpe(trials: number, variance: number, mean = 0): number {
  if (trials <= 1) return mean;
  const g = EULER_MASCHERONI;
  return (
    mean +
    Math.sqrt(Math.max(0, variance)) *
      ((1 - g) * normalQuantile(1 - 1 / trials) + g * normalQuantile(1 - 1 / (trials * Math.E)))
  );
}

export type SharpeTest = {
  /** Observed per-period Sharpe ratio. */
  sharpe: number;
  /** Benchmark per-period Sharpe ratio SR*. */
  benchmark: number;
  /** Number of returns T. */
  observations: number;
  skewness: number;
  /** Non-excess kurtosis (3 for normal returns). */
  kurtosis: number;
};

/**
 * Probabilistic Sharpe ratio (Bailey & López de Prado 2012): the probability that the true
 * Sharpe ratio exceeds `benchmark`, Φ((SR − SR*) √(T − 1) / √(1 − γ₃ SR + (γ₄ − 1)/4 SR²)).
 * null when T < 2 or the variance term is not positive (extreme skew with a large SR).
 */
export function probabilisticSharpe(test: SharpeTest): number | null {
  const { sharpe, benchmark, observations, skewness, kurtosis } = test;
  const variance = 1 - skewness * sharpe + ((kurtosis - 1) / 4) * sharpe * sharpe;
  if (observations < 2 || !(variance > 0)) return null;
  return normalCdf(((sharpe - benchmark) * Math.sqrt(observations - 1)) / Math.sqrt(variance));
}

export type DeflatedSharpe = {
  /** DSR: the probability that the best trial's true Sharpe exceeds what luck would give. */
  value: number;
  /** Per-period Sharpe ratio of the chosen trial. */
  sharpe: number;
  /** SR₀: the expected maximum per-period Sharpe of `trials` trials without skill. */
  expectedMaxSharpe: number;
  /** Variance of the trials' per-period Sharpe ratios. */
  sharpeVariance: number;
  trials: number;
  observations: number;
  skewness: number;
  kurtosis: number;
};

export type DeflatedSharpeInput = Omit<DeflatedSharpe, 'value' | 'expectedMaxSharpe'>;

/**
 * The deflated Sharpe ratio: the probabilistic Sharpe ratio of the chosen trial against
 * SR₀ = expectedMaxSharpe(trials, sharpeVariance), all per period. null when the PSR is
 * undefined (see probabilisticSharpe).
 */
export function deflatedSharpe(input: DeflatedSharpeInput): DeflatedSharpe | null {
  const benchmark = expectedMaxSharpe(input.trials, input.sharpeVariance);
  const value = probabilisticSharpe({ ...input, benchmark });
  return value === null ? null : { ...input, value, expectedMaxSharpe: benchmark };
}

function sampleVariance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1);
}

/**
 * The deflated Sharpe ratio from the trials' per-period returns: the chosen trial is
 * `chosen` (the optimisation's best by its objective) or, when omitted, the one with the
 * highest Sharpe ratio; V[SR] is the sample variance of the trials' Sharpe ratios (trials
 * whose returns do not vary are left out of it); N counts every trial. null when the chosen
 * trial's returns do not vary or its PSR is undefined.
 */
export function deflatedSharpeFromReturns(
  trialReturns: readonly (readonly number[])[],
  chosen?: number,
): DeflatedSharpe | null {
  const sharpes = trialReturns.map((returns) => periodSharpe(returns));
  let best = chosen ?? -1;
  if (chosen === undefined) {
    sharpes.forEach((sharpe, i) => {
      if (sharpe !== null && (best < 0 || sharpe > (sharpes[best] as number))) best = i;
    });
  }
  const sharpe = sharpes[best];
  if (sharpe === null || sharpe === undefined) return null;
  const moments = returnMoments(trialReturns[best] as readonly number[]);
  return deflatedSharpe({
    sharpe,
    sharpeVariance: sampleVariance(sharpes.filter((s): s is number => s !== null)),
    trials: trialReturns.length,
    observations: moments.count,
    skewness: moments.skewness,
    kurtosis: moments.kurtosis,
  });
}

export type PboResult = {
  /** Share of the splits whose in-sample best trial ranks at or below the median out of sample. */
  pbo: number;
  /** S, the number of equal blocks the periods were cut into. */
  partitions: number;
  /** C(S, S/2), the number of in-sample / out-of-sample splits. */
  combinations: number;
  trials: number;
  /** Periods used: T minus the T mod S oldest ones. */
  observations: number;
  /** λ of each split, in split order: ln(ω / (1 − ω)), ω = out-of-sample rank / (N + 1). */
  logits: number[];
};

/** Sharpe ratio for ranking: ±Infinity when returns do not vary but drift, 0 when flat. */
function rankingSharpe(mean: number, variance: number): number {
  if (variance > 0) return mean / Math.sqrt(variance);
  return mean > 0 ? Infinity : mean < 0 ? -Infinity : 0;
}

/**
 * For each subset of the `count` blocks from `first` (as a bit mask) and each trial, the sum
 * of the trial's `values` (laid out trial by trial, `partitions` blocks each) over the
 * subset's blocks: `[subset * trials + trial]`.
 */
function subsetSums(
  values: Float64Array,
  trials: number,
  partitions: number,
  first: number,
  count: number,
): Float64Array {
  const out = new Float64Array((1 << count) * trials);
  for (let subset = 1; subset < 1 << count; subset++) {
    const lowest = 31 - Math.clz32(subset & -subset);
    const rest = (subset & (subset - 1)) * trials;
    for (let n = 0; n < trials; n++) {
      out[subset * trials + n] =
        (out[rest + n] as number) + (values[n * partitions + first + lowest] as number);
    }
  }
  return out;
}

/**
 * Each half-set's (`masks`) Sharpe ratio per trial, `[set * trials + trial]`, from the sums
 * and sums of squares over its blocks among the lower `low` and among the upper ones
 * (`subsetSums`), returns centred on `centres`, `k` periods per half.
 */
function setSharpes(
  masks: readonly number[],
  trials: number,
  low: number,
  k: number,
  centres: readonly number[],
  [lowSums, lowSquares, highSums, highSquares]: readonly Float64Array[],
): Float64Array {
  const lowAll = (1 << low) - 1;
  const sharpes = new Float64Array(masks.length * trials);
  for (let set = 0; set < masks.length; set++) {
    const mask = masks[set] as number;
    const lo = (mask & lowAll) * trials;
    const hi = (mask >> low) * trials;
    for (let n = 0; n < trials; n++) {
      const s1 = (lowSums![lo + n] as number) + (highSums![hi + n] as number);
      const s2 = (lowSquares![lo + n] as number) + (highSquares![hi + n] as number);
      sharpes[set * trials + n] = rankingSharpe(
        (centres[n] as number) + s1 / k,
        (s2 - (s1 * s1) / k) / (k - 1),
      );
    }
  }
  return sharpes;
}

/**
 * The probability of backtest overfitting by CSCV. `trialReturns` holds N ≥ 2 series of the
 * same T per-period returns (the T × N matrix by columns). The oldest T mod S periods are
 * dropped and the rest cut into S equal blocks in time order; for each of the C(S, S/2)
 * ways to choose half the blocks as in-sample (the rest out-of-sample), the trial with the
 * best in-sample Sharpe ratio (the first on a tie) is ranked out of sample: rank = how many
 * trials do no better than it there (so a tie counts in its favour; identical trials never
 * look overfit), ω = rank / (N + 1), λ = logit ω. PBO = share of λ ≤ 0.
 *
 * `partitions` (S, even, 2 … 16) defaults to 16, lowered to the largest even S leaving at
 * least 2 periods per block when T is short. Errors for fewer than 2 trials, unequal lengths,
 * non-finite returns or fewer than 4 periods.
 */
export function probabilityOfBacktestOverfitting(
  trialReturns: readonly (readonly number[])[],
  options: { partitions?: number } = {},
): { ok: true; result: PboResult } | { ok: false; error: string } {
  const trials = trialReturns.length;
  if (trials < 2) return { ok: false, error: 'PBO needs at least 2 trials' };
  const total = (trialReturns[0] as readonly number[]).length;
  if (trialReturns.some((returns) => returns.length !== total)) {
    return { ok: false, error: 'PBO needs the same periods for every trial' };
  }
  if (trialReturns.some((returns) => returns.some((r) => !Number.isFinite(r)))) {
    return { ok: false, error: 'PBO needs finite returns' };
  }
  if (total < 4) return { ok: false, error: 'PBO needs at least 4 periods' };
  let partitions = options.partitions ?? DEFAULT_PBO_PARTITIONS;
  if (
    !Number.isInteger(partitions) ||
    partitions < 2 ||
    partitions > MAX_PBO_PARTITIONS ||
    partitions % 2 !== 0
  ) {
    return {
      ok: false,
      error: `partitions must be an even number from 2 to ${MAX_PBO_PARTITIONS}`,
    };
  }
  if (options.partitions === undefined) {
    while (partitions > 2 && Math.floor(total / partitions) < 2) partitions -= 2;
  } else if (Math.floor(total / partitions) < 2) {
    return {
      ok: false,
      error: `PBO with ${partitions} partitions needs at least ${2 * partitions} periods`,
    };
  }
  const blockSize = Math.floor(total / partitions);
  const offset = total - blockSize * partitions;

  // Per trial n and block s: the sum and the sum of squares of the trial's returns minus
  // its overall mean (centring keeps S2 − S1²/k free of cancellation).
  const sums = new Float64Array(trials * partitions);
  const squares = new Float64Array(trials * partitions);
  const centres = trialReturns.map((returns) => {
    let sum = 0;
    for (let t = offset; t < total; t++) sum += returns[t] as number;
    return sum / (total - offset);
  });
  for (let n = 0; n < trials; n++) {
    const returns = trialReturns[n] as readonly number[];
    const centre = centres[n] as number;
    for (let s = 0; s < partitions; s++) {
      let s1 = 0;
      let s2 = 0;
      for (let t = offset + s * blockSize; t < offset + (s + 1) * blockSize; t++) {
        const d = (returns[t] as number) - centre;
        s1 += d;
        s2 += d * d;
      }
      sums[n * partitions + s] = s1;
      squares[n * partitions + s] = s2;
    }
  }
  const half = partitions / 2;
  const k = half * blockSize;
  // The half-sets of blocks in increasing mask order, and each one's Sharpe ratio per trial,
  // computed once: a split's in-sample half is its mask's set, its out-of-sample half the
  // complement's, so every set serves as both. A set's sums are those of its blocks among
  // the lower `low` blocks plus those among the upper ones, each summed once per subset.
  const full = (1 << partitions) - 1;
  const setOf = new Int32Array(1 << partitions).fill(-1);
  const masks: number[] = [];
  for (let mask = 0; mask <= full; mask++) {
    let bits = 0;
    for (let m = mask; m > 0; m >>= 1) bits += m & 1;
    if (bits !== half) continue;
    setOf[mask] = masks.length;
    masks.push(mask);
  }
  const low = partitions >> 1;
  const lowSums = subsetSums(sums, trials, partitions, 0, low);
  const lowSquares = subsetSums(squares, trials, partitions, 0, low);
  const highSums = subsetSums(sums, trials, partitions, low, partitions - low);
  const highSquares = subsetSums(squares, trials, partitions, low, partitions - low);
  const sharpes = setSharpes(masks, trials, low, k, centres, [
    lowSums,
    lowSquares,
    highSums,
    highSquares,
  ]);
  const logits: number[] = [];
  let overfit = 0;
  for (const mask of masks) {
    const inAt = (setOf[mask] as number) * trials;
    const outAt = (setOf[full & ~mask] as number) * trials;
    let chosen = 0;
    let chosenIn = -Infinity;
    for (let n = 0; n < trials; n++) {
      const inSample = sharpes[inAt + n] as number;
      if (n === 0 || inSample > chosenIn) {
        chosen = n;
        chosenIn = inSample;
      }
    }
    const chosenOut = sharpes[outAt + chosen] as number;
    let rank = 0;
    for (let n = 0; n < trials; n++) if ((sharpes[outAt + n] as number) <= chosenOut) rank++;
    const omega = rank / (trials + 1);
    logits.push(Math.log(omega / (1 - omega)));
    if (2 * rank <= trials + 1) overfit++;
  }
  return {
    ok: true,
    result: {
      pbo: overfit / logits.length,
      partitions,
      combinations: logits.length,
      trials,
      observations: blockSize * partitions,
      logits,
    },
  };
}
