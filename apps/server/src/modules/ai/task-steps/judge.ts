import {
  chooseLookaheadCuts,
  compareEntries,
  computeBacktest,
  lookaheadVerdict,
  tradesFrom,
  type AiSegmentResult,
  type Bar,
  type CutOutcome,
  type LookaheadResult,
} from '@ct/domain';
import type { CheckResult } from '../../backtest/service.ts';
import { span } from './report.ts';

/*
 * The judging step of an AI strategy task, after the final code ran on the whole period:
 * its figures on the bars the fix loop never saw, and the look-ahead check.
 */

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
