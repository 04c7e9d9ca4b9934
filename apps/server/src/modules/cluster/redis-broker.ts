import type { Broker, PublicationListener } from '../gateway/broker.ts';
import type { RedisLink } from './redis.ts';

/** The Redis channel every live publication of every node goes through. */
export const LIVE_CHANNEL = 'ct:live';

/**
 * What one node sends the others, `{ c, d }`: the channel (a non-empty string) and the
 * publication's data, passed on as it is; null for anything else. Checked by hand: every
 * node reads every publication of every node (each market order's account event, each tick).
 */
function envelopeOf(value: unknown): { c: string; d: unknown } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { c, d } = value as { c?: unknown; d?: unknown };
  return typeof c === 'string' && c.length > 0 ? { c, d } : null;
}

/**
 * The broker of a node sharing Redis (REDIS_URL): a publication of any node (a tick of the
 * active feed, an account event of an API node or of the trigger engine) reaches the
 * listeners of every node, this one included, in the order each node published them.
 * One Redis channel carries them all: every API node delivers every tick anyway, and the
 * gateway drops what none of its clients subscribed to.
 */
export class RedisBroker implements Broker {
  private readonly listeners = new Set<PublicationListener>();
  private stop: (() => void) | null = null;

  private constructor(private readonly link: RedisLink) {}

  static async open(link: RedisLink): Promise<RedisBroker> {
    const broker = new RedisBroker(link);
    broker.stop = await link.on(LIVE_CHANNEL, (message) => broker.deliver(message));
    return broker;
  }

  publish(channel: string, data: unknown): void {
    this.link.publish(LIVE_CHANNEL, JSON.stringify({ c: channel, d: data }));
  }

  listen(listener: PublicationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.stop?.();
    this.listeners.clear();
  }

  private deliver(message: string): void {
    const envelope = envelopeOf(JSON.parse(message));
    if (!envelope) return;
    const publication = { channel: envelope.c, data: envelope.d };
    for (const listener of this.listeners) listener(publication);
  }
}
