import type { Centrifuge } from 'centrifuge';
import { forgetLive, identifyLive, onLiveClient } from './connection';

/** A user's private channel, as a feature follows it (the account channel, the drawings one). */
export type PrivateChannel = {
  userId: string;
  channel: string;
  /** Fresh tokens of the channel's own endpoint: the user's connect token and the channel's. */
  fetchTokens: () => Promise<{ connectToken: string; subscriptionToken: string }>;
  onPublication: (data: unknown) => void;
  /** Each (re)subscription: publications may have been missed meanwhile. */
  onSubscribed: () => void;
  /** What a subscription error is logged as. */
  errorMessage: string;
};

/**
 * Joins a private channel on the main window's live connection: the connection is
 * identified as the user and the channel subscribed, both with tokens the centrifuge client
 * asks for itself (`getToken`) when it needs one: to (re)connect or subscribe, when the
 * gateway says a token expired, and before a token expires. Returns the leave function.
 */
function joinPrivateChannel(client: Centrifuge, spec: PrivateChannel): () => void {
  const connectToken = async () => (await spec.fetchTokens()).connectToken;
  identifyLive(spec.userId, connectToken);

  const existing = client.getSubscription(spec.channel);
  if (existing) client.removeSubscription(existing);
  const sub = client.newSubscription(spec.channel, {
    getToken: async () => (await spec.fetchTokens()).subscriptionToken,
  });
  sub.on('publication', (ctx) => spec.onPublication(ctx.data));
  sub.on('subscribed', () => spec.onSubscribed());
  sub.on('error', (ctx) => console.warn(spec.errorMessage, ctx.error));
  sub.subscribe();

  return () => {
    forgetLive(connectToken);
    sub.unsubscribe();
    sub.removeAllListeners();
    client.removeSubscription(sub);
  };
}

/**
 * One join at a time, however many components hold it: the returned `acquire(key, spec)`
 * joins `spec` on every live client (again after a new one is created) unless the channel
 * of `key` is joined already, leaving the one of another key first, and returns the
 * release; the last release leaves.
 */
export function sharedPrivateChannel(): (key: string, spec: PrivateChannel) => () => void {
  let joined: { key: string; holders: number; leave: () => void } | null = null;

  return (key, spec) => {
    if (joined?.key !== key) {
      joined?.leave();
      let leaveChannel: (() => void) | null = null;
      const stopFollowing = onLiveClient((client) => {
        leaveChannel?.();
        leaveChannel = client ? joinPrivateChannel(client, spec) : null;
      });
      joined = {
        key,
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
  };
}
