import { z } from 'zod';
import { identifierSchema } from '../api/text.ts';
import type { Bar } from '../market/bars.ts';
import { DAY_MS, PERIODS, nextBucketStart, type Period } from '../market/periods.ts';
import { roundTo } from '../market/price.ts';
import { historicalDataSchema } from './bars.ts';
import { MAX_TRADE_RECORDS, validateTradeRecords, type ValidTrade } from './contract.ts';
import { formatContractDate } from './dates.ts';
import {
  MAX_EQUITY_POINTS,
  annualReturn,
  computeBacktest,
  equityCurve,
  maxDrawdown,
  sharpeRatio,
  type BacktestConventions,
  type Deal,
  type Performance,
} from './metrics.ts';
import { roundMoney } from '../values/units.ts';

/*
 * Backtests on several feeds at once: (instrument, period) series merged into one
 * `data_array`, the strategy's records split per instrument, each instrument's deals and
 * figures by its own terms, and the portfolio (one account) as their sum. Pure.
 */

/** Most feeds one backtest may name. */
export const MAX_FEEDS = 10;

/** A feed of a backtest body: an instrument, a period and optionally its bars. */
export const backtestFeedSchema = z.object({
  symbol_id: identifierSchema(64, 'symbol_id is required'),
  period: identifierSchema(32, 'period is required'),
  /** The feed's bars (as `historical_data`); absent: loaded over the run's time span. */
  historical_data: historicalDataSchema().optional(),
});
export type BacktestFeedInput = z.infer<typeof backtestFeedSchema>;

