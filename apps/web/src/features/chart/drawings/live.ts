import { chartsChannel, drawingEventSchema } from '@ct/domain';
import type { Centrifuge } from 'centrifuge';
import { useEffect } from 'react';
import { forgetLive, identifyLive, isChildFrame, onLiveClient } from '../../../realtime/connection';
import { useAuthStore } from '../../auth/store';
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

function joinDrawingsChannel(client: Centrifuge, userId: string): () => void {
  const connectToken = async () => (await fetchChartsLiveToken()).connectToken;
  identifyLive(userId, connectToken);

  const channel = chartsChannel(userId);
  const existing = client.getSubscription(channel);
  if (existing) client.removeSubscription(existing);
  const sub = client.newSubscription(channel, {
    getToken: async () => (await fetchChartsLiveToken()).subscriptionToken,
  });
  sub.on('publication', (ctx) => handleDrawingPublication(ctx.data));
  // (re)subscribed: changes may have been missed meanwhile, the lists shown are asked again
  sub.on('subscribed', () => reloadAllDrawings());
  sub.on('error', (ctx) => console.warn('Drawings channel error', ctx.error));
  sub.subscribe();

  return () => {
    forgetLive(connectToken);
    sub.unsubscribe();
    sub.removeAllListeners();
    client.removeSubscription(sub);
  };
}

// One join per user, however many charts ask for it.
let joined: { userId: string; holders: number; leave: () => void } | null = null;

function acquire(userId: string): () => void {
  if (joined?.userId !== userId) {
    joined?.leave();
    let leaveChannel: (() => void) | null = null;
    const stopFollowing = onLiveClient((client) => {
      leaveChannel?.();
      leaveChannel = client ? joinDrawingsChannel(client, userId) : null;
    });
    joined = {
      userId,
      holders: 0,
      leave: () => {
        stopFollowing();
        leaveChannel?.();
      },
    };
  }
  const entry = joined;
  entry.holders += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    entry.holders -= 1;
    if (entry.holders === 0 && joined === entry) {
      entry.leave();
      joined = null;
    }
  };
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
