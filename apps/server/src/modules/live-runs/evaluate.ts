import {
  MAX_TRADE_RECORDS,
  feedRow,
  formatContractDate,
  instrumentTrades,
  mergeFeeds,
  nextBucketStart,
  parsePeriod,
  validateTradeRecords,
  type BacktestFeedInput,
  type Bar,
  type Feed,
  type Period,
  type ValidTrade,
} from '@ct/domain';
import { BadRequestError } from '../../http/errors.ts';
import { payloadSchema } from '../backtest/service.ts';
import type { MarketData } from '../market/market-data.ts';
import {
  SandboxBusyError,
  SandboxUnavailableError,
  type SandboxPool,
} from '../backtest/sandbox/pool.ts';
import { formatBytes } from '../backtest/sandbox/settings.ts';

/** What a strategy run on some bars gave: its validated trades, or why there are none. */
export type StrategyOutcome =
  { ok: true; trades: ValidTrade[]; wallMs: number } | { ok: false; error: string; wallMs: number };

/**
 * Runs `main(data_array)` in the sandbox on `bars` exactly as a backtest does (the same rows,
 * the same contract checks) and passes each printed line to `onLine` as it comes. The sandbox
 * pool's own queue and share per owner apply (`owner`). With `feeds` (the run's own first,
 * then the others, their closed bars only) `data_array` holds every feed's rows as a
 * multi-feed backtest's (`mergeFeeds`: a higher period's bar once it has closed), and the
 * trades are the records of the run's own instrument (a record without `code` trades it).
 */
export async function runStrategy(
  pool: SandboxPool,
  job: {
    code: string;
    filename: string;
    symbol: string;
    period: string;
    bars: readonly Bar[];
    feeds?: readonly Feed[];
  },
  owner: string,
  onLine: (line: string) => void,
): Promise<StrategyOutcome> {
  const { feeds } = job;
  const rows = feeds ? mergeFeeds(feeds).map((row) => feedRow(feeds, row)) : rowsOfBars(job);
  let outcome;
  try {
    outcome = await pool.run({ code: job.code, filename: job.filename, rows }, onLine, { owner });
  } catch (error) {
    if (error instanceof SandboxUnavailableError || error instanceof SandboxBusyError) {
      return { ok: false, error: error.message, wallMs: 0 };
    }
    throw error;
  }
  const wallMs = Math.round(outcome.wallMs);
  if (outcome.kind === 'failed') return { ok: false, error: outcome.message, wallMs };
  const parsed = payloadSchema.safeParse(outcome.payload);
  if (!parsed.success) {
    return { ok: false, error: 'The strategy process returned a malformed result', wallMs };
  }
  const payload = parsed.data;
  if (!payload.ok) {
    const error =
      payload.kind === 'memory'
        ? `Memory limit exceeded (${formatBytes(pool.settings.memoryBytes)})`
        : payload.error;
    return { ok: false, error, wallMs };
  }
  if (payload.count !== null && payload.count > MAX_TRADE_RECORDS) {
    return {
      ok: false,
      error: `Invalid strategy result: main() returned ${payload.count} trade records; at most ${MAX_TRADE_RECORDS} are allowed`,
      wallMs,
    };
  }
  const times = job.bars.map((bar) => bar.time);
  const checked = feeds
    ? instrumentTrades(payload.records, [...new Set(feeds.map((f) => f.code))], job.symbol, times)
    : validateTradeRecords(payload.records, times);
  if (!checked.ok) return { ok: false, error: `Invalid strategy result: ${checked.error}`, wallMs };
  return { ok: true, trades: checked.trades, wallMs };
}

/** The rows of one feed, as a one-feed backtest gives them. */
function rowsOfBars(job: { symbol: string; period: string; bars: readonly Bar[] }) {
  return job.bars.map((bar) => [
    formatContractDate(bar.time),
    job.symbol,
    job.period,
    bar.open,
    bar.high,
    bar.low,
    bar.close,
    bar.volume,
  ]);
}

/** A feed a live run or a replay reads besides its own (its bars are read as they close). */
export type SideFeed = { symbol_id: string; period: Period };

/**
 * The feeds a live run's or a replay's body names besides its own (`feeds`, the backtest's
 * schema), checked: catalogue instruments and known periods, no bars of their own (the
 * bars are read as they close). A 400 names the feed by its place in the body. Null when
 * there are none besides its own.
 */
export function feedsBeside(
  request: { symbol_id: string; period: Period; feeds?: readonly BacktestFeedInput[] | undefined },
  market: Pick<MarketData, 'has'>,
): SideFeed[] | null {
  const others: SideFeed[] = [];
  (request.feeds ?? []).forEach((feed, i) => {
    if (feed.historical_data !== undefined) {
      throw new BadRequestError(
        `feeds[${i}].historical_data: the feeds' bars are read as they close; leave it out`,
      );
    }
    const period = parsePeriod(feed.period);
    if (!period) throw new BadRequestError(`feeds[${i}].period: Unknown period: ${feed.period}`);
    if (!market.has(feed.symbol_id)) {
      throw new BadRequestError(`feeds[${i}]: Unknown symbol: ${feed.symbol_id}`);
    }
    if (feed.symbol_id === request.symbol_id && period === request.period) return;
    others.push({ symbol_id: feed.symbol_id, period });
  });
  return others.length > 0 ? others : null;
}

/**
 * The feeds `main(data_array)` receives at a close (`closeMs`): the own bars first, then each
 * other feed's newest `window` bars that have closed by then (a bar still forming is never
 * seen).
 */
export function feedsAtClose(
  market: Pick<MarketData, 'bars'>,
  own: Feed,
  others: readonly { symbol_id: string; period: string }[],
  closeMs: number,
  window: number,
  nowMs: number,
): Feed[] {
  const side = others.flatMap((feed): Feed[] => {
    const period = parsePeriod(feed.period);
    if (!period) return [];
    const bars = market
      .bars(feed.symbol_id, period, closeMs, window, nowMs)
      .filter((bar) => nextBucketStart(period, bar.time) <= closeMs);
    return [{ code: feed.symbol_id, period, bars }];
  });
  return [own, ...side];
}
