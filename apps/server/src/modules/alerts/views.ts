import {
  toEpochSec,
  alertLogEntrySchema,
  alertSchema,
  type Alert,
  type AlertLogEntry,
} from '@ct/domain';
import type { AlertLogRow, AlertRow } from '../../db/schema.ts';

const secondsOrNull = (ms: number | null) => (ms === null ? null : toEpochSec(ms));

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
    created_at: toEpochSec(row.createdAt),
    updated_at: toEpochSec(row.updatedAt),
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
    time: toEpochSec(row.tickTime),
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
