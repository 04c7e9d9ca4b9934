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
