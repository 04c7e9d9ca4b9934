import { chartsChannel, drawingEventSchema } from '@ct/domain';
import { useEffect } from 'react';
import { isChildFrame } from '../../../realtime/connection';
import { sharedPrivateChannel } from '../../../realtime/privateChannel';
import { useAuthStore } from '../../auth';
import { fetchChartsLiveToken } from './api';
import { applyDrawingEvent, reloadAllDrawings } from './queries';

/*
 * Drawings live between devices: the server publishes every saved or deleted drawing of a
 * user on `charts:{userId}`; the page joins that channel on its one live connection
 * (identified as the user with the channel's own tokens, so no trading account is needed)
 * and patches the instruments' drawing lists ("sockets notify"; the event carries the whole
 * drawing, so nothing is fetched). Child frames have no connection of their own.
 */

/** Takes one publication of the drawings channel; anything else is ignored. */
export function handleDrawingPublication(data: unknown): void {
  const parsed = drawingEventSchema.safeParse(data);
  if (parsed.success) applyDrawingEvent(parsed.data);
}

// One join per user, however many charts ask for it.
const joinDrawings = sharedPrivateChannel();

function acquire(userId: string): () => void {
  return joinDrawings(userId, {
    userId,
    channel: chartsChannel(userId),
    fetchTokens: () => fetchChartsLiveToken(),
    onPublication: handleDrawingPublication,
    // (re)subscribed: changes may have been missed meanwhile, the lists shown are asked again
    onSubscribed: () => reloadAllDrawings(),
    errorMessage: 'Drawings channel error',
  });
}

/** Keeps the user's drawings channel joined while a chart with drawings is mounted. */
export function useDrawingsLive(): void {
  const userId = useAuthStore((s) => s.userId);
  const loggedIn = useAuthStore((s) => s.isLoggedIn);
  useEffect(() => {
    if (!userId || !loggedIn || isChildFrame()) return;
    return acquire(userId);
  }, [userId, loggedIn]);
}
