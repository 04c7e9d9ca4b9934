import { z } from 'zod';
import { pageQuerySchema } from '../api/paging.ts';
import { freeTextSchema, identifierSchema } from '../api/text.ts';
import { INDICATOR_KINDS, type IndicatorKind } from '../indicators/config.ts';
import { PERIODS } from '../market/periods.ts';
import { ALERT_FREQUENCIES, CHANNEL_CONDITIONS, CROSSING_CONDITIONS } from './rules.ts';

/*
 * Alerts (docs/api.md, "Alerts"): price, channel, drawing and indicator alerts a user keeps
 * on the server, their log of fires and webhook deliveries, and the `alert_fired` event of
 * the user's private channel. Times are epoch seconds.
 */

export const ALERT_KINDS = ['price', 'channel', 'drawing', 'indicator'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_CONDITIONS = [...CROSSING_CONDITIONS, ...CHANNEL_CONDITIONS] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];
/** Active alerts are evaluated; paused ones are kept; fired (once) and expired ones are done. */
export const ALERT_STATUSES = ['active', 'paused', 'fired', 'expired'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Request bodies of the alert calls are at most this many bytes. */
export const ALERTS_BODY_LIMIT_BYTES = 16 * 1024;
/** Longest message of an alert (before its placeholders are replaced). */
export const MAX_ALERT_MESSAGE = 1000;
/** Longest webhook URL. */
export const MAX_WEBHOOK_URL = 2000;
/** Largest page of GET /api/alerts/log. */
export const MAX_ALERT_LOG_PAGE = 200;
export const DEFAULT_ALERT_LOG_PAGE = 50;
/** Response code of an alert call the server cannot act on (HTTP 422). */
export const CODE_ALERTS_UNPROCESSABLE = 42210;

/** The lines each indicator kind draws, by the names its values carry. */
export const INDICATOR_LINES: Readonly<Record<IndicatorKind, readonly string[]>> = {
  sma: ['value'],
  ema: ['value'],
  vwap: ['value'],
  rsi: ['value'],
  volume: ['value'],
  bollinger: ['middle', 'upper', 'lower'],
  macd: ['macd', 'signal', 'histogram'],
};

const priceSchema = z.number().finite().min(-1e12).max(1e12);
const timeSchema = z.number().int().min(0).max(4_102_444_800);

/** One line of one of the chart's indicators (its kind and parameters as the chart has them). */
export const indicatorLineSchema = z
  .strictObject({
    kind: z.enum(INDICATOR_KINDS),
    params: z
      .record(z.string().regex(/^[a-zA-Z]{1,20}$/), z.number().finite().min(0).max(10_000))
      .refine((params) => Object.keys(params).length <= 8, 'At most 8 parameters')
      .default({}),
    line: z.string().max(20).default('value'),
  })
  .superRefine((value, ctx) => {
    if (!INDICATOR_LINES[value.kind].includes(value.line)) {
      ctx.addIssue({
        code: 'custom',
        path: ['line'],
        message: `${value.kind} has the lines ${INDICATOR_LINES[value.kind].join(', ')}`,
      });
    }
  });
export type IndicatorLine = z.infer<typeof indicatorLineSchema>;

/** An indicator condition: a line against a threshold (RSI above 70) or another line (SMA 10 / SMA 20). */
export const indicatorConditionSchema = z
  .strictObject({
    line: indicatorLineSchema,
    threshold: priceSchema.optional(),
    other: indicatorLineSchema.optional(),
  })
  .refine(
    (value) => (value.threshold === undefined) !== (value.other === undefined),
    'indicator: give either threshold or other',
  );
export type IndicatorCondition = z.infer<typeof indicatorConditionSchema>;

const webhookUrlSchema = z
  .string()
  .max(MAX_WEBHOOK_URL, `must be at most ${MAX_WEBHOOK_URL} characters`)
  .pipe(z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }));

const fields = {
  level: priceSchema.optional(),
  upper: priceSchema.optional(),
  lower: priceSchema.optional(),
  drawing_id: z.number().int().positive().max(2_147_483_647).optional(),
  indicator: indicatorConditionSchema.optional(),
  period: z.enum(PERIODS).default('1m'),
  frequency: z.enum(ALERT_FREQUENCIES).default('once'),
  expires_at: timeSchema.nullable().optional(),
  message: freeTextSchema(MAX_ALERT_MESSAGE).optional(),
  webhook_url: webhookUrlSchema.nullable().optional(),
};

/** What an alert's kind needs: its condition's family and the fields it is judged on. */
export type AlertShape = {
  kind: AlertKind;
  condition: AlertCondition;
  level?: number | null;
  upper?: number | null;
  lower?: number | null;
  drawing_id?: number | null;
  indicator?: IndicatorCondition | null;
};

/** The first problem of an alert's shape ('field: message'), or null. */
export function alertShapeProblem(a: AlertShape): string | null {
  const crossing = (CROSSING_CONDITIONS as readonly string[]).includes(a.condition);
  switch (a.kind) {
    case 'price':
      if (!crossing) return 'condition: a price alert is crossing_up, crossing_down or crossing';
      if (a.level === undefined || a.level === null) return 'level: required for a price alert';
      return null;
    case 'channel':
      if (crossing) return 'condition: a channel alert is entering or exiting';
      if (a.upper === undefined || a.upper === null || a.lower === undefined || a.lower === null)
        return 'upper: a channel alert needs upper and lower';
      if (!(a.upper > a.lower)) return 'upper: must be above lower';
      return null;
    case 'drawing':
      if (!crossing) return 'condition: a drawing alert is crossing_up, crossing_down or crossing';
      if (a.drawing_id === undefined || a.drawing_id === null)
        return 'drawing_id: required for a drawing alert';
      return null;
    case 'indicator':
      if (!crossing)
        return 'condition: an indicator alert is crossing_up, crossing_down or crossing';
      if (!a.indicator) return 'indicator: required for an indicator alert';
      return null;
  }
}

