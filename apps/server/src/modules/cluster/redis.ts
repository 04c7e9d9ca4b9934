import { Redis, type RedisOptions } from 'ioredis';

/** What the cluster's Redis parts log (a Fastify or pino logger fits). */
export type ClusterLog = {
  info: (details: Record<string, unknown>, message: string) => void;
  warn: (details: Record<string, unknown>, message: string) => void;
  error: (details: Record<string, unknown>, message: string) => void;
};

type Handler = (message: string) => void;

/**
 * ioredis options of REDIS_URL: `redis://[:password@]host:port[/db]`, `rediss://…` (TLS),
 * or `unix:///path/to/redis.sock` (a Unix socket, which ioredis takes as `path`).
 */
export function redisOptions(url: string): { url: string } | RedisOptions {
  if (url.startsWith('unix://')) return { path: decodeURIComponent(url.slice('unix://'.length)) };
  return { url };
}

function connect(url: string, name: string, more: RedisOptions = {}): Redis {
  const options = redisOptions(url);
  const common: RedisOptions = {
    connectionName: name,
    // reconnect for ever, backing off to 2 s: a Redis restart heals without a node restart
    retryStrategy: (times) => Math.min(times * 100, 2000),
    maxRetriesPerRequest: 3,
    ...more,
  };
  return 'url' in options && typeof options.url === 'string'
    ? new Redis(options.url, common)
    : new Redis({ ...options, ...common });
}

/**
 * Two Redis connections of a node: one publishes and runs commands, one only listens
 * (a subscribed connection can do nothing else). Messages published on one connection
 * reach every listener in the order they were published.
 */
export class RedisLink {
  private readonly handlers = new Map<string, Set<Handler>>();
  private publishErrors = 0;

  private constructor(
    readonly commands: Redis,
    private readonly subscriber: Redis,
    private readonly log: ClusterLog,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) {
        try {
          handler(message);
        } catch (error) {
          this.log.error({ err: error, channel }, 'redis: a message handler failed');
        }
      }
    });
    for (const connection of [commands, subscriber]) {
      // ioredis reconnects by itself; without a listener an error event would throw
      connection.on('error', (error: Error) => {
        this.log.warn({ err: error.message }, 'redis: connection error');
      });
    }
  }

  /** Connects both connections; rejects when Redis cannot be reached at start. */
  static async open(url: string, log: ClusterLog, name = 'ct'): Promise<RedisLink> {
    // the commands of one event-loop turn leave in one write (auto-pipelining, in their
    // order): a batch of market orders publishes an account event each, one after the other
    const commands = connect(url, `${name}:commands`, { enableAutoPipelining: true });
    const subscriber = connect(url, `${name}:subscriber`);
    try {
      await Promise.all([commands.ping(), subscriber.ping()]);
    } catch (error) {
      commands.disconnect();
      subscriber.disconnect();
      throw new Error(`Redis at ${url} cannot be reached: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return new RedisLink(commands, subscriber, log);
  }

  /** Calls `handler` with every message of `channel`; returns the function that stops it. */
  async on(channel: string, handler: Handler): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.subscriber.subscribe(channel);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  /** Publishes without waiting; a failure is logged (the first, then every 1000th). */
  publish(channel: string, message: string): void {
    this.commands.publish(channel, message).catch((error: unknown) => this.failed(error));
  }

  /** Logs a failed command without flooding the log when Redis is away. */
  failed(error: unknown): void {
    if (this.publishErrors++ % 1000 === 0) {
      this.log.error({ err: (error as Error).message }, 'redis: a command failed');
    }
  }

  /** True when both connections are up (for a readiness check). */
  get ready(): boolean {
    return this.commands.status === 'ready' && this.subscriber.status === 'ready';
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.commands.quit(), this.subscriber.quit()]);
  }
}
