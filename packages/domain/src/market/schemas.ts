import { z } from 'zod';
import { freeTextSchema, identifierSchema, integerInputSchema } from '../api/text.ts';

/** Most bars one kline call returns. */
export const KLINE_MAX_LIMIT = 1000;
/** Bars of the latest-bars call and of a history page when `limit` is absent (spec section 9). */
export const KLINE_LATEST_LIMIT = 500;
export const KLINE_HISTORY_LIMIT = 300;

const integerText = integerInputSchema;

/** Query of GET /trading/kline/lists. `last_id` pages back: bars strictly older than it. */
export const klineQuerySchema = z.object({
  symbol: identifierSchema(64),
  cycel: identifierSchema(32),
  last_id: integerText('last_id').optional(),
  limit: integerText('limit')
    .pipe(
      z
        .number()
        .int()
        .min(1, 'limit must be at least 1')
        .max(KLINE_MAX_LIMIT, `limit must be at most ${KLINE_MAX_LIMIT}`),
    )
    .optional(),
});
export type KlineQuery = z.infer<typeof klineQuerySchema>;

/** A kline bar as the kline call sends it; `id` and `ctm` are the bar's start in epoch seconds. */
export const klineSchema = z.object({
  id: z.number().int(),
  ctm: z.number().int(),
  ctmFmt: z.string(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
});
export type Kline = z.infer<typeof klineSchema>;

/** Body of POST /trading/symbol/cache: comma-joined symbols. */
export const symbolCacheRequestSchema = z.object({
  channel: z.union([z.number(), z.string()]).optional(),
  device: z.union([z.number(), z.string()]).optional(),
  symbols: identifierSchema(4096, 'symbols is required'),
});

export const symbolCacheEntrySchema = z.object({
  symbol: z.string(),
  bid: z.number(),
  ask: z.number(),
});
export type SymbolCacheEntry = z.infer<typeof symbolCacheEntrySchema>;

/**
 * The live price message of `public:{symbol}` (spec section 3): `entry` '0' is the bid
 * (buy side), '1' the offer; `tm` is epoch milliseconds.
 */
export const livePriceMessageSchema = z.object({
  price: z.number(),
  size: z.number(),
  tm: z.number(),
  entry: z.string(),
  strike: z.number(),
});
export type LivePriceMessage = z.infer<typeof livePriceMessageSchema>;

/** Body of POST /api/market/import: a CSV file's text for an instrument of the user's own. */
export const csvImportRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(24)
    .regex(/^[A-Za-z0-9_-]+$/, 'name may hold letters, digits, _ and - only'),
  csv: freeTextSchema(Number.MAX_SAFE_INTEGER, 1, 'csv is required'),
});
/** Path parameters of DELETE /api/market/imports/{symbol}. */
export const importSymbolParamsSchema = z.object({ symbol: identifierSchema(64) });

export type CsvImportRequest = z.infer<typeof csvImportRequestSchema>;

/**
 * Body of POST /api/test/market/quote (test-only, MARKET_TEST_CONTROL=1): the quote an
 * instrument is pinned at until released; both prices on its tick, ask at least bid.
 */
export const testQuoteRequestSchema = z
  .object({
    symbol: identifierSchema(64, 'symbol is required'),
    bid: z.number().positive(),
    ask: z.number().positive(),
  })
  .refine((q) => q.ask >= q.bid, { message: 'ask must not be below bid', path: ['ask'] });
export type TestQuoteRequest = z.infer<typeof testQuoteRequestSchema>;
