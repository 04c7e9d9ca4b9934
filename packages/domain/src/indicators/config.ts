import { z } from 'zod';

/**
 * The indicators a chart can show. Price-pane overlays: SMA, EMA, Bollinger Bands, VWAP;
 * panes of their own: RSI, MACD, volume. One schema for the browser, the server's storage
 * and the API (`/api/charts/indicators`).
 */
export const INDICATOR_KINDS = [
  'sma',
  'ema',
  'bollinger',
  'vwap',
  'rsi',
  'macd',
  'volume',
] as const;
export type IndicatorKind = (typeof INDICATOR_KINDS)[number];

/** At most this many indicators on one chart. */
export const MAX_INDICATORS_PER_CHART = 10;

/** A chart's key: the grid slot it sits in ('0'…'3') or another short name. */
export const chartKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, 'Chart key must be 1–40 letters, digits, - or _');

export const indicatorConfigSchema = z.strictObject({
  /** Unique on its chart; the browser makes it. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
  kind: z.enum(INDICATOR_KINDS),
  /** Named numeric parameters (period, deviation, fast, slow, signal…), each finite. */
  params: z
    .record(z.string().regex(/^[a-zA-Z]{1,20}$/), z.number().finite().min(0).max(10_000))
    .refine((params) => Object.keys(params).length <= 8, 'At most 8 parameters'),
  visible: z.boolean(),
  /** A CSS hex colour, '#rrggbb'. */
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .optional(),
});
export type IndicatorConfig = z.infer<typeof indicatorConfigSchema>;

export const chartIndicatorsSchema = z
  .array(indicatorConfigSchema)
  .max(MAX_INDICATORS_PER_CHART)
  .refine(
    (list) => new Set(list.map((i) => i.id)).size === list.length,
    'Indicator ids must be unique',
  );

/** `PUT /api/charts/indicators/{chartKey}` body and `GET` answer's `indicators`. */
export const chartIndicatorsBodySchema = z.strictObject({ indicators: chartIndicatorsSchema });
export type ChartIndicatorsBody = z.infer<typeof chartIndicatorsBodySchema>;
