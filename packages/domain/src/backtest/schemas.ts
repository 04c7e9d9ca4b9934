import { z } from 'zod';
import {
  freeTextSchema,
  identifierProblem,
  identifierSchema,
  integerInputSchema,
  optionalNameSchema,
  storableJson,
  storableText,
} from '../api/text.ts';
import { pageQuerySchema } from '../api/paging.ts';
import { historicalDataSchema, historicalLength } from './bars.ts';
import { parseContractDate } from './dates.ts';
import { MAX_TRADE_RECORDS } from './contract.ts';
import { MAX_FEEDS, backtestFeedsSchema } from './feeds.ts';

/** Longest strategy source accepted (characters). */
export const MAX_STRATEGY_CODE_CHARS = 256 * 1024;
/** Most bars one backtest may take when any of them come in its body (historical_data). */
export const MAX_BACKTEST_BARS = 200_000;
/**
 * Most bars one backtest may take when the server loads them all itself (the run helper's
 * `limit`, feeds without historical_data): no body to parse, and the sandbox reads 1,000,000
 * bars within its memory limit (docs/performance.md).
 */
export const MAX_SERVER_LOADED_BARS = 1_000_000;
/** Most bars a chart holds (an optimisation loads at most this many itself). */
export const MAX_LOADED_BARS = 5000;
/** Bars the run helper loads when `limit` is absent. */
export const DEFAULT_LOADED_BARS = 1000;
/** Names the client reserves for its built-in strategy; never stored. */
export const RESERVED_STRATEGY_NAMES = ['Default', 'Default Strategy'] as const;
/** Most saved strategies per user. */
export const MAX_STRATEGIES_PER_USER = 500;

/** True for the built-in Default strategy's names (case-insensitive). */
export function isReservedStrategyName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return RESERVED_STRATEGY_NAMES.some((reserved) => reserved.toLowerCase() === lower);
}

const integerText = integerInputSchema;

/**
 * A strategy name: trimmed, 1–100 characters, no '/', '\' or control characters (it is a
 * path segment of DELETE /api/strategies/{name}).
 */
export const strategyNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a strategy name')
  .max(100, 'Strategy name must be at most 100 characters')
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name), {
    message: 'Strategy name must not contain /, \\ or control characters',
  })
  .superRefine((name, ctx) => {
    const problem = identifierProblem(name);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `Strategy name ${problem}` });
  });

export const strategyCodeSchema = z
  .string()
  .max(MAX_STRATEGY_CODE_CHARS, `code must be at most ${MAX_STRATEGY_CODE_CHARS} characters`);

/**
 * Body of POST /api/strategies/: `create: true` fails when the name exists; else upsert.
 * Replacing a strategy's non-empty code with blank code needs `allow_empty: true`.
 * `keep_version: true` (an explicit save, a restore) keeps the replaced code as a version.
 */
export const saveStrategyRequestSchema = z.object({
  name: strategyNameSchema,
  code: strategyCodeSchema.transform(storableText),
  create: z.boolean().optional().default(false),
  allow_empty: z.boolean().optional().default(false),
  /** Keep the replaced code as a version even if it was saved moments ago (see keepsReplacedCode). */
  keep_version: z.boolean().optional().default(false),
});
export type SaveStrategyRequest = z.infer<typeof saveStrategyRequestSchema>;

/** A saved strategy as the API returns it; times in epoch seconds. */
export type StrategyView = { name: string; code: string; created_at: number; updated_at: number };

/**
 * A bar of `historical_data`: the chart's kline with Time as 'yyyy/mm/dd hh:mm:ss'. The
 * server checks the rows with `barsFromHistorical` (same rules, 10× faster on 200,000 rows).
 */
export const historicalBarSchema = z.object({
  Time: z.string().refine((text) => parseContractDate(text) !== null, {
    message: "Time must be a date like '2024/01/31 09:30:00'",
  }),
  Open: z.number().finite(),
  High: z.number().finite(),
  Low: z.number().finite(),
  Close: z.number().finite(),
  Volume: z.number().finite().optional(),
});
export type HistoricalBar = z.infer<typeof historicalBarSchema>;

// rows or columns, checked by barsFromHistorical (bars.ts)
const bodyBarsSchema = historicalDataSchema({
  bars: MAX_BACKTEST_BARS,
  message: `historical_data must have at most ${MAX_BACKTEST_BARS} bars`,
});

const filenameSchema = optionalNameSchema(200).optional();
const initialCapitalSchema = z.number().positive().max(1e12).optional();

const NO_BARS = 'historical_data must have at least one bar';

/**
 * Body of POST /api/backtest/code. With `feeds` (several instruments and periods) the
 * top-level `historical_data` is optional: a feed without bars loads its instrument's.
 */
