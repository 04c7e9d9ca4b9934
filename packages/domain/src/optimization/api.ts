import { TOLERANCE } from '../values/tolerance.ts';
import { z } from 'zod';
import { identifierSchema, optionalNameSchema } from '../api/text.ts';
import { parseContractDate } from '../backtest/dates.ts';
import { backtestFeedsSchema } from '../backtest/feeds.ts';
import type { Deal, Performance } from '../backtest/metrics.ts';
import { MAX_LOADED_BARS, strategyCodeSchema } from '../backtest/schemas.ts';
import { optimizationMethodSchema } from './space.ts';
import { walkForwardSchema } from './walkForward.ts';
import { toEpochMs } from '../values/units.ts';

/** What an optimisation maximises (max_drawdown: minimises). */
export const OPTIMIZATION_OBJECTIVES = [
  'net_profit',
  'sharpe',
  'profit_factor',
  'max_drawdown',
  'sqn',
  'win_rate',
] as const;
export type OptimizationObjective = (typeof OPTIMIZATION_OBJECTIVES)[number];

export const OPTIMIZATION_STATUSES = [
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
] as const;
export type OptimizationStatus = (typeof OPTIMIZATION_STATUSES)[number];

/** A date of `from` / `to`: epoch seconds, or text as the contract writes dates (2024-01-31). */
const dateSchema = z
  .union([z.number().finite(), z.string().trim().min(1).max(32)])
  .transform((value, ctx) => {
    const ms = typeof value === 'number' ? toEpochMs(value) : parseContractDate(value);
    if (ms === null || !Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: 'must be a date (2024-01-31) or epoch seconds' });
      return z.NEVER;
    }
    return ms;
  });

/** Body of POST /api/optimizations (params are checked against the strategy by the server). */
export const optimizationRequestSchema = z
  .object({
    strategy_name: optionalNameSchema(100).nullish(),
    code: strategyCodeSchema.nullish(),
    symbol_id: identifierSchema(64, 'symbol_id is required'),
    period: identifierSchema(32, 'period is required'),
    bars: z
      .number()
      .int('bars must be a whole number')
      .min(2, 'bars must be at least 2')
      .max(MAX_LOADED_BARS, `bars must be at most ${MAX_LOADED_BARS}`)
      .optional(),
    from: dateSchema.optional(),
    to: dateSchema.optional(),
    params: z.unknown(),
    constraint: z.string().max(500, 'constraint must be at most 500 characters').nullish(),
    objective: z.enum(OPTIMIZATION_OBJECTIVES, {
      error: `objective must be one of ${OPTIMIZATION_OBJECTIVES.join(', ')}`,
    }),
    method: optimizationMethodSchema,
    max_trials: z.number().int('max_trials must be a whole number').min(1).optional(),
    seed: z.number().int('seed must be a whole number').min(0).max(0xffffffff).optional(),
    walk_forward: walkForwardSchema.nullish(),
    /**
     * More feeds to run on besides symbol_id/period (as POST /api/backtest/code's `feeds`;
     * the symbol_id/period feed itself may be listed too): loaded over its bars' span.
     */
    feeds: backtestFeedsSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const hasCode = typeof body.code === 'string' && body.code.trim() !== '';
    if (!hasCode && !body.strategy_name) {
      ctx.addIssue({ code: 'custom', message: 'give strategy_name or code' });
    }
    if (body.bars !== undefined && (body.from !== undefined || body.to !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give bars or from/to, not both' });
    }
    if (body.from !== undefined && body.to !== undefined && body.from > body.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be before to' });
    }
  });
export type OptimizationRequest = z.infer<typeof optimizationRequestSchema>;

/** Query of GET /api/optimizations/{id}: a page of the trials, sorted. */
export const TRIAL_SORT_KEYS = [
  'index',
  'net_profit',
  'trade_count',
  'win_rate',
  'sharpe',
  'max_drawdown',
  'profit_factor',
  'sqn',
  'objective',
] as const;
export const optimizationQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** A key, `-key` for descending; default `-objective` (best first). */
  sort: z
    .string()
    .regex(
      new RegExp(`^-?(${TRIAL_SORT_KEYS.join('|')})$`),
      `sort must be one of ${TRIAL_SORT_KEYS.join(', ')}, optionally with a leading -`,
    )
    .default('-objective'),
});

/** A trial's figures, as the answer gives them. */
export type TrialPerformance = {
  net_profit: number;
  trade_count: number;
  win_rate: number;
  sharpe: number | null;
  max_drawdown: number;
  profit_factor: number | null;
  sqn: number | null;
};

/**
 * System quality number (Van Tharp): √n × mean / sample standard deviation of the trades'
 * profits; null with fewer than two trades or profits that do not vary.
 */
export function systemQualityNumber(profits: readonly number[]): number | null {
  const n = profits.length;
  if (n < 2) return null;
  const mean = profits.reduce((s, p) => s + p, 0) / n;
  const variance = profits.reduce((s, p) => s + (p - mean) ** 2, 0) / (n - 1);
  const std = Math.sqrt(variance);
  if (!(std > TOLERANCE.zeroSpread)) return null;
  return Math.round((Math.sqrt(n) * mean * 10_000) / std) / 10_000;
}

