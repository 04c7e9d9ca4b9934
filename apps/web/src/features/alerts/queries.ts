import { formatPrice, type Alert, type AlertEvent } from '@ct/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { alerts as messages } from '../../i18n/defaults/alerts';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import {
  createAlert,
  deleteAlert,
  fetchAlertLog,
  fetchAlerts,
  updateAlert,
  type CreateAlertRequest,
  type UpdateAlertRequest,
} from './api';
import { alertText } from './text';

/*
 * The user's alerts and their log are server state in the query cache: `['alerts']` (the
 * list; the chart's alert lines and the Alerts panel read it) and `['alerts', 'log']`. An
 * action's answer goes into the cache at once; a fire arrives on `alerts:{userId}` (live.ts)
 * with the alert as it is now and its log entry.
 */

export const alertKeys = {
  all: ['alerts'] as const,
  list: ['alerts', 'list'] as const,
  log: ['alerts', 'log'] as const,
};

export const alertsQuery = queryOptions({
  queryKey: alertKeys.list,
  queryFn: fetchAlerts,
  staleTime: 30_000,
});

export function useAlertList(enabled = true) {
  return useQuery({ ...alertsQuery, enabled });
}

export function useAlertLog() {
  return useQuery({ queryKey: alertKeys.log, queryFn: () => fetchAlertLog(), staleTime: 30_000 });
}

const a = messages.alerts;

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function putAlert(alert: Alert): void {
  queryClient.setQueryData<Alert[]>(alertKeys.list, (list) => {
    const rest = (list ?? []).filter((x) => x.id !== alert.id);
    return [alert, ...rest].sort((x, y) => y.id - x.id);
  });
}

function reloadAlerts(): void {
  void queryClient.invalidateQueries({ queryKey: alertKeys.all });
}

/** Saves a new alert; null (and a message) when the server refused it. */
export async function addAlert(body: CreateAlertRequest, tick: number): Promise<Alert | null> {
  try {
    const saved = await createAlert(body);
    putAlert(saved);
    notify.success(
      a.created(
        saved.kind === 'price'
          ? a.createdAt(saved.symbol_id, formatPrice(saved.level ?? 0, tick))
          : alertText(saved),
      ),
    );
    return saved;
  } catch (error) {
    notify.error(`${a.saveFailed}: ${detailOf(error)}`);
    return null;
  }
}

/** Changes an alert (moves its level, pauses or resumes it). */
export async function changeAlert(id: number, body: UpdateAlertRequest): Promise<Alert | null> {
  try {
    const saved = await updateAlert(id, body);
    putAlert(saved);
    return saved;
  } catch (error) {
    notify.error(`${a.saveFailed}: ${detailOf(error)}`);
    reloadAlerts();
    return null;
  }
}

export async function removeAlert(id: number): Promise<void> {
  queryClient.setQueryData<Alert[]>(alertKeys.list, (list) =>
    (list ?? []).filter((x) => x.id !== id),
  );
  try {
    await deleteAlert(id);
  } catch (error) {
    notify.error(`${a.saveFailed}: ${detailOf(error)}`);
    reloadAlerts();
  }
}

/** A fire: the alert as it is now, the log asked again, a toast with the message. */
export function applyAlertEvent(event: AlertEvent): void {
  putAlert(event.alert);
  void queryClient.invalidateQueries({ queryKey: alertKeys.log });
  notify.warning(a.firedToast(event.entry.message));
}

export { reloadAlerts };
