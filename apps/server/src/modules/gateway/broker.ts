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
