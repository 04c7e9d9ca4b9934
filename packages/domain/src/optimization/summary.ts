import { formatContractDate } from '../backtest/dates.ts';
import { MAX_EQUITY_POINTS } from '../backtest/metrics.ts';
import { stitchEquity, stitchedPerformance, type TrialPerformance } from './api.ts';
import { deflatedSharpeFromReturns, probabilityOfBacktestOverfitting } from './overfitting.ts';
import { overfittingVerdict } from './verdict.ts';
import {
  walkForwardEfficiency,
  walkForwardFolds,
  type WalkForwardSettings,
} from './walkForward.ts';

/*
 * An optimisation's summary from its kept trials (the server writes it when the last trial is
 * kept): the best main trial, the walk-forward folds and stitched out-of-sample curve, and the
 * overfitting figures (PBO over the main trials' per-bar returns, the deflated Sharpe ratio of
 * the best). Pure: the server computes it off its event loop (a body worker).
 */

/** A kept trial as the summary reads it. */
export type SummaryTrial = {
  stage: string;
  index: number;
  params: unknown;
  status: string;
  performance: TrialPerformance | null;
  score: number | null;
  /** Per-bar returns of its equity curve. */
  returns: readonly number[];
  detail: unknown;
  error: string | null;
};

export type SummaryInput = {
  walkForward: WalkForwardSettings | null;
  /** Start times (UTC ms) of the optimisation's bars. */
  barTimes: readonly number[];
  /** Every trial of the optimisation, by stage then index. */
  trials: readonly SummaryTrial[];
};

type OosDetail = {
  initial_capital?: number;
  equity: [string, number][];
  profits: number[];
  bars_per_year?: number | null;
};

/** Best first: highest score (none last), then lowest index. */
function byScore(a: SummaryTrial, b: SummaryTrial): number {
  return (
    (b.score === null ? -Infinity : b.score) - (a.score === null ? -Infinity : a.score) ||
    a.index - b.index
  );
}

export function optimizationSummary({ walkForward: settings, barTimes, trials }: SummaryInput) {
  const main = trials.filter((t) => t.stage === 'main' && t.status === 'done');
  const best = [...main].sort(byScore)[0] ?? null;
  let walkForward: Record<string, unknown> | null = null;
  let efficiency: number | null = null;
  if (settings) {
    const folds = walkForwardFolds(barTimes.length, settings);
    const date = (i: number) => formatContractDate(barTimes[i] ?? 0);
    const days = (span: { start: number; end: number }) =>
      ((barTimes[span.end] ?? 0) - (barTimes[span.start] ?? 0)) / 86_400_000;
    const parts: {
      fold: Record<string, unknown>;
      inSample: { return: number; days: number };
      outOfSample: { return: number; days: number };
      oos: SummaryTrial | undefined;
    }[] = [];
    for (const [i, fold] of (folds.ok ? folds.folds : []).entries()) {
      const isBest = trials
        .filter((t) => t.stage === `is:${i}` && t.status === 'done')
        .sort(byScore)[0];
      const oos = trials.find((t) => t.stage === `oos:${i}`);
      const capital = Number((oos?.detail as OosDetail | null)?.initial_capital ?? 1_000_000);
      const isPerf = isBest?.performance ?? null;
      const oosPerf = oos?.status === 'done' ? oos.performance : null;
      parts.push({
        fold: {
          in_sample: {
            from: date(fold.inSample.start),
            to: date(fold.inSample.end),
            performance: isPerf,
          },
          out_of_sample: {
            from: date(fold.outOfSample.start),
            to: date(fold.outOfSample.end),
            performance: oosPerf,
          },
          params: oos?.params ?? isBest?.params ?? null,
          ...(oos?.status === 'failed' ? { error: oos.error ?? 'failed' } : {}),
        },
        inSample: { return: (isPerf?.net_profit ?? 0) / capital, days: days(fold.inSample) },
        outOfSample: { return: (oosPerf?.net_profit ?? 0) / capital, days: days(fold.outOfSample) },
        oos,
      });
    }
    const done = parts.filter((p) => p.oos?.status === 'done');
    const detailOf = (p: (typeof parts)[number] | undefined) =>
      p?.oos?.detail as OosDetail | undefined;
    const capital = Number(detailOf(done[0])?.initial_capital ?? 1_000_000);
    const equity = stitchEquity(
      done.map((p) => (detailOf(p) as OosDetail).equity),
      capital,
    );
    const stitched = stitchedPerformance({
      equity,
      profits: done.flatMap((p) => (detailOf(p) as OosDetail).profits),
      returns: done.flatMap((p) => [...(p.oos?.returns ?? [])]),
      initialCapital: capital,
      barsPerYear: Number(detailOf(done[0])?.bars_per_year ?? 0),
    });
    efficiency = walkForwardEfficiency(parts).efficiency;
    // the best parameters of all bars (chosen in sample, with hindsight) over the same
    // window, from the capital: what the stitched curve is compared with
    const window = folds.ok ? folds.folds : [];
    const first = window[0]?.outOfSample.start ?? 0;
    const last = window.at(-1)?.outOfSample.end ?? -1;
    const bestReturns = best ? best.returns : [];
    const inSampleEquity: [string, number][] = [];
    let value = capital;
    for (let i = first; i <= last && best; i++) {
      if (i > first) value *= 1 + (bestReturns[i - 1] ?? 0);
      inSampleEquity.push([date(i), Math.round(value * 100) / 100]);
    }
    const step = Math.max(1, Math.ceil(inSampleEquity.length / MAX_EQUITY_POINTS));
    walkForward = {
      folds: parts.map((p) => p.fold),
      stitched: { performance: stitched, equity },
      in_sample: {
        params: best?.params ?? null,
        equity: inSampleEquity.filter((_, i) => i % step === 0 || i === inSampleEquity.length - 1),
      },
      efficiency,
    };
  }
  // overfitting over the main trials' per-period returns
  const series = main.map((t) => t.returns);
  const chosen = best ? main.indexOf(best) : -1;
  const pbo = series.length >= 2 ? probabilityOfBacktestOverfitting(series) : null;
  const dsr = chosen >= 0 ? deflatedSharpeFromReturns(series, chosen) : null;
  const verdict = overfittingVerdict({
    pbo: pbo?.ok ? pbo.result.pbo : null,
    deflatedSharpe: dsr?.value ?? null,
    efficiency,
    walkForward: settings !== null,
    trials: main.length,
  });
  return {
    best: best ? { params: best.params, performance: best.performance } : null,
    walk_forward: walkForward,
    overfitting: {
      pbo: pbo?.ok
        ? {
            value: pbo.result.pbo,
            partitions: pbo.result.partitions,
            combinations: pbo.result.combinations,
            trials: pbo.result.trials,
            observations: pbo.result.observations,
          }
        : null,
      deflated_sharpe: dsr
        ? {
            value: dsr.value,
            sharpe: dsr.sharpe,
            expected_max_sharpe: dsr.expectedMaxSharpe,
            sharpe_variance: dsr.sharpeVariance,
            trials: dsr.trials,
            observations: dsr.observations,
            skewness: dsr.skewness,
            kurtosis: dsr.kurtosis,
          }
        : null,
      trials: main.length,
      verdict: verdict.verdict,
      reasons: verdict.reasons,
    },
  };
}

export type TrialsSummary = ReturnType<typeof optimizationSummary>;
