import { alertEventSchema, alertsChannel } from '@ct/domain';
import { useEffect } from 'react';
import { isChildFrame } from '../../realtime/connection';
import { sharedPrivateChannel } from '../../realtime/privateChannel';
import { useAuthStore } from '../auth';
import { fetchAlertsLiveToken } from './api';
import { applyAlertEvent, reloadAlerts } from './queries';

/*
 * Fired alerts come live on `alerts:{userId}` (joined on the page's one live connection with
 * the channel's own tokens, as the drawings channel is); each event carries the alert and its
 * log entry.
 */
export function handleAlertPublication(data: unknown): void {
  const parsed = alertEventSchema.safeParse(data);
  if (parsed.success) applyAlertEvent(parsed.data);
}

const joinAlerts = sharedPrivateChannel();

/** Keeps the user's alert channel joined while a chart or the Alerts panel is mounted. */
export function useAlertsLive(): void {
  const userId = useAuthStore((s) => s.userId);
  const loggedIn = useAuthStore((s) => s.isLoggedIn);
  useEffect(() => {
    if (!userId || !loggedIn || isChildFrame()) return;
    return joinAlerts(userId, {
      userId,
      channel: alertsChannel(userId),
      fetchTokens: () => fetchAlertsLiveToken(),
      onPublication: handleAlertPublication,
      onSubscribed: () => reloadAlerts(),
      errorMessage: 'Alerts channel error',
    });
  }, [userId, loggedIn]);
}
