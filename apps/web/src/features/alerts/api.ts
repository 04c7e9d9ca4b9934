import {
  alertListSchema,
  alertLogSchema,
  alertSchema,
  deletedAlertSchema,
  liveTokenSchema,
  type Alert,
  type AlertLog,
  type createAlertBodySchema,
  type LiveToken,
  type updateAlertBodySchema,
} from '@ct/domain';
import type { z } from 'zod';
import { http } from '../../api/client';

export type CreateAlertRequest = z.input<typeof createAlertBodySchema>;
export type UpdateAlertRequest = z.input<typeof updateAlertBodySchema>;

/** The user's alerts, newest first (`GET /api/alerts`). */
export async function fetchAlerts(): Promise<Alert[]> {
  return (await http.get('/api/alerts', { schema: alertListSchema, noCache: true })).alerts;
}

export function fetchAlertLog(limit = 50): Promise<AlertLog> {
  return http.get('/api/alerts/log', { params: { limit }, schema: alertLogSchema, noCache: true });
}

export function createAlert(body: CreateAlertRequest): Promise<Alert> {
  return http.post('/api/alerts', body, { schema: alertSchema });
}

export function updateAlert(id: number, body: UpdateAlertRequest): Promise<Alert> {
  return http.patch(`/api/alerts/${id}`, body, { schema: alertSchema });
}

export async function deleteAlert(id: number): Promise<void> {
  await http.delete(`/api/alerts/${id}`, { schema: deletedAlertSchema });
}

/** Tokens of the user's alert channel `alerts:{userId}`. */
export function fetchAlertsLiveToken(): Promise<LiveToken> {
  return http.get('/api/alerts/live-token', { noCache: true, schema: liveTokenSchema });
}
