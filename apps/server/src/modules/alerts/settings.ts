import { z } from 'zod';
import { isWebhookAllowEntry } from './ssrf.ts';

/** The bounds of alerts and webhooks (config.ts ALERT_*; docs/architecture.md, "Alerts"). */
export type AlertSettings = {
  /** Alerts one user holds at most, whatever their status (ALERTS_MAX_PER_USER). */
  maxPerUser: number;
  /** One webhook call's time limit, connection to the end of the answer (ALERT_WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs: number;
  /** Bytes of a webhook's answer read at most; the rest is cut (ALERT_WEBHOOK_MAX_BYTES). */
  webhookMaxBytes: number;
  /** How long a delivery is retried after its first attempt (ALERT_WEBHOOK_RETRY_MS). */
  webhookRetryMs: number;
  /** The first retry's delay; each next one doubles it (ALERT_WEBHOOK_BACKOFF_MS). */
  webhookBackoffMs: number;
  /**
   * ALERT_WEBHOOK_ALLOW: hosts, addresses or CIDR ranges webhooks may reach although they
   * are private, loopback or link-local (none by default).
   */
  webhookAllow: readonly string[];
  /** Closed bars an indicator alert is computed over. */
  indicatorBars: number;
};

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  maxPerUser: 200,
  webhookTimeoutMs: 5000,
  webhookMaxBytes: 64 * 1024,
  webhookRetryMs: 60_000,
  webhookBackoffMs: 1000,
  webhookAllow: [],
  indicatorBars: 300,
};

/** ALERTS_MAX_PER_USER, ALERT_WEBHOOK_*: the environment this module reads (composed by config.ts). */
export const alertEnv = z.object({
  ALERTS_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000).default(200),
  ALERT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  ALERT_WEBHOOK_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(65_536),
  ALERT_WEBHOOK_RETRY_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  ALERT_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
  ALERT_WEBHOOK_ALLOW: z
    .string()
    .optional()
    .refine(
      (text) =>
        (text ?? '')
          .split(',')
          .filter((t) => t.trim() !== '')
          .every(isWebhookAllowEntry),
      'must be a comma-separated list of hosts, addresses or CIDR ranges',
    ),
});

/** The settings the environment gives; the rest keep their defaults. */
export function alertSettingsFromEnv(e: z.output<typeof alertEnv>): Partial<AlertSettings> {
  return {
    maxPerUser: e.ALERTS_MAX_PER_USER,
    webhookTimeoutMs: e.ALERT_WEBHOOK_TIMEOUT_MS,
    webhookMaxBytes: e.ALERT_WEBHOOK_MAX_BYTES,
    webhookRetryMs: e.ALERT_WEBHOOK_RETRY_MS,
    webhookBackoffMs: e.ALERT_WEBHOOK_BACKOFF_MS,
    webhookAllow: (e.ALERT_WEBHOOK_ALLOW ?? '').split(',').filter((t) => t.trim() !== ''),
  };
}
