import { toEpochMs } from '@ct/domain';
import { z } from 'zod';
import {
  LOG_LINE_CHANNEL,
  SESSION_ENDED_CHANNEL,
  sessionEndedSchema,
  type Broker,
} from '../gateway/broker.ts';

/** What the hub needs of a WebSocket. */
export type LogSocket = {
  send: (text: string) => void;
  close: (code: number, reason: string) => void;
  readonly bufferedAmount: number;
};

/** The bounds of the log sockets (docs/architecture.md, "Security"). */
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
/**
 * The close of a socket whose login session ended (logout, expiry): the live gateway's 3011
 * `session ended`. The client reconnects; without a live session its upgrade gets a 401.
 */
export const SESSION_ENDED_CLOSE = { code: 3011, reason: 'session ended' } as const;

/** The login session that opened a socket: its end closes the socket. */
export type LogSocketOwner = {
  sessionId: number;
  /** When the session expires, epoch seconds. */
  expiresAt: number;
};

// setTimeout's longest delay (about 24.8 days); a later expiry re-arms
const MAX_TIMER_MS = 2 ** 31 - 1;

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
  /** The sockets each login session opened, and what ends each one's registration. */
  private readonly bySession = new Map<number, Map<LogSocket, () => void>>();
  private readonly stopRelay: () => void;

  constructor(
    readonly limits: LogSocketLimits = DEFAULT_LOG_SOCKET_LIMITS,
    private readonly relay: Broker | null = null,
    private readonly now: () => number = Date.now,
  ) {
    this.stopRelay =
      relay?.listen(({ channel, data }) => {
        if (channel === SESSION_ENDED_CHANNEL) {
          // a logout on any node (the broker carries it, as to the live gateway)
          const ended = sessionEndedSchema.safeParse(data);
          if (ended.success) this.endSession(ended.data.sessionId);
          return;
        }
        if (channel !== LOG_LINE_CHANNEL) return;
        const parsed = relayedLineSchema.safeParse(data);
        if (parsed.success) this.deliver(parsed.data.u, parsed.data.c, parsed.data.l);
      }) ?? (() => {});
  }

  /** Stops hearing lines of other nodes; sockets left open stop waiting for their expiry. */
  close(): void {
    this.stopRelay();
    for (const sockets of [...this.bySession.values()]) {
      for (const forget of [...sockets.values()]) forget();
    }
  }

  /**
   * A login session ended (logout, or revoked): the sockets it opened are closed with
   * SESSION_ENDED_CLOSE and get nothing more, as its live connections get 3011.
   */
  endSession(sessionId: number): void {
    const sockets = this.bySession.get(sessionId);
    if (!sockets) return;
    for (const [socket, forget] of [...sockets]) {
      forget();
      closeQuietly(socket, SESSION_ENDED_CLOSE);
    }
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
   * closed at once (TOO_MANY_CLOSE) and null returned. With an `owner` (the login session
   * that opened it), the session's end or expiry closes it (SESSION_ENDED_CLOSE).
   */
  add(
    userId: number,
    clientId: string,
    socket: LogSocket,
    owner?: LogSocketOwner,
  ): (() => void) | null {
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
    let timer: NodeJS.Timeout | null = null;
    const remove = () => {
      if (removed) return;
      removed = true;
      if (timer) clearTimeout(timer);
      const current = this.sockets.get(key);
      current?.delete(socket);
      if (current?.size === 0) this.sockets.delete(key);
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
      if (owner) {
        const ofSession = this.bySession.get(owner.sessionId);
        ofSession?.delete(socket);
        if (ofSession?.size === 0) this.bySession.delete(owner.sessionId);
      }
    };
    if (owner) {
      let ofSession = this.bySession.get(owner.sessionId);
      if (!ofSession) {
        ofSession = new Map();
        this.bySession.set(owner.sessionId, ofSession);
      }
      ofSession.set(socket, remove);
      // the session's expiry ends the socket too (no request of it will come to notice)
      const arm = () => {
        const left = toEpochMs(owner.expiresAt) - this.now();
        if (left <= 0) {
          remove();
          closeQuietly(socket, SESSION_ENDED_CLOSE);
          return;
        }
        timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
        timer.unref();
      };
      arm();
    }
    return removed ? null : remove;
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
