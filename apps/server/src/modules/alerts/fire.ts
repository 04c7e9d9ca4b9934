import { randomBytes } from 'node:crypto';
import {
  toEpochSec,
  alertsChannel,
  renderAlertMessage,
  type AlertEvent,
  type WebhookBody,
} from '@ct/domain';
import type { AlertLogRow, AlertRow } from '../../db/schema.ts';
import type { AlertContext, FiredAlert } from './context.ts';
import { ensureSecret, fireAlert, insertLog, recordAttempt } from './store.ts';
import { alertOf, logEntryOf } from './views.ts';

export type { FiredAlert } from './context.ts';
import { callWebhook, deliverWithRetries, signatureOf } from './webhooks.ts';

/** The message of an alert saved without one. */
export const DEFAULT_ALERT_MESSAGE = '{{symbol}}: alert {{alert}} fired at {{price}}';

/**
 * The single place where a fired alert goes beyond its log entry and the user's live
 * channel: the user's notifications are recorded from here.
 */
export function onAlertFired(ctx: AlertContext, fired: FiredAlert): void {
  ctx
    .onFired?.(fired)
    .catch((error: unknown) =>
      ctx.log.warn({ err: error, alert: fired.alert.id }, 'alert notification failed'),
    );
}

/** A new random secret for signing webhook bodies. */
export const newWebhookSecret = () => randomBytes(32).toString('hex');

/** What a fire is judged on: the side it moves from and to, or the closed bar it is for. */
export type FireGuard = { side: number | null; to: number | null } | { bar: number };

/** One fire the engine judged: the alert (as it held it), what guards it, and where it fired. */
export type FireRequest = {
  target: { id: number; version: number; userId: number };
  guard: FireGuard;
  at: { price: number; tickTime: number; bar: number };
};

/**
 * Records the fires of one tick in one transaction: for each, if the row still matches what
 * the engine judged (the same version, still active, the side it moved from, or a newer
 * bar), the alert's counters and status, and a log entry. After the commit each fired
 * user's channel gets `alert_fired`, `onAlertFired` runs, and the webhook (if any) is called
 * in the background. Answers, in the order asked, the alert row as it is now, or undefined
 * when the row no longer matched (another feed fired it first, or it changed).
 */
export async function fireMany(
  ctx: AlertContext,
  deliveries: Deliveries,
  requests: readonly FireRequest[],
): Promise<(AlertRow | undefined)[]> {
  if (requests.length === 0) return [];
  const now = ctx.now();
  const results = await ctx.db.transaction(async (tx) => {
    const done: ({ row: AlertRow; log: AlertLogRow } | undefined)[] = [];
    for (const { target, guard, at } of requests) {
      const row = await fireAlert(tx, {
        id: target.id,
        version: target.version,
        guard,
        bar: at.bar,
        now,
      });
      if (!row) {
        done.push(undefined);
        continue;
      }
      const message = renderAlertMessage(row.message === '' ? DEFAULT_ALERT_MESSAGE : row.message, {
        symbol: row.symbol,
        price: String(at.price),
        time: new Date(at.tickTime).toISOString(),
        alert: String(row.id),
      });
      const log = await insertLog(tx, {
        userId: row.userId,
        alertId: row.id,
        symbol: row.symbol,
        kind: row.kind,
        condition: row.condition,
        price: at.price,
        tickTime: at.tickTime,
        firedAt: now,
        message,
        webhookUrl: row.webhookUrl,
        webhookState: row.webhookUrl === null ? null : 'pending',
      });
      done.push({ row, log });
    }
    return done;
  });
  results.forEach((result, i) => {
    if (result) announce(ctx, deliveries, result.row, result.log, requests[i]!.at);
  });
  return results.map((result) => result?.row);
}

/** After a fire's commit: the user's channel, the notification, the webhook. */
function announce(
  ctx: AlertContext,
  deliveries: Deliveries,
  row: AlertRow,
  log: AlertLogRow,
  at: { price: number; tickTime: number },
): void {
  const fired: FiredAlert = { userId: row.userId, alert: alertOf(row), entry: logEntryOf(log) };
  const event: AlertEvent = { type: 'alert_fired', alert: fired.alert, entry: fired.entry };
  ctx.broker.publish(alertsChannel(row.userId), event);
  onAlertFired(ctx, fired);
  if (row.webhookUrl !== null) {
    const body: WebhookBody = {
      alert: { id: row.id, kind: fired.alert.kind, condition: fired.alert.condition },
      symbol: row.symbol,
      price: at.price,
      time: toEpochSec(at.tickTime),
      message: log.message,
    };
    deliveries.start(row.userId, log.id, row.webhookUrl, JSON.stringify(body));
  }
}

/**
 * Webhook deliveries running in the background: each retried within its bound, each attempt
 * written to its log entry. `close` stops the retries that wait (the app closes).
 */
export class Deliveries {
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly ctx: AlertContext) {}

  start(userId: number, logId: number, url: string, body: string): void {
    const { ctx } = this;
    const work = (async () => {
      const secret = await ensureSecret(ctx.db, userId, newWebhookSecret, ctx.now());
      const signature = signatureOf(secret, body);
      await deliverWithRetries(
        () =>
          callWebhook(url, body, signature, {
            allow: ctx.allow,
            timeoutMs: ctx.settings.webhookTimeoutMs,
            maxBytes: ctx.settings.webhookMaxBytes,
          }),
        (attempt, state) =>
          recordAttempt(
            ctx.db,
            logId,
            attempt,
            this.closed && state === 'pending' ? 'failed' : state,
          ),
        ctx.settings,
        {
          now: ctx.now,
          sleep: (ms) => (this.closed ? Promise.reject(new Error('closed')) : ctx.sleep(ms)),
        },
      );
    })().catch((error: unknown) => {
      if (!this.closed) ctx.log.error({ err: error, logId }, 'alert webhook delivery failed');
    });
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** Resolves when every delivery running now has ended (tests). */
  async whenDone(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  close(): void {
    this.closed = true;
  }
}
