import {
  DEFAULT_LOADED_BARS,
  MAX_BACKTEST_BARS,
  MAX_SERVER_LOADED_BARS,
  formatContractDate,
  nextBucketStart,
  parsePeriod,
  type BacktestFeedInput,
  type Bar,
  type Feed,
  type HistoricalData,
  type Period,
} from '@ct/domain';
import { BadRequestError } from '../../http/errors.ts';
import { historicalBarsOf } from './historical.ts';
import type { BacktestService } from './service.ts';

/*
 * The feeds of a backtest body (`feeds: [{ symbol_id, period, historical_data? }]`) with
 * their bars: a feed's own historical_data, else its instrument's bars of that period over
 * the time span of the bars that were given (the top-level historical_data is the first
 * feed's when that feed has none). Anything wrong is a 400 naming the feed.
 */

type FeedsBody = {
  feeds: readonly BacktestFeedInput[];
  historical_data?: HistoricalData | undefined;
};

/** The bars of `rows`, or a 400 naming the field. */
function given(rows: HistoricalData, field: string): Bar[] {
  const converted = historicalBarsOf(rows);
  if (!converted.ok) {
    throw new BadRequestError(converted.error.replace(/^historical_data/, field));
  }
  if (converted.bars.length === 0) throw new BadRequestError(`${field}: has no bars`);
  return converted.bars;
}

/** Bars of `period` a span of `ms` holds at most (a week or month counted as its shortest). */
function barsIn(period: Period, ms: number): number {
  const length = nextBucketStart(period, 0) - 0;
  const shortest = period === 'month' ? 28 * 86_400_000 : length;
  return Math.ceil(ms / shortest) + 2;
}

/**
 * A feed whose bars are known, or to be loaded (`bars: null`); `field` names it in a 400
 * (default `feeds[i]` by its place in the list given to completeFeeds).
 */
export type PendingFeed = {
  code: string;
  period: Period;
  bars: readonly Bar[] | null;
  field?: string;
  /** Its bars were loaded by the server (not sent in the body). */
  loaded?: boolean;
};

/** The feed's period, or a 400 naming it. */
export function feedPeriod(feed: Pick<BacktestFeedInput, 'period'>, i: number): Period {
  const period = parsePeriod(feed.period);
  if (!period) throw new BadRequestError(`feeds[${i}].period: Unknown period: ${feed.period}`);
  return period;
}

export async function resolveFeeds(
  service: Pick<BacktestService, 'loadBars'>,
  userId: number,
  body: FeedsBody,
): Promise<Feed[]> {
  const feeds = body.feeds.map((feed, i): PendingFeed => {
    const period = feedPeriod(feed, i);
    const rows = feed.historical_data ?? (i === 0 ? body.historical_data : undefined);
    const field =
      feed.historical_data || i !== 0 ? `feeds[${i}].historical_data` : 'historical_data';
    return { code: feed.symbol_id, period, bars: rows ? given(rows, field) : null };
  });
  return completeFeeds(service, userId, feeds, barCap(feeds));
}

/** The bars a run may take in all: more when the server loads them all itself. */
export function barCap(feeds: readonly Pick<PendingFeed, 'bars' | 'loaded'>[]): number {
  return feeds.every((feed) => feed.bars === null || feed.loaded === true)
    ? MAX_SERVER_LOADED_BARS
    : MAX_BACKTEST_BARS;
}

/**
 * Loads the bars of the feeds that have none over the span of those that have (the newest
 * DEFAULT_LOADED_BARS of the first when none has); a 400 names a feed without bars there,
 * or more than `cap` bars in all (MAX_BACKTEST_BARS unless the server loaded them all).
 */
export async function completeFeeds(
  service: Pick<BacktestService, 'loadBars'>,
  userId: number,
  feeds: readonly PendingFeed[],
  cap: number = MAX_BACKTEST_BARS,
): Promise<Feed[]> {
  // the span: from the first given bar to the close of the last one
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  const widen = (feed: Feed) => {
    const first = feed.bars[0];
    const last = feed.bars.at(-1);
    if (!first || !last) return;
    start = Math.min(start, first.time);
    end = Math.max(end, nextBucketStart(feed.period, last.time));
  };
  for (const feed of feeds) if (feed.bars) widen(feed as Feed);

  const loaded: Feed[] = [];
  for (let i = 0; i < feeds.length; i++) {
    const feed = feeds[i] as (typeof feeds)[number];
    const field = feed.field ?? `feeds[${i}]`;
    if (feed.bars) {
      loaded.push({ code: feed.code, period: feed.period, bars: feed.bars });
      continue;
    }
    const spanKnown = Number.isFinite(start);
    const limit = spanKnown
      ? Math.min(barsIn(feed.period, end - start), cap + 1)
      : DEFAULT_LOADED_BARS;
    const answer = await service.loadBars(
      userId,
      feed.code,
      feed.period,
      limit,
      spanKnown ? end : undefined,
    );
    if (!answer.ok) throw new BadRequestError(`${field}: ${answer.reason}`);
    // a bar overlapping the span counts (a higher period's bar that began before it)
    const bars = spanKnown
      ? answer.bars.filter((bar) => nextBucketStart(feed.period, bar.time) > start)
      : answer.bars;
    if (bars.length === 0) {
      throw new BadRequestError(
        `${field}: No bars of ${feed.code} ${feed.period} between ${formatContractDate(start)} and ${formatContractDate(end)}`,
      );
    }
    const done: Feed = { code: feed.code, period: feed.period, bars };
    if (!spanKnown) widen(done);
    loaded.push(done);
  }
  const total = loaded.reduce((sum, feed) => sum + feed.bars.length, 0);
  if (total > cap) {
    throw new BadRequestError(`feeds: ${total} bars in all; a backtest may take at most ${cap}`);
  }
  return loaded;
}

/**
 * The run's feeds when a body names its own instrument and period (run helper, optimisation,
 * AI task) and `feeds` besides: its own first (with `bars`), then the others (that feed
 * itself may be listed too) with their instrument's bars over the span of `bars`.
 */
export async function feedsAround(
  service: Pick<BacktestService, 'loadBars'>,
  userId: number,
  own: Feed & { loaded?: boolean },
  feeds: readonly Pick<BacktestFeedInput, 'symbol_id' | 'period'>[],
): Promise<Feed[]> {
  const others = feeds.flatMap((feed, i): PendingFeed[] => {
    const period = feedPeriod(feed, i);
    if (feed.symbol_id === own.code && period === own.period) return [];
    // named by its place in the body's feeds, not in the run's (where `own` comes first)
    return [{ code: feed.symbol_id, period, bars: null, field: `feeds[${i}]` }];
  });
  if (others.length === 0) return [own];
  const all = [own, ...others];
  return completeFeeds(service, userId, all, barCap(all));
}