/** `feeds` of a backtest, optimisation or AI task body: 1 to MAX_FEEDS distinct feeds. */
export const backtestFeedsSchema = z
  .array(backtestFeedSchema)
  .min(1, 'feeds must name at least one feed')
  .max(MAX_FEEDS, `feeds must have at most ${MAX_FEEDS} entries`)
  .superRefine((feeds, ctx) => {
    const seen = new Set<string>();
    feeds.forEach((feed, index) => {
      const key = `${feed.symbol_id} ${feed.period}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `${key} is named twice`,
        });
      }
      seen.add(key);
    });
  });

/** A feed with its bars (ascending starts, UTC ms). */
export type Feed = { code: string; period: Period; bars: readonly Bar[] };

/** A row of the merged `data_array`: which feed, which of its bars, and the row's time. */
export type MergedRow = { time: number; feed: number; index: number };

/** Rank of a period by its length (PERIODS is ascending). */
export function periodRank(period: Period): number {
  return PERIODS.indexOf(period);
}

/** The finest period among the feeds. */
export function finestPeriod(feeds: readonly Pick<Feed, 'period'>[]): Period | null {
  let best: Period | null = null;
  for (const feed of feeds) {
    if (best === null || periodRank(feed.period) < periodRank(best)) best = feed.period;
  }
  return best;
}

/**
 * The rows of every feed in time order. A bar of the finest period is dated by its start (as
 * in a one-feed backtest); a bar of a higher period is dated by its close and comes after
 * every finer bar that ends by then, so a strategy never sees a higher-timeframe bar before
 * it has closed. A higher-period bar that has not closed by the end of the finest data (the
 * one still forming) is left out.
 */
export function mergeFeeds(feeds: readonly Feed[]): MergedRow[] {
  const finest = finestPeriod(feeds);
  if (finest === null) return [];
  const finestRank = periodRank(finest);
  let dataEnd = Number.NEGATIVE_INFINITY;
  for (const feed of feeds) {
    const last = feed.bars.at(-1);
    if (feed.period === finest && last) {
      dataEnd = Math.max(dataEnd, nextBucketStart(finest, last.time));
    }
  }
  const entries: { end: number; rank: number; row: MergedRow }[] = [];
  feeds.forEach((feed, f) => {
    const rank = periodRank(feed.period);
    const higher = rank > finestRank;
    feed.bars.forEach((bar, index) => {
      const end = nextBucketStart(feed.period, bar.time);
      if (higher && end > dataEnd) return;
      entries.push({ end, rank, row: { time: higher ? end : bar.time, feed: f, index } });
    });
  });
  // by the time the bar's information is complete; at equal times the finer bar first
  entries.sort((a, b) => a.end - b.end || a.rank - b.rank || a.row.feed - b.row.feed);
  return entries.map((entry) => entry.row);
}

/** A merged row as `main(data_array)` receives it: date, code, period, OHLCV. */
export function feedRow(feeds: readonly Feed[], row: MergedRow): (string | number)[] {
  const feed = feeds[row.feed] as Feed;
  const bar = feed.bars[row.index] as Bar;
  return [
    formatContractDate(row.time),
    feed.code,
    feed.period,
    bar.open,
    bar.high,
    bar.low,
    bar.close,
    bar.volume,
  ];
}

/** An instrument of a multi-feed run: the bars its trades are placed on and its terms. */
export type FeedInstrument = {
  code: string;
  /** Its finest feed's period and bars. */
  period: Period;
  bars: readonly Bar[];
  conventions: BacktestConventions;
};

/** The instruments of the feeds in feed order (each by its finest feed). */
export function feedInstruments(
  feeds: readonly Feed[],
  conventionsOf: (code: string) => BacktestConventions,
): FeedInstrument[] {
  const byCode = new Map<string, Feed>();
  for (const feed of feeds) {
    const known = byCode.get(feed.code);
    if (!known || periodRank(feed.period) < periodRank(known.period)) byCode.set(feed.code, feed);
  }
  return [...byCode.values()].map((feed) => ({
    code: feed.code,
    period: feed.period,
    bars: feed.bars,
    conventions: conventionsOf(feed.code),
  }));
}

/** A deal of a multi-feed run: the instrument it trades. */
export type PortfolioDeal = Deal & { code: string };

export type InstrumentResult = {
  code: string;
  trades: ValidTrade[];
  deals: PortfolioDeal[];
  performance: Performance;
};

export type PortfolioResult =
  | {
      ok: true;
      /** All deals, instrument by instrument in feed order, each in record order. */
      deals: PortfolioDeal[];
      performance: Performance;
      perSymbol: Record<string, Performance>;
      instruments: InstrumentResult[];
      /** The portfolio's equity at every bar start of any instrument (unrounded). */
      equity: number[];
    }
  | { ok: false; error: string; index: number | null; field: string | null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks what `main(data_array)` returned on several feeds and computes the results: each
 * record trades its `code` (default: the first instrument), is checked and placed on that
 * instrument's bars, and is settled by its terms (multiplier, commission). Every
 * instrument's figures start from the whole account's capital; the portfolio's equity is
 * the capital plus the sum of what each instrument added.
 */
export function computePortfolio(
  value: unknown,
  instruments: readonly FeedInstrument[],
): PortfolioResult {
  const first = instruments[0];
  if (!first) return { ok: false, error: 'There are no feeds', index: null, field: null };
  if (!Array.isArray(value) || value.length > MAX_TRADE_RECORDS) {
    const failed = validateTradeRecords(value, []);
    if (!failed.ok) return failed;
  }
  const codes = instruments.map((instrument) => instrument.code);
  const grouped = recordsByCode(value as unknown[], codes);
  if (!grouped.ok) return grouped;
  const groups = grouped.groups;

  const results: InstrumentResult[] = [];
  for (const instrument of instruments) {
    const group = groups.get(instrument.code) ?? { records: [], indices: [] };
    const checked = validateTradeRecords(
      group.records,
      instrument.bars.map((bar) => bar.time),
    );
    if (!checked.ok) {
      const original = checked.index === null ? null : (group.indices[checked.index] ?? null);
      const error =
        checked.index === null || original === null
          ? checked.error
          : checked.error.replace(`records[${checked.index}]`, `records[${original}]`);
      return { ok: false, error, index: original, field: checked.field };
    }
    const computed = computeBacktest({
      bars: instrument.bars,
      trades: checked.trades,
      symbol: instrument.code,
      period: instrument.period,
      conventions: instrument.conventions,
    });
    results.push({
      code: instrument.code,
      trades: checked.trades,
      deals: computed.deals.map((deal) => ({ ...deal, code: instrument.code })),
      performance: computed.performance,
    });
  }
  const deals = results.flatMap((result) => result.deals);
  const { times, equity } = portfolioEquity(
    instruments,
    results.map((result) => result.trades),
  );
  return {
    ok: true,
    deals,
    equity,
    performance: portfolioPerformance(instruments, results, times, equity),
    perSymbol: Object.fromEntries(results.map((result) => [result.code, result.performance])),
    instruments: results,
  };
}

/** A multi-feed run's records grouped by the instrument they trade, with their places. */
export type RecordGroups = Map<string, { records: unknown[]; indices: number[] }>;

/**
 * Groups records by their `code` (absent or null: the first of `codes`); a record naming an
 * instrument that is not one of `codes` is refused by its index.
 */
export function recordsByCode(
  records: readonly unknown[],
  codes: readonly string[],
): { ok: true; groups: RecordGroups } | { ok: false; error: string; index: number; field: string } {
  const groups: RecordGroups = new Map(codes.map((code) => [code, { records: [], indices: [] }]));
  const first = codes[0] ?? '';
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    let code = first;
    if (isRecord(record) && 'code' in record && record.code !== null) {
      if (typeof record.code !== 'string' || !groups.has(record.code)) {
        const shown = typeof record.code === 'string' ? `'${record.code.slice(0, 40)}'` : 'a value';
        return {
          ok: false,
          error: `records[${i}].code must be one of the feeds' instruments (${codes.join(', ')}), got ${shown}`,
          index: i,
          field: 'code',
        };
      }
      code = record.code;
    }
    const group = groups.get(code);
    group?.records.push(record);
    group?.indices.push(i);
  }
  return { ok: true, groups };
}

