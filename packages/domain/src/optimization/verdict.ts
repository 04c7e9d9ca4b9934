import { formatPercent } from '../format/numbers.ts';
/*
 * The plain verdict on an optimisation (docs/architecture.md "Optimisation rules (domain)"):
 * "likely overfit", "inconclusive" or "holds out of sample", with the reasons in a trader's
 * words, from the probability of backtest overfitting, the deflated Sharpe ratio, the
 * walk-forward efficiency and the number of trials.
 */

export const VERDICTS = ['likely overfit', 'inconclusive', 'holds out of sample'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * Where the verdict changes. Likely overfit: PBO above `overfitPbo` (the in-sample winner is
 * below the median out of sample more often than not), or DSR below `overfitDsr` (the best
 * Sharpe ratio is more likely luck than skill), or walk-forward efficiency at or below 0
 * (money made in sample, lost out of sample). Holds: PBO below `holdsPbo`, DSR above
 * `holdsDsr` (95 % confidence) and efficiency above `holdsEfficiency`, all three measured.
 * Anything else is inconclusive.
 */
export const VERDICT_THRESHOLDS = {
  overfitPbo: 0.5,
  overfitDsr: 0.5,
  holdsPbo: 0.2,
  holdsDsr: 0.95,
  holdsEfficiency: 0.5,
} as const;

export type VerdictInput = {
  /** Probability of backtest overfitting (0–1); null when it could not be computed. */
  pbo: number | null;
  /** Deflated Sharpe ratio of the best trial (0–1); null when it could not be computed. */
  deflatedSharpe: number | null;
  /** Walk-forward efficiency; null when not run or when the in-sample part made no money. */
  efficiency: number | null;
  /** Whether a walk-forward analysis was run. */
  walkForward: boolean;
  /** Trials that ran without error. */
  trials: number;
};

export type VerdictResult = { verdict: Verdict; reasons: string[] };

const percent = (value: number) => formatPercent(value, 'fraction', { decimals: 0 });
const fixed = (value: number) => value.toFixed(2);

/** The verdict and its reasons, one sentence per measure, in the order trials, PBO, DSR, walk-forward. */
export function overfittingVerdict(input: VerdictInput): VerdictResult {
  const t = VERDICT_THRESHOLDS;
  const { pbo, deflatedSharpe: dsr, efficiency, trials } = input;
  const reasons: string[] = [
    trials === 1
      ? 'Only 1 parameter combination ran, so there was no choice that could be overfit, and nothing to compare it with.'
      : `${trials} parameter combinations ran and the best one was chosen; the more you try, the more likely the best looks good by luck.`,
  ];

  if (pbo === null) {
    reasons.push(
      'There were too few trials or bars to test the choice on unseen parts of the history.',
    );
  } else if (pbo > t.overfitPbo) {
    reasons.push(
      `In ${percent(pbo)} of the ways to split the history in two, the combination that was best on one half did worse than the typical combination on the other half: its lead is mostly luck.`,
    );
  } else if (pbo < t.holdsPbo) {
    reasons.push(
      `In only ${percent(pbo)} of the ways to split the history in two did the combination that was best on one half fall below the typical one on the other half.`,
    );
  } else {
    reasons.push(
      `In ${percent(pbo)} of the ways to split the history in two, the combination that was best on one half fell below the typical one on the other half: not clear either way.`,
    );
  }

  if (dsr === null) {
    reasons.push(
      "The best trial's Sharpe ratio could not be tested against luck (its returns do not vary enough).",
    );
  } else if (dsr < t.overfitDsr) {
    reasons.push(
      `Allowing for the ${trials} combinations tried, the best Sharpe ratio is more likely luck than skill (deflated Sharpe ratio ${fixed(dsr)}).`,
    );
  } else if (dsr > t.holdsDsr) {
    reasons.push(
      `Even allowing for the ${trials} combinations tried, the best Sharpe ratio is very unlikely to be luck (deflated Sharpe ratio ${fixed(dsr)}).`,
    );
  } else {
    reasons.push(
      `Allowing for the ${trials} combinations tried, there is a ${percent(dsr)} chance that the best Sharpe ratio reflects a real edge; 95% is needed to trust it.`,
    );
  }

  if (!input.walkForward) {
    reasons.push(
      'No walk-forward test was run, so the chosen parameters never traded bars they were not chosen on.',
    );
  } else if (efficiency === null) {
    reasons.push(
      'In the walk-forward test the chosen parameters made no money in sample, so there was no pace to keep out of sample.',
    );
  } else if (efficiency <= 0) {
    reasons.push(
      `In the walk-forward test the chosen parameters lost money on the bars that followed, after making money on the bars they were chosen on (efficiency ${fixed(efficiency)}).`,
    );
  } else {
    const kept = `In the walk-forward test the chosen parameters kept ${percent(efficiency)} of their in-sample yearly return on the bars that followed`;
    reasons.push(
      efficiency > t.holdsEfficiency
        ? `${kept}.`
        : `${kept}; more than ${percent(t.holdsEfficiency)} is wanted.`,
    );
  }

  const overfit =
    (pbo !== null && pbo > t.overfitPbo) ||
    (dsr !== null && dsr < t.overfitDsr) ||
    (efficiency !== null && efficiency <= 0);
  const holds =
    pbo !== null &&
    pbo < t.holdsPbo &&
    dsr !== null &&
    dsr > t.holdsDsr &&
    efficiency !== null &&
    efficiency > t.holdsEfficiency;
  return {
    verdict: overfit ? 'likely overfit' : holds ? 'holds out of sample' : 'inconclusive',
    reasons,
  };
}
