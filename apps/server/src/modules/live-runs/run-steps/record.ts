import { LIVE_RUN_CREATED, liveRunTransition, type Bar } from '@ct/domain';
import { publishAccountEvent } from '../../trading/events.ts';
import { judgeEvaluation, type Followed } from '../evaluation.ts';
import { recordEvaluation } from '../store.ts';
import {
  LIVE_LOG_PREFIX,
  type ClosedBar,
  type HeldRun,
  type LiveRunnerOptions,
  type Say,
} from './deps.ts';

/*
 * The record step: the evaluation judged (`evaluation.ts`), written while the run is held
 * here (the run stops, FAILED, when the failures in a row reach its bound), then told to the
 * account's pages, the user (failures) and the benchmark.
 */

/** What the record step needs of the runner: its name, and letting a run go. */
export type Holder = {
  owner: string;
  /** The run is no longer held here: its job handler ends. */
  forget: (run: HeldRun) => void;
};

/** Writes the evaluation while the run is held here, then tells the account's pages. */
export async function record(
  options: LiveRunnerOptions,
  holder: Holder,
  run: HeldRun,
  closed: ClosedBar,
  bar: Bar,
  printed: string[],
  followed: Followed,
  say: Say,
): Promise<void> {
  const { db, settings, now } = options;
  const row = run.row;
  const { error, orders, fillsAt } = followed;
  const { failed, failures, failWith, view } = judgeEvaluation(
    row,
    closed,
    bar,
    printed,
    followed,
    now(),
  );
  const atMs = closed.closeMs;
  const written = await recordEvaluation(db, {
    runId: row.id,
    owner: holder.owner,
    view,
    barTimeMs: bar.time,
    atMs,
    ordersSent: orders.length,
    failed,
    failWith,
    keep: settings.keepEvaluations,
  });
  if (!written) {
    // stopped meanwhile, or another runner holds it now
    holder.forget(run);
    return;
  }
  run.row = {
    ...row,
    lastBarTime: bar.time,
    lastEvaluationAt: atMs,
    consecutiveFailures: failures,
    evaluations: row.evaluations + 1,
    orders: row.orders + orders.length,
  };
  if (failed) void options.onFailed?.(row, bar.time, error, failWith);
  if (failWith !== null) {
    say(`${LIVE_LOG_PREFIX} ${failWith}`);
    holder.forget(run);
  }
  // the account's pages hear of it after the commit, like of the orders it sent
  publishAccountEvent(options.trading, {
    type: 'live_run_evaluated',
    uuid: row.traderUuid,
    symbol: row.symbol,
    at: atMs,
    runId: row.id,
    // the evaluation was stored, so the run was running
    status: liveRunTransition(LIVE_RUN_CREATED, failWith === null ? 'Evaluated' : 'Failed'),
    failed,
    evaluations: run.row.evaluations,
    orders: run.row.orders,
  });
  options.onEvaluated?.({ runId: row.id, closeMs: atMs, fillsAt, view });
}