/** The figures of one trial from its backtest's deals and performance. */
export function trialPerformance(
  deals: readonly Deal[],
  performance: Performance,
): TrialPerformance {
  return {
    net_profit: performance.净利润,
    trade_count: performance.交易次数,
    win_rate: performance.win_rate,
    sharpe: performance.sharpe_ratio,
    max_drawdown: performance.max_drawdown,
    profit_factor: performance.profit_factor,
    sqn: systemQualityNumber(deals.map((deal) => deal.profit)),
  };
}

/**
 * The objective as a score where higher is better (max_drawdown negated); null when the
 * figure is not defined (no losses for the profit factor, too short for the Sharpe ratio):
 * such trials rank after every scored one.
 */
export function objectiveScore(
  objective: OptimizationObjective,
  performance: TrialPerformance,
): number | null {
  switch (objective) {
    case 'net_profit':
      return performance.net_profit;
    case 'sharpe':
      return performance.sharpe;
    case 'profit_factor':
      return performance.profit_factor;
    case 'max_drawdown':
      return -performance.max_drawdown;
    case 'sqn':
      return performance.sqn;
    case 'win_rate':
      return performance.win_rate;
  }
}

/** Per-period simple returns of an equity curve (a period after a wipe-out returns 0). */
export function periodReturns(equity: ArrayLike<number>): number[] {
  const returns: number[] = [];
  for (let i = 1; i < equity.length; i++) {
    const before = equity[i - 1] ?? 0;
    returns.push(before > 0 ? (equity[i] ?? 0) / before - 1 : 0);
  }
  return returns;
}

/**
 * Out-of-sample parts put end to end: each part's equity curve (points [date, equity], all
 * starting from the same capital) continues from where the previous part ended.
 */
export function stitchEquity(
  parts: readonly (readonly [string, number][])[],
  initialCapital: number,
): [string, number][] {
  const stitched: [string, number][] = [];
  let offset = 0;
  for (const part of parts) {
    for (const [date, equity] of part)
      stitched.push([date, equity - initialCapital + offset + initialCapital]);
    const last = part.at(-1);
    if (last) offset += last[1] - initialCapital;
  }
  return stitched;
}

/** What the stitched out-of-sample figures are computed from (the folds' parts in order). */
export type StitchedInput = {
  /** The stitched equity curve (`stitchEquity`): points [date, equity]. */
  equity: readonly (readonly [string, number])[];
  /** Every out-of-sample trade's profit, the folds in order. */
  profits: readonly number[];
  /** Every out-of-sample bar's return (fraction of the equity), the folds in order. */
  returns: readonly number[];
  initialCapital: number;
  /** Bars per year of the period (annualises the Sharpe ratio); 0 or null: no Sharpe ratio. */
  barsPerYear: number | null;
};

const roundTo = (value: number, decimals: number) =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * The figures of the out-of-sample parts put end to end, in one pass over each input: net
 * profit and trade count of their trades, win rate, the annualised Sharpe ratio of the
 * per-bar returns (null when they do not vary, TOLERANCE.zeroSpread), the largest drawdown
 * of the stitched curve from its running peak (starting at the capital), profit factor
 * (null without losses) and SQN.
 */
export function stitchedPerformance(input: StitchedInput): TrialPerformance {
  const { profits, returns, equity, initialCapital } = input;
  let net = 0;
  let won = 0;
  let wins = 0;
  let lost = 0;
  let losses = 0;
  for (const profit of profits) {
    net += profit;
    if (profit > 0) {
      won += profit;
      wins += 1;
    } else if (profit < 0) {
      lost -= profit;
      losses += 1;
    }
  }
  let peak = initialCapital;
  let drawdown = 0;
  for (const [, value] of equity) {
    if (value > peak) peak = value;
    if (peak > 0) drawdown = Math.max(drawdown, (peak - value) / peak);
  }
  // Welford: mean and sample variance of the returns in one pass
  let count = 0;
  let mean = 0;
  let squares = 0;
  for (const r of returns) {
    count += 1;
    const delta = r - mean;
    mean += delta / count;
    squares += delta * (r - mean);
  }
  const sd = count > 1 ? Math.sqrt(squares / (count - 1)) : 0;
  const barsPerYear = input.barsPerYear ?? 0;
  return {
    net_profit: roundTo(net, 2),
    trade_count: profits.length,
    win_rate: profits.length > 0 ? roundTo(wins / profits.length, 6) : 0,
    sharpe:
      sd > TOLERANCE.zeroSpread && barsPerYear > 0
        ? roundTo((mean / sd) * Math.sqrt(barsPerYear), 4)
        : null,
    max_drawdown: roundTo(drawdown, 6),
    profit_factor: losses > 0 ? roundTo(won / lost, 4) : null,
    sqn: systemQualityNumber(profits),
  };
}