/**
 * The trades of one instrument of a multi-feed strategy's records (a live run trades its own
 * instrument and leaves the others' records): its records checked on its bar times, errors
 * naming the record by its place among all of them.
 */
export function instrumentTrades(
  value: unknown,
  codes: readonly string[],
  code: string,
  barTimes: readonly number[],
): { ok: true; trades: ValidTrade[] } | { ok: false; error: string } {
  if (!Array.isArray(value) || value.length > MAX_TRADE_RECORDS) {
    const failed = validateTradeRecords(value, []);
    if (!failed.ok) return failed;
  }
  const grouped = recordsByCode(value as unknown[], codes);
  if (!grouped.ok) return grouped;
  const group = grouped.groups.get(code) ?? { records: [], indices: [] };
  const checked = validateTradeRecords(group.records, barTimes);
  if (checked.ok) return checked;
  const original = checked.index === null ? null : (group.indices[checked.index] ?? null);
  return {
    ok: false,
    error:
      checked.index === null || original === null
        ? checked.error
        : checked.error.replace(`records[${checked.index}]`, `records[${original}]`),
  };
}

const fraction = (value: number) => roundTo(value, 6);
const ratio = (value: number) => roundTo(value, 4);

/**
 * The portfolio's equity at every bar start of any instrument (ascending `times`):
 * capital + Σ (instrument equity at its latest bar by then − capital). Unrounded.
 */
export function portfolioEquity(
  instruments: readonly FeedInstrument[],
  trades: readonly (readonly ValidTrade[])[],
): { times: number[]; equity: number[] } {
  const capital = instruments[0]?.conventions.initialCapital ?? 0;
  const curves = instruments.map((instrument, i) =>
    equityCurve(instrument.bars, trades[i] ?? [], instrument.conventions),
  );
  const times = [
    ...new Set(instruments.flatMap((instrument) => instrument.bars.map((b) => b.time))),
  ].sort((a, b) => a - b);
  const at = instruments.map(() => -1);
  const equity = times.map((time) => {
    let total = capital;
    instruments.forEach((instrument, i) => {
      let k = at[i] ?? -1;
      while (k + 1 < instrument.bars.length && (instrument.bars[k + 1]?.time ?? 0) <= time) k++;
      at[i] = k;
      if (k >= 0) total += (curves[i]?.[k] ?? capital) - capital;
    });
    return total;
  });
  return { times, equity };
}

