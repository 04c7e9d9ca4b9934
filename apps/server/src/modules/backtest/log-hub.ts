/** What the hub needs of a WebSocket. */
export type LogSocket = {
  send: (text: string) => void;
  readonly bufferedAmount: number;
};

/** A socket further behind than this skips lines until it catches up. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** The log sockets `/ws/{clientId}` of each user, by client id. */
export class LogHub {
  private readonly sockets = new Map<string, Set<LogSocket>>();

  private static key(userId: number, clientId: string): string {
    return `${userId}\u0000${clientId}`;
  }

  /** Registers a socket; call the returned function when it closes. */
  add(userId: number, clientId: string, socket: LogSocket): () => void {
    const key = LogHub.key(userId, clientId);
    let set = this.sockets.get(key);
    if (!set) {
      set = new Set();
      this.sockets.set(key, set);
    }
    set.add(socket);
    return () => {
      const current = this.sockets.get(key);
      if (!current) return;
      current.delete(socket);
      if (current.size === 0) this.sockets.delete(key);
    };
  }

  /** Sends one line to every socket of this user's client id. */
  publish(userId: number, clientId: string | null, line: string): void {
    if (clientId === null) return;
    const set = this.sockets.get(LogHub.key(userId, clientId));
    if (!set) return;
    for (const socket of set) {
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) continue;
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
}
