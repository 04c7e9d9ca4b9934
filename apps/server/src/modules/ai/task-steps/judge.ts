import {
  IN_SAMPLE_FRACTION,
  chooseLookaheadCuts,
  compareEntries,
  computeBacktest,
  lookaheadVerdict,
  tradesFrom,
  type AiBacktestResult,
  type AiSegmentResult,
  type Bar,
  type CutOutcome,
  type LookaheadResult,
} from '@ct/domain';
import type { CheckResult } from '../../backtest/service.ts';
import type { Failed, TaskData, TaskRun } from './deps.ts';
import { complete, say } from './record.ts';
import { span, summary } from './report.ts';
import { check } from './sandbox.ts';

/*
 * The judging step of an AI strategy task, once its code passed validation: the code run on
 * the whole period, its figures on the bars the fix loop never saw (out of sample) and the
 * look-ahead check; the task ends COMPLETED with that result, or the error is fed back.
 */

/** Judges the code on the whole period; the task COMPLETED, or an error to feed back. */
export async function judge(
  run: TaskRun,
  code: string,
  data: TaskData,
  inSampleResult: AiSegmentResult,
): Promise<{ ok: true } | Failed> {
  const { bars, period, split } = data;
  const { task, timing } = run;
  const full = await check(run, code, bars, period);
  if (!full.ok || full.trades.length === 0) {
    const error = full.ok
      ? 'The strategy made no trades on the whole data.'
      : `On the whole data (${bars.length} bars) the strategy failed: ${full.error}`;
    return { ok: false, error };
  }
  const outOfSample = outOfSampleOf(full, bars, split, task.symbolId, period);
  const lookahead = await lookaheadOf(full, bars, (cut) => check(run, code, cut, period));
  const result: AiBacktestResult & { timing: Record<string, number> } = {
    performance: full.performance,
    deals: full.deals,
    symbol: task.symbolId,
    period,
    bar_count: bars.length,
    in_sample_fraction: IN_SAMPLE_FRACTION,
    in_sample: inSampleResult,
    out_of_sample: outOfSample,
    lookahead,
    timing: {
      total_ms: Math.round(performance.now() - run.startedAt),
      model_ms: Math.round(timing.modelMs),
      sandbox_ms: Math.round(timing.sandboxMs),
      sandbox_runs: timing.sandboxRuns,
    },
  };
  await say(
    run,
    'ai',
    'backtest',
    `Whole period (${bars.length} bars): ${summary(full.performance)}. Out of sample (last ${outOfSample.bar_count} bars from ${outOfSample.from}): ${summary(outOfSample.performance)}.`,
    { segment: 'whole', out_of_sample: outOfSample, performance: full.performance },
  );
  await say(run, 'ai', 'validation', lookahead.detail, { check: 'lookahead', ...lookahead });
  await complete(run, code, result);
  return { ok: true };
}

/** A run of the code that kept the contract. */
export type FullRun = Extract<CheckResult, { ok: true }>;

/** The trades the full run opened from `split` on, figured on those bars alone. */
export function outOfSampleOf(
  full: FullRun,
  bars: readonly Bar[],
  split: number,
  symbol: string,
  period: string,
): AiSegmentResult {
  const outBars = bars.slice(split);
  const outTrades = tradesFrom(full.trades, split);
  const outPerformance =
    outTrades.length === 0
      ? null
      : computeBacktest({
          bars: outBars,
          trades: outTrades,
          symbol,
          period,
          conventions: full.conventions,
        }).performance;
  return {
    ...span(outBars),
    bar_count: outBars.length,
    trade_count: outTrades.length,
    performance: outPerformance,
  };
}

/** The look-ahead check: the code run again on cut data must not change earlier entries. */
export async function lookaheadOf(
  full: FullRun,
  bars: readonly Bar[],
  check: (bars: Bar[]) => Promise<CheckResult>,
): Promise<LookaheadResult> {
  const outcomes: CutOutcome[] = [];
  for (const keep of chooseLookaheadCuts(
    full.trades.map((t) => t.openIndex),
    bars.length,
  )) {
    const entries = full.trades.filter((t) => t.openIndex < keep).length;
    const cut = await check(bars.slice(0, keep));
    outcomes.push(
      cut.ok
        ? { keep, ok: true, entries, ...compareEntries(full.trades, cut.trades, keep) }
        : { keep, ok: false, entries, error: cut.error },
    );
  }
  return lookaheadVerdict(
    outcomes,
    bars.map((b) => b.time),
  );
}