function portfolioPerformance(
  instruments: readonly FeedInstrument[],
  results: readonly InstrumentResult[],
  times: readonly number[],
  equity: readonly number[],
): Performance {
  const c = (instruments[0] as FeedInstrument).conventions;
  const capital = c.initialCapital;
  const deals = results.flatMap((result) => result.deals);
  const profits = deals.map((deal) => deal.profit);
  const wins = profits.filter((p) => p > 0);
  const losses = profits.filter((p) => p < 0);
  const totalProfit = roundMoney(wins.reduce((a, b) => a + b, 0));
  const totalLoss = roundMoney(losses.reduce((a, b) => a + b, 0));
  const netProfit = roundMoney(profits.reduce((a, b) => a + b, 0));
  const count = deals.length;
  const averageProfit = count > 0 ? roundMoney(netProfit / count) : 0;
  const winRate = count > 0 ? fraction(wins.length / count) : 0;
  const averageWin = wins.length > 0 ? totalProfit / wins.length : 0;
  const averageLoss = losses.length > 0 ? -totalLoss / losses.length : 0;
  const firstTime = times[0] ?? 0;
  const lastTime = times.at(-1) ?? 0;
  const years = (lastTime - firstTime) / (c.daysPerYear * DAY_MS);
  const barsPerYear = years > 0 && times.length > 1 ? (times.length - 1) / years : null;
  const minYears = c.minAnnualiseDays / c.daysPerYear;
  const finalEquity = roundMoney(capital + netProfit);
  const drawdown = maxDrawdown(equity, capital);
  const periods = [...new Set(results.map((r) => r.performance.周期))];
  return {
    合约: results.map((result) => result.code).join(','),
    周期: periods.join(','),
    开始时间: times.length > 0 ? formatContractDate(firstTime) : '',
    结束时间: times.length > 0 ? formatContractDate(lastTime) : '',
    交易次数: count,
    胜率: winRate,
    盈亏比: losses.length === 0 ? null : ratio(averageWin / averageLoss),
    总盈利: totalProfit,
    总亏损: totalLoss,
    净利润: netProfit,
    最大持仓: maxHeld(results.flatMap((result) => result.trades)),
    平均每笔盈利: averageProfit,
    profit_rate: fraction(netProfit / capital),
    annual_return: annualReturn(capital, finalEquity, years, minYears),
    max_drawdown: fraction(drawdown.fraction),
    max_drawdown_amount: roundMoney(drawdown.amount),
    win_rate: winRate,
    sharpe_ratio: years >= minYears ? sharpeRatio(equity, barsPerYear, c.riskFreeRate) : null,
    profit_factor: losses.length === 0 ? null : ratio(totalProfit / -totalLoss),
    expectancy: averageProfit,
    winning_trades: wins.length,
    losing_trades: losses.length,
    open_trades: deals.filter((deal) => deal.status === 'NOT').length,
    commission_total: roundMoney(deals.reduce((a, deal) => a + deal.commission, 0)),
    initial_capital: capital,
    final_equity: finalEquity,
    bar_count: times.length,
    equity_curve: sampleCurve(times, equity),
    conventions: {
      initial_capital: capital,
      contract_multiplier: c.contractMultiplier,
      commission_per_lot: c.commissionPerLot,
      risk_free_rate: c.riskFreeRate,
      days_per_year: c.daysPerYear,
      min_annualise_days: c.minAnnualiseDays,
      currency: c.currency,
      bars_per_year: barsPerYear === null ? null : ratio(barsPerYear),
      open_trades_valued_at: 'last_close',
    },
  };
}

/** Largest Σ |lots| held at once over all instruments (a trade closed in its opening bar counts). */
function maxHeld(trades: readonly ValidTrade[]): number {
  const events: [number, number][] = [];
  for (const t of trades) {
    const size = Math.abs(t.lots);
    events.push([t.openTime, size]);
    if (t.closeTime !== null) events.push([Math.max(t.closeTime, t.openTime + 1), -size]);
  }
  events.sort((a, b) => a[0] - b[0]);
  let held = 0;
  let most = 0;
  for (let i = 0; i < events.length; i++) {
    held += events[i]?.[1] ?? 0;
    if (events[i + 1]?.[0] !== events[i]?.[0] && held > most) most = held;
  }
  return roundTo(most, 6);
}

function sampleCurve(times: readonly number[], curve: readonly number[]): [string, number][] {
  const n = curve.length;
  const points = Math.min(n, MAX_EQUITY_POINTS);
  const out: [string, number][] = [];
  for (let k = 0; k < points; k++) {
    const i = points === 1 ? n - 1 : Math.round((k * (n - 1)) / (points - 1));
    out.push([formatContractDate(times[i] ?? 0), roundMoney(curve[i] ?? 0)]);
  }
  return out;
}