export const backtestCodeRequestSchema = z
  .object({
    code: strategyCodeSchema.min(1, 'code is required').transform(storableText),
    filename: filenameSchema,
    historical_data: bodyBarsSchema.optional(),
    feeds: backtestFeedsSchema.optional(),
    client_id: z.string().max(128).nullish(),
    /** Optional: the instrument (its contract terms apply) and the period; else inferred. */
    symbol: identifierSchema(64).nullish(),
    symbol_id: identifierSchema(64).nullish(),
    period: identifierSchema(32).nullish(),
    strategy_name: optionalNameSchema(100).nullish(),
    initial_capital: initialCapitalSchema,
  })
  .superRefine((body, ctx) => {
    const given = body.historical_data;
    if (given ? historicalLength(given) === 0 : body.feeds === undefined) {
      ctx.addIssue({ code: 'custom', path: ['historical_data'], message: NO_BARS });
    }
  });
export type BacktestCodeRequest = z.infer<typeof backtestCodeRequestSchema>;

/** Body of POST /api/backtest/run, the run helper: the server loads the chart's bars itself. */
export const backtestRunRequestSchema = z.object({
  clientId: z.string().max(128).nullish(),
  code: strategyCodeSchema.min(1, 'code is required').transform(storableText),
  symbol: identifierSchema(64, 'symbol is required'),
  period: identifierSchema(32, 'period is required'),
  limit: integerText('limit')
    .pipe(
      z
        .number()
        .int()
        .min(1, 'limit must be at least 1')
        .max(MAX_SERVER_LOADED_BARS, `limit must be at most ${MAX_SERVER_LOADED_BARS}`),
    )
    .optional(),
  historical_data: bodyBarsSchema.optional(),
  filename: filenameSchema,
  strategy_name: optionalNameSchema(100).nullish(),
  initial_capital: initialCapitalSchema,
  /** More feeds besides symbol/period, loaded over the span of its bars (see feedsAround). */
  feeds: backtestFeedsSchema.optional(),
});
export type BacktestRunRequest = z.infer<typeof backtestRunRequestSchema>;

/** Body of POST /api/strategy-results/. With `run_id` the run's own stored figures are kept. */
export const saveResultRequestSchema = z.object({
  strategy_name: strategyNameSchema,
  symbol_id: z.union([identifierSchema(64), z.number().transform(String)]),
  // Deals, performance and error are stored as they come, made storable (no NUL, no lone
  // surrogate: PostgreSQL's jsonb and text refuse them).
  deals: z
    .array(z.record(z.string(), z.unknown()))
    .max(MAX_TRADE_RECORDS, `deals must have at most ${MAX_TRADE_RECORDS} entries`)
    .transform(storableJson)
    .optional(),
  performance: z.record(z.string(), z.unknown()).transform(storableJson).nullish(),
  error: freeTextSchema(64 * 1024).nullish(),
  run_id: z.uuid('run_id must be a run id').nullish(),
  /** A run on several feeds: each instrument's figures (`performance` is the portfolio's). */
  per_symbol: z
    .record(identifierSchema(64), z.record(z.string(), z.unknown()))
    .refine((bySymbol) => Object.keys(bySymbol).length <= MAX_FEEDS, {
      message: `per_symbol must have at most ${MAX_FEEDS} instruments`,
    })
    .transform(storableJson)
    .nullish(),
  /** A run on several feeds: the feeds it ran on, in order. */
  feeds: z
    .array(
      z.object({
        symbol_id: identifierSchema(64),
        period: identifierSchema(32),
        bar_count: z.number().int().nonnegative().optional(),
      }),
    )
    .max(MAX_FEEDS, `feeds must have at most ${MAX_FEEDS} entries`)
    .nullish(),
});
export type SaveResultRequest = z.infer<typeof saveResultRequestSchema>;

/** Query of GET /api/strategy-results/{strategy}. */
export const resultsQuerySchema = z.object({
  symbol_id: identifierSchema(64).optional(),
  ...pageQuerySchema({ max: 100, default: 10 }).shape,
});
export type ResultsQuery = z.infer<typeof resultsQuerySchema>;

/** Path parameters naming a strategy: /api/strategies/{name}, /api/strategy-results/{strategy}. */
export const strategyNameParamsSchema = z.object({ name: strategyNameSchema });

/** A client id of the log socket /ws/{clientId} and of runs. */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Deals of one page of GET /api/strategy-results/{strategy}/{id}/deals, at most. */
export const MAX_RESULT_DEALS_PAGE = 1000;

/** Query of GET /api/strategy-results/{strategy}/{id}/deals: a page of the result's deals. */
export const resultDealsQuerySchema = pageQuerySchema({
  max: MAX_RESULT_DEALS_PAGE,
  default: 100,
  maxSkip: MAX_TRADE_RECORDS,
});
export type ResultDealsQuery = z.infer<typeof resultDealsQuerySchema>;
