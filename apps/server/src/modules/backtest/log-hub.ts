import { z } from 'zod';
import { LOG_LINE_CHANNEL, type Broker } from '../gateway/broker.ts';

/** What the hub needs of a WebSocket. */
export type LogSocket = {
  send: (text: string) => void;
  close: (code: number, reason: string) => void;
  readonly bufferedAmount: number;
};

/** The bounds of the log sockets (docs/architecture.md, "Log socket bounds"). */
export type LogSocketLimits = {
  /**
   * Bytes a socket may hold unsent (the client does not read): past this the socket is cut
   * with SLOW_READER_CLOSE rather than buffering more, so that memory stays bounded.
   */
  maxBufferedBytes: number;
  /** Open log sockets of one user, all client ids together. */
  maxPerUser: number;
  /** Open log sockets of one user's client id (tabs showing the same editor). */
  maxPerClient: number;
};

export const DEFAULT_LOG_SOCKET_LIMITS: LogSocketLimits = {
  maxBufferedBytes: 1024 * 1024,
  maxPerUser: 16,
  maxPerClient: 4,
};

/** The close of a socket that stopped reading (the live gateway's 3008 "slow"). */
export const SLOW_READER_CLOSE = { code: 3008, reason: 'slow' } as const;
/** The close of a socket over a cap (when the upgrade's own check was overtaken). */
export const TOO_MANY_CLOSE = { code: 1008, reason: 'too many log sockets' } as const;

// a printed line between nodes (LOG_LINE_CHANNEL)
const relayedLineSchema = z.object({
  u: z.number().int(),
  c: z.string(),
  l: z.string(),
});

/**
 * The log sockets `/ws/{clientId}` of each user, by client id. With a relay (the node's
 * broker), a line printed on one node reaches the user's sockets on every node: a live run
 * on a worker, a backtest on the API node the editor's socket is not connected to.
 */
export class LogHub {
  private readonly sockets = new Map<string, Set<LogSocket>>();
  private readonly perUser = new Map<number, number>();
  private readonly stopRelay: () => void;

  constructor(
    readonly limits: LogSocketLimits = DEFAULT_LOG_SOCKET_LIMITS,
    private readonly relay: Broker | null = null,
  ) {
    this.stopRelay =
      relay?.listen(({ channel, data }) => {
        if (channel !== LOG_LINE_CHANNEL) return;
        const parsed = relayedLineSchema.safeParse(data);
        if (parsed.success) this.deliver(parsed.data.u, parsed.data.c, parsed.data.l);
      }) ?? (() => {});
  }

  /** Stops hearing lines of other nodes. */
  close(): void {
    this.stopRelay();
  }

  private static key(userId: number, clientId: string): string {
    return `${userId}\u0000${clientId}`;
  }

  /** Why one more socket of this user's client id is refused, or null when it may open. */
  refusal(userId: number, clientId: string): string | null {
    if ((this.perUser.get(userId) ?? 0) >= this.limits.maxPerUser) {
      return `Too many log sockets: at most ${this.limits.maxPerUser} per user`;
    }
    if (this.count(userId, clientId) >= this.limits.maxPerClient) {
      return `Too many log sockets: at most ${this.limits.maxPerClient} per client id`;
    }
    return null;
  }

  /**
   * Registers a socket; call the returned function when it closes. Over a cap the socket is
   * closed at once (TOO_MANY_CLOSE) and null returned.
   */
  add(userId: number, clientId: string, socket: LogSocket): (() => void) | null {
    if (this.refusal(userId, clientId) !== null) {
      closeQuietly(socket, TOO_MANY_CLOSE);
      return null;
    }
    const key = LogHub.key(userId, clientId);
    let set = this.sockets.get(key);
    if (!set) {
      set = new Set();
      this.sockets.set(key, set);
    }
    set.add(socket);
    this.perUser.set(userId, (this.perUser.get(userId) ?? 0) + 1);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      const current = this.sockets.get(key);
      current?.delete(socket);
      if (current?.size === 0) this.sockets.delete(key);
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    };
  }

  /**
   * Sends one line to every socket of this user's client id, on every node when there is a
   * relay (in-process: at once, inside this call).
   */
  publish(userId: number, clientId: string | null, line: string): void {
    if (clientId === null) return;
    if (this.relay) this.relay.publish(LOG_LINE_CHANNEL, { u: userId, c: clientId, l: line });
    else this.deliver(userId, clientId, line);
  }

  /**
   * Sends one line to this node's sockets of the user's client id. A socket whose unsent
   * bytes would pass the bound is cut (SLOW_READER_CLOSE); the others are not held back.
   */
  private deliver(userId: number, clientId: string, line: string): void {
    const set = this.sockets.get(LogHub.key(userId, clientId));
    if (!set) return;
    const bytes = Buffer.byteLength(line);
    for (const socket of [...set]) {
      if (socket.bufferedAmount + bytes > this.limits.maxBufferedBytes) {
        // its close handler unregisters it; until then it gets nothing more
        set.delete(socket);
        closeQuietly(socket, SLOW_READER_CLOSE);
        continue;
      }
      try {
        socket.send(line);
      } catch {
        // a socket closing meanwhile; its close handler removes it
      }
    }
  }

  /** Sockets open for this user's client id (tests wait for it). */
  count(userId: number, clientId: string): number {
    return this.sockets.get(LogHub.key(userId, clientId))?.size ?? 0;
  }

  /** Sockets open for this user. */
  countOfUser(userId: number): number {
    return this.perUser.get(userId) ?? 0;
  }
}

function closeQuietly(socket: LogSocket, how: { code: number; reason: string }): void {
  try {
    socket.close(how.code, how.reason);
  } catch {
    // already gone
  }
}
