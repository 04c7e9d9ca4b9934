import { alertLogEntrySchema, alertSchema, type Alert, type AlertLogEntry } from '@ct/domain';
import type { AlertLogRow, AlertRow } from '../../db/schema.ts';

const seconds = (ms: number) => Math.floor(ms / 1000);
const secondsOrNull = (ms: number | null) => (ms === null ? null : seconds(ms));

/** An alert row as the API answers it (times in epoch seconds). */
export function alertOf(row: AlertRow): Alert {
  return alertSchema.parse({
    id: row.id,
    symbol_id: row.symbol,
    kind: row.kind,
    condition: row.condition,
    level: row.level,
    upper: row.upper,
    lower: row.lower,
    drawing_id: row.drawingId,
    indicator: row.indicator,
    period: row.period,
    frequency: row.frequency,
    expires_at: secondsOrNull(row.expiresAt),
    message: row.message,
    webhook_url: row.webhookUrl,
    status: row.status,
    fired_count: row.firedCount,
    last_fired_at: secondsOrNull(row.lastFiredAt),
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  });
}

export function logEntryOf(row: AlertLogRow): AlertLogEntry {
  return alertLogEntrySchema.parse({
    id: row.id,
    alert_id: row.alertId,
    symbol_id: row.symbol,
    kind: row.kind,
    condition: row.condition,
    price: row.price,
    time: seconds(row.tickTime),
    message: row.message,
    webhook:
      row.webhookUrl === null
        ? null
        : {
            url: row.webhookUrl,
            state: row.webhookState ?? 'pending',
            attempts: row.webhookAttempts,
          },
  });
}
