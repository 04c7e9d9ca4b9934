import { isInternalChannel, type Broker, type PublicationListener } from './broker.ts';

/*
 * Publishing to a Centrifugo cluster instead of (or next to) our own gateway: the broker
 * interface the feed and the trading engine already publish through, sent on to Centrifugo's
 * HTTP API (`POST {api}/publish`, header `X-API-Key`, body `{ channel, data }`, answer
 * `{ result: {} }` or `{ error: { code, message } }`). The browser connects to Centrifugo
 * unchanged: channels, publication data and tokens are the same (docs/operations.md).
 *
 * One request per publication, on keep-alive connections. Publications of one channel are
 * sent one after the other, so a channel's ticks arrive in order; different channels go in
 * parallel, at most `maxInFlight` at once. A bounded queue (`maxQueued`) keeps a Centrifugo
 * outage from growing memory: past it, the channel's oldest queued publication is dropped
 * (for ticks, the newer price supersedes it) and counted.
 */

export type CentrifugoPublisherOptions = {
  /** The API's base URL, e.g. `http://centrifugo:8000/api` (CENTRIFUGO_API_URL). */
  apiUrl: string;
  /** CENTRIFUGO_API_KEY (Centrifugo's `http_api.key`). */
  apiKey: string;
  maxInFlight?: number;
  maxQueued?: number;
  /** Per request. */
  timeoutMs?: number;
  /** Where failures are reported (at most one line per `warnEveryMs`). */
  warn?: (message: string) => void;
  warnEveryMs?: number;
};

export type PublisherStats = { sent: number; failed: number; dropped: number; queued: number };

type Pending = { channel: string; body: string };

export class CentrifugoPublisher implements Broker {
  private readonly listeners = new Set<PublicationListener>();
  private readonly url: string;
  /** Queued publications per channel, oldest first. */
  private readonly queues = new Map<string, Pending[]>();
  /** Channels with queued publications and no request in flight, in arrival order. */
  private readonly ready = new Set<string>();
  private readonly busy = new Set<string>();
  private queuedTotal = 0;
  private readonly stats = { sent: 0, failed: 0, dropped: 0 };
  private lastWarnAt = Number.NEGATIVE_INFINITY;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly options: CentrifugoPublisherOptions) {
    this.url = `${options.apiUrl.replace(/\/+$/, '')}/publish`;
  }

  private get maxInFlight(): number {
    return this.options.maxInFlight ?? 16;
  }

  private get maxQueued(): number {
    return this.options.maxQueued ?? 10_000;
  }

  /** Delivers to local listeners at once and queues the HTTP publish. */
  publish(channel: string, data: unknown): void {
    for (const listener of this.listeners) listener({ channel, data });
    // the nodes' own messages (a session's end, printed lines) are not Centrifugo's
    if (this.closed || isInternalChannel(channel)) return;
    let queue = this.queues.get(channel);
    if (!queue) {
      queue = [];
      this.queues.set(channel, queue);
    }
    if (this.queuedTotal >= this.maxQueued) {
      // a full queue: this channel's oldest waiting publication makes room, else this one
      if (queue.length === 0) {
        this.stats.dropped += 1;
        this.report('queue full: a publication was dropped');
        return;
      }
      queue.shift();
      this.queuedTotal -= 1;
      this.stats.dropped += 1;
      this.report('queue full: a publication was dropped');
    }
    queue.push({ channel, body: JSON.stringify({ channel, data }) });
    this.queuedTotal += 1;
    if (!this.busy.has(channel)) this.ready.add(channel);
    this.pump();
  }

  listen(listener: PublicationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Counts since start; `queued` is what waits now. */
  snapshot(): PublisherStats {
    return { ...this.stats, queued: this.queuedTotal };
  }

  /** Resolves once nothing is queued or in flight (shutdown, tests). */
  whenIdle(): Promise<void> {
    if (this.queuedTotal === 0 && this.busy.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Refuses further publications; what is queued is still sent (await `whenIdle`). */
  close(): void {
    this.closed = true;
  }

  private pump(): void {
    while (this.busy.size < this.maxInFlight && this.ready.size > 0) {
      const channel = this.ready.values().next().value as string;
      this.ready.delete(channel);
      const next = this.queues.get(channel)?.shift();
      if (!next) continue;
      this.queuedTotal -= 1;
      this.busy.add(channel);
      void this.send(next).finally(() => {
        this.busy.delete(channel);
        const queue = this.queues.get(channel);
        if (queue && queue.length > 0) this.ready.add(channel);
        else this.queues.delete(channel);
        this.pump();
        if (this.queuedTotal === 0 && this.busy.size === 0) {
          for (const resolve of this.idleWaiters.splice(0)) resolve();
        }
      });
    }
  }

  private async send(pending: Pending): Promise<void> {
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': this.options.apiKey },
        body: pending.body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const answer = JSON.parse(text) as { error?: { code?: number; message?: string } };
      if (answer.error) {
        throw new Error(`error ${answer.error.code ?? '?'}: ${answer.error.message ?? ''}`);
      }
      this.stats.sent += 1;
    } catch (error) {
      this.stats.failed += 1;
      this.report(`publish to ${pending.channel} failed: ${(error as Error).message}`);
    }
  }

  private report(message: string): void {
    const now = Date.now();
    if (now - this.lastWarnAt < (this.options.warnEveryMs ?? 10_000)) return;
    this.lastWarnAt = now;
    this.options.warn?.(`Centrifugo publisher: ${message} (${JSON.stringify(this.snapshot())})`);
  }
}

/**
 * The broker a node uses when CENTRIFUGO_API_URL is set: every publication goes through
 * `inner` as before (the node's own listeners: the trigger index refresh, our gateway) and,
 * once, from the node where it happened, to Centrifugo.
 */
export function alsoToCentrifugo(inner: Broker, publisher: CentrifugoPublisher): Broker {
  return {
    publish(channel, data) {
      inner.publish(channel, data);
      publisher.publish(channel, data);
    },
    listen: (listener) => inner.listen(listener),
  };
}