/** `POST /api/alerts` body. */
export const createAlertBodySchema = z
  .strictObject({
    symbol_id: identifierSchema(40),
    kind: z.enum(ALERT_KINDS),
    condition: z.enum(ALERT_CONDITIONS),
    ...fields,
  })
  .superRefine((value, ctx) => {
    const problem = alertShapeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type CreateAlertBody = z.infer<typeof createAlertBodySchema>;

/** `PATCH /api/alerts/{id}` body: pause or resume (`status`), or edit; what is absent stays. */
export const updateAlertBodySchema = z
  .strictObject({
    status: z.enum(['active', 'paused']).optional(),
    condition: z.enum(ALERT_CONDITIONS).optional(),
    level: priceSchema.optional(),
    upper: priceSchema.optional(),
    lower: priceSchema.optional(),
    indicator: indicatorConditionSchema.optional(),
    period: z.enum(PERIODS).optional(),
    frequency: z.enum(ALERT_FREQUENCIES).optional(),
    expires_at: timeSchema.nullable().optional(),
    message: freeTextSchema(MAX_ALERT_MESSAGE).optional(),
    webhook_url: webhookUrlSchema.nullable().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'Nothing to change');
export type UpdateAlertBody = z.infer<typeof updateAlertBodySchema>;

/** An alert as the API answers it. */
export const alertSchema = z.object({
  id: z.number().int().positive(),
  symbol_id: z.string(),
  kind: z.enum(ALERT_KINDS),
  condition: z.enum(ALERT_CONDITIONS),
  level: z.number().nullable(),
  upper: z.number().nullable(),
  lower: z.number().nullable(),
  drawing_id: z.number().int().nullable(),
  indicator: indicatorConditionSchema.nullable(),
  period: z.enum(PERIODS),
  frequency: z.enum(ALERT_FREQUENCIES),
  expires_at: z.number().int().nullable(),
  message: z.string(),
  webhook_url: z.string().nullable(),
  status: z.enum(ALERT_STATUSES),
  fired_count: z.number().int().min(0),
  last_fired_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Alert = z.infer<typeof alertSchema>;

/** `GET /api/alerts` answer: newest first. */
export const alertListSchema = z.object({ alerts: z.array(alertSchema) });
export type AlertList = z.infer<typeof alertListSchema>;

/** One webhook call: when, and the HTTP status or why there was none. */
export const webhookAttemptSchema = z.object({
  at: z.number().int(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** A fired alert: the price and time it fired at, its message, its webhook's attempts. */
export const alertLogEntrySchema = z.object({
  id: z.number().int().positive(),
  alert_id: z.number().int().positive(),
  symbol_id: z.string(),
  kind: z.enum(ALERT_KINDS),
  condition: z.enum(ALERT_CONDITIONS),
  price: z.number(),
  /** The tick's time. */
  time: z.number().int(),
  message: z.string(),
  webhook: z
    .object({
      url: z.string(),
      state: z.enum(['pending', 'delivered', 'failed']),
      attempts: z.array(webhookAttemptSchema),
    })
    .nullable(),
});
export type AlertLogEntry = z.infer<typeof alertLogEntrySchema>;

/** `GET /api/alerts/log?skip&limit` answer: newest first. */
export const alertLogSchema = z.object({
  items: z.array(alertLogEntrySchema),
  total: z.number().int().min(0),
});
export type AlertLog = z.infer<typeof alertLogSchema>;

/** `GET /api/alerts/log?skip&limit` query. */
export const alertLogQuerySchema = pageQuerySchema({
  max: MAX_ALERT_LOG_PAGE,
  default: DEFAULT_ALERT_LOG_PAGE,
});

/** `POST /api/alerts/webhook-secret` answer: the new secret, shown this once. */
export const webhookSecretSchema = z.object({ webhook_secret: z.string() });

/** `DELETE /api/alerts/{id}` answer. */
export const deletedAlertSchema = z.object({ deleted: z.number().int().positive() });

/** The user's private live channel of alerts (`alerts:{userId}`). */
export const alertsChannel = (userId: number | string) => `alerts:${userId}`;

/** Publications on `alerts:{userId}`: an alert fired (the alert as it is now and the log entry). */
export const alertEventSchema = z.object({
  type: z.literal('alert_fired'),
  alert: alertSchema,
  entry: alertLogEntrySchema,
});
export type AlertEvent = z.infer<typeof alertEventSchema>;

/** The JSON body a webhook receives (signed: `X-Signature: sha256=<hex HMAC of the body>`). */
export const webhookBodySchema = z.object({
  alert: z.object({
    id: z.number().int(),
    kind: z.enum(ALERT_KINDS),
    condition: z.enum(ALERT_CONDITIONS),
  }),
  symbol: z.string(),
  price: z.number(),
  time: z.number().int(),
  message: z.string(),
});
export type WebhookBody = z.infer<typeof webhookBodySchema>;
