import {
  toEpochSec,
  formatContractDate,
  type Bar,
  type LiveRunEvaluationView,
  type LiveRunOrderView,
  type WantedPosition,
} from '@ct/domain';
import type { LiveRunRow } from '../../db/schema.ts';

/*
 * The last step of an evaluation, pure: what the strategy wanted and the orders it sent
 * become the evaluation as it is stored and shown, with the run's failure count and the
 * reason it stops, if it does.
 */

/** What following the strategy gave: the positions wanted, the orders sent and why it failed. */
export type Followed = {
  error: string | null;
  wanted: WantedPosition[];
  orders: LiveRunOrderView[];
  /** When each order filled (UTC ms, the trading clock). */
  fillsAt: number[];
};

/** An evaluation judged: failed or not, the failures in a row, and why the run stops (or null). */
export type Judged = {
  failed: boolean;
  failures: number;
  failWith: string | null;
  view: LiveRunEvaluationView;
};

/** The line the runner sends on the log socket for an order it sent. */
export function orderLine(prefix: string, order: LiveRunOrderView): string {
  return `${prefix} ${order.action === 'open' ? 'Open' : 'Close'} ${order.cmd === 1 ? 'buy' : 'sell'} ${order.volume}: ${
    order.status === 'filled' ? `filled at ${order.price}` : `refused: ${order.message}`
  }`;
}

/** The evaluation of `bar` (closed at `closeMs`) as stored, at `nowMs`. */
export function judgeEvaluation(
  row: LiveRunRow,
  closed: { bars: Bar[]; closeMs: number },
  bar: Bar,
  printed: string[],
  followed: Followed,
  nowMs: number,
): Judged {
  const { error, wanted, orders } = followed;
  const failed = error !== null;
  const failures = failed ? row.consecutiveFailures + 1 : 0;
  const failWith =
    failed && failures >= row.maxFailures
      ? `Stopped after ${failures} consecutive failures: ${error}`
      : null;
  const atMs = closed.closeMs;
  const view: LiveRunEvaluationView = {
    at: toEpochSec(atMs),
    bar_time: toEpochSec(bar.time),
    bars: closed.bars.length,
    wanted: wanted.map((w) => ({
      lots: w.lots,
      open_date: formatContractDate(w.openTime),
      open_price: w.openPrice,
    })),
    orders,
    error,
    printed,
    duration_ms: Math.max(0, Math.round(nowMs - atMs)),
  };
  return { failed, failures, failWith, view };
}
