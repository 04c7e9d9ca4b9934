import {
  liveRunIdOfComment,
  MAX_LIVE_RUN_LOTS,
  MAX_LIVE_RUN_POSITIONS,
  type LiveRunStatus,
} from '@ct/domain';
import type { UTCTimestamp } from 'lightweight-charts';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import type { ComparedTradeView, LiveRunComparison, LiveRunView, MatchedTradeView } from './api';

/*
 * The live runs' rules that need no React: the start form's checks, which orders a run sent,
 * when to poll, and the comparison's rows and curves.
 */

const m = messages.liveRuns;

/** The runs list is asked again this often while a run no event follows is running (ms). */
export const LIVE_RUN_POLL_MS = 5_000;
/** Evaluations per page of a run's list. */
export const EVALUATIONS_PAGE_SIZE = 10;

/** Why a size (lots multiplier) is refused, or null: above 0, at most the domain's cap. */
export function lotsProblem(value: number | null | undefined): string | null {
  if (value === null || value === undefined || Number.isNaN(value)) return m.lotsRequired;
  if (!Number.isFinite(value) || value <= 0 || value > MAX_LIVE_RUN_LOTS) {
    return m.lotsRange(MAX_LIVE_RUN_LOTS);
  }
  return null;
}

/** Why a max open positions is refused, or null: a whole number from 1 to the domain's cap. */
export function maxPositionsProblem(value: number | null | undefined): string | null {
  if (value === null || value === undefined || Number.isNaN(value)) return m.maxPositionsRequired;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIVE_RUN_POSITIONS) {
    return m.maxPositionsRange(MAX_LIVE_RUN_POSITIONS);
  }
  return null;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * The idempotency keys a run gives its orders: `lr<first 12 hex digits of the run id>-o…`
 * (an opening) or `-c…` (a closing), as the runner writes them; `<run id>:<bar>:<n>` as
 * the domain's schema describes them.
 */
const RUN_ORDER_KEYS = [
  /^lr([0-9a-f]{12})-(?:o\d+-[12]-\d+|c\d+)$/,
  new RegExp(`^(${UUID}):\\d+:\\d+$`),
];

/**
 * The live run that sent an order, or null: the run id from the comment the run writes on
 * its positions (`live:<id>`); on rows without a comment (the order log) the run named by
 * the order's idempotency key — its first 12 hex digits when the key carries only those.
 */
export function liveRunIdOf(row: {
  comment?: string | null;
  clientOrderId?: string | null;
}): string | null {
  const fromComment = liveRunIdOfComment(row.comment);
  if (fromComment) return fromComment;
  if (!row.clientOrderId) return null;
  for (const key of RUN_ORDER_KEYS) {
    const match = key.exec(row.clientOrderId);
    if (match) return match[1]!;
  }
  return null;
}

/** A run id as the tables show it: its first 8 characters. */
export function shortRunId(id: string): string {
  return id.slice(0, 8);
}

/**
 * True while a run of the list is running on an account other than `followed` (the one
 * whose live channel the page follows; none: every account): the list is then polled, as
 * no event tells of that run.
 */
export function anyRunning(
  runs: readonly LiveRunView[] | undefined,
  followed: string | null = null,
): boolean {
  return (runs ?? []).some((run) => run.status === 'running' && run.uuid !== followed);
}

/** The tag colour of a status (antd preset names). */
export function statusColor(status: LiveRunStatus): string {
  return status === 'running' ? 'processing' : status === 'failed' ? 'error' : 'default';
}

/** Forward minus backtest P&L, 2 decimals. */
export function pnlGap(comparison: Pick<LiveRunComparison, 'pnl_backtest' | 'pnl_forward'>) {
  return Math.round((comparison.pnl_forward - comparison.pnl_backtest) * 100) / 100;
}

/** One row of the comparison's trade table: a matched pair, or a trade of one side only. */
export type ComparisonRow = {
  key: string;
  kind: 'matched' | 'only_backtest' | 'only_forward';
  backtest: ComparedTradeView | null;
  forward: ComparedTradeView | null;
  openPriceDiff: number | null;
  openDelay: number | null;
  profitDiff: number | null;
};

const openTime = (row: ComparisonRow) => (row.backtest ?? row.forward)!.open_time;

/** Every trade of the comparison in one list, by open time (matched, then one-sided). */
export function comparisonRows(
  comparison: Pick<LiveRunComparison, 'matched' | 'only_backtest' | 'only_forward'>,
): ComparisonRow[] {
  const rows: ComparisonRow[] = [
    ...comparison.matched.map((pair: MatchedTradeView, i): ComparisonRow => ({
      key: `m${i}`,
      kind: 'matched',
      backtest: pair.backtest,
      forward: pair.forward,
      openPriceDiff: pair.open_price_diff,
      openDelay: pair.open_delay,
      profitDiff: pair.profit_diff,
    })),
    ...comparison.only_backtest.map((trade, i): ComparisonRow => ({
      key: `b${i}`,
      kind: 'only_backtest',
      backtest: trade,
      forward: null,
      openPriceDiff: null,
      openDelay: null,
      profitDiff: null,
    })),
    ...comparison.only_forward.map((trade, i): ComparisonRow => ({
      key: `f${i}`,
      kind: 'only_forward',
      backtest: null,
      forward: trade,
      openPriceDiff: null,
      openDelay: null,
      profitDiff: null,
    })),
  ];
  return rows.sort((a, b) => openTime(a) - openTime(b));
}

/** A point of a cumulative P&L line. */
export type CurvePoint = { time: UTCTimestamp; value: number };

/**
 * The chart points of a cumulative P&L curve ([epoch s, P&L] at each trade close): several
 * closes at one time keep the last value (the chart needs strictly ascending times), and
 * the line starts at 0 at `from` when that is earlier than the first close.
 */
export function curvePoints(
  curve: readonly (readonly [number, number])[],
  from: number | null,
): CurvePoint[] {
  const points: CurvePoint[] = [];
  for (const [time, value] of [...curve].sort((a, b) => a[0] - b[0])) {
    if (!Number.isFinite(time) || !Number.isFinite(value)) continue;
    const last = points.at(-1);
    if (last && last.time === time) last.value = value;
    else points.push({ time: time as UTCTimestamp, value });
  }
  if (from !== null && points.length > 0 && from < points[0]!.time) {
    points.unshift({ time: from as UTCTimestamp, value: 0 });
  }
  return points;
}
