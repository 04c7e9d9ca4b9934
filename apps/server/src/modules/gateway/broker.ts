import { z } from 'zod';

/**
 * Fan-out of publications between the parts of the server: the feed (and later the
 * trading engine) publishes, the live gateway delivers. In-process by default; a Redis
 * implementation of the same interface lets several nodes share one feed.
 */
export type Publication = { channel: string; data: unknown };
export type PublicationListener = (publication: Publication) => void;

export interface Broker {
  publish(channel: string, data: unknown): void;
  /** Listens to every publication; returns the function that stops listening. */
  listen(listener: PublicationListener): () => void;
}

/** Synchronous in-process broker: listeners run inside `publish`. */
export class InProcessBroker implements Broker {
  private readonly listeners = new Set<PublicationListener>();

  publish(channel: string, data: unknown): void {
    for (const listener of this.listeners) listener({ channel, data });
  }

  listen(listener: PublicationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Channels between the server's own parts on every node (a session's end, printed lines of
 * strategies): they go through the broker like publications, so that Redis carries them to
 * the other nodes, but never to a client (no token names them) nor to Centrifugo.
 */
export const INTERNAL_CHANNEL_PREFIX = '$node:';
/** `{ sessionId }`: a login session ended (logout); every node ends what its tokens opened. */
export const SESSION_ENDED_CHANNEL = `${INTERNAL_CHANNEL_PREFIX}session-ended`;
export const sessionEndedSchema = z.object({ sessionId: z.number().int() });
/** `{ u, c, l }`: a printed line for user u's log sockets of client id c, on any node. */
export const LOG_LINE_CHANNEL = `${INTERNAL_CHANNEL_PREFIX}log`;

export function isInternalChannel(channel: string): boolean {
  return channel.startsWith(INTERNAL_CHANNEL_PREFIX);
}
