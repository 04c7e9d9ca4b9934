import { randomUUID } from 'node:crypto';
import {
  DISCONNECT,
  ERROR,
  encodePublication,
  parseFrames,
  type Command,
  type Disconnect,
  type ProtocolError,
} from './protocol.ts';

/** What a client session needs from its socket. */
export interface Transport {
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Bytes queued in the socket and not yet sent. */
  bufferedAmount(): number;
}

/** Who a connection is: anonymous (public channels only) or a user. */
export type Identity = { userId: number | null };

export type GatewayPolicy = {
  /** Checks a connect token; absent token → anonymous. */
  authenticate(token: string | undefined): Promise<Identity | ProtocolError>;
  /** May this identity subscribe to this channel (with this subscription token)? */
  authorize(
    identity: Identity,
    channel: string,
    token: string | undefined,
  ): Promise<true | ProtocolError>;
};

export type GatewayOptions = {
  /** Seconds between server pings (the client answers with a pong). */
  pingSeconds: number;
  /** Seconds past a ping after which a silent client is disconnected. */
  pongTimeoutSeconds: number;
  /** Bytes queued for one connection (socket buffer + batch) before it is cut off as slow. */
  maxQueuedBytes: number;
  /** Largest accepted client message in bytes. */
  maxMessageBytes: number;
  maxChannelsPerConnection: number;
};

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  pingSeconds: 25,
  pongTimeoutSeconds: 10,
  maxQueuedBytes: 4 * 1024 * 1024,
  maxMessageBytes: 64 * 1024,
  maxChannelsPerConnection: 256,
};

const VERSION = '1.0.0';

/** One WebSocket connection speaking the Centrifuge client protocol. */
export class ClientSession {
  readonly id = randomUUID();
  private state: 'connecting' | 'connected' | 'closed' = 'connecting';
  private identity: Identity = { userId: null };
  readonly channels = new Set<string>();
  private batch: string[] = [];
  private batchBytes = 0;
  lastSeenAt: number;
  /** Commands are handled one message at a time, in order. */
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly hub: GatewayHub,
    private readonly transport: Transport,
    now: number,
  ) {
    this.lastSeenAt = now;
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  /** A WebSocket message arrived from the client. */
  receive(text: string, now: number): void {
    if (this.state === 'closed') return;
    this.lastSeenAt = now;
    if (Buffer.byteLength(text) > this.hub.options.maxMessageBytes) {
      this.disconnect(DISCONNECT.messageTooBig);
      return;
    }
    const parsed = parseFrames(text);
    if (!parsed.ok) {
      this.disconnect(DISCONNECT.badRequest);
      return;
    }
    this.work = this.work.then(async () => {
      for (const command of parsed.commands) {
        if (this.state === 'closed') return;
        await this.handle(command);
      }
    });
  }

  private async handle(command: Command): Promise<void> {
    const { id } = command;
    const methods = Object.keys(command).filter((key) => key !== 'id');
    if (methods.length === 0) {
      // `{}` is the client's pong; a pong before connect is a protocol error
      if (this.state !== 'connected' || id !== undefined) this.disconnect(DISCONNECT.badRequest);
      return;
    }
    if (id === undefined || methods.length !== 1) {
      this.disconnect(DISCONNECT.badRequest);
      return;
    }
    if (command.connect) {
      if (this.state !== 'connecting') {
        this.disconnect(DISCONNECT.badRequest);
        return;
      }
      const identity = await this.hub.policy.authenticate(command.connect.token);
      if (this.isClosed) return;
      if ('code' in identity) {
        this.disconnect(DISCONNECT.invalidToken);
        return;
      }
      this.identity = identity;
      this.state = 'connected';
      this.hub.attach(this);
      this.enqueue(
        JSON.stringify({
          id,
          connect: {
            client: this.id,
            version: VERSION,
            ping: this.hub.options.pingSeconds,
            pong: true,
          },
        }),
      );
      return;
    }
    if (this.state !== 'connected') {
      this.disconnect(DISCONNECT.badRequest);
      return;
    }
    if (command.subscribe) {
      const { channel, token } = command.subscribe;
      if (this.channels.has(channel)) return this.replyError(id, ERROR.alreadySubscribed);
      if (this.channels.size >= this.hub.options.maxChannelsPerConnection) {
        return this.replyError(id, ERROR.limitExceeded);
      }
      const allowed = await this.hub.policy.authorize(this.identity, channel, token);
      if (this.isClosed) return;
      if (allowed !== true) return this.replyError(id, allowed);
      this.channels.add(channel);
      this.hub.join(this, channel);
      this.enqueue(JSON.stringify({ id, subscribe: {} }));
      return;
    }
    if (command.unsubscribe) {
      const { channel } = command.unsubscribe;
      this.channels.delete(channel);
      this.hub.leave(this, channel);
      this.enqueue(JSON.stringify({ id, unsubscribe: {} }));
      return;
    }
    this.replyError(id, ERROR.methodNotFound);
  }

  private replyError(id: number, error: ProtocolError): void {
    this.enqueue(JSON.stringify({ id, error: { code: error.code, message: error.message } }));
  }

  /** Queues a frame for the next batch; a client too slow to drain its queue is cut off. */
  enqueue(frame: string): void {
    if (this.state === 'closed') return;
    this.batch.push(frame);
    this.batchBytes += frame.length + 1;
    if (this.batchBytes + this.transport.bufferedAmount() > this.hub.options.maxQueuedBytes) {
      this.disconnect(DISCONNECT.slow);
      return;
    }
    this.hub.markDirty(this);
  }

  /** Sends the queued frames as one newline-joined WebSocket message. */
  flush(): void {
    if (this.state === 'closed' || this.batch.length === 0) return;
    const text = this.batch.length === 1 ? (this.batch[0] ?? '') : this.batch.join('\n');
    this.batch = [];
    this.batchBytes = 0;
    try {
      this.transport.send(text);
    } catch {
      this.disconnect(DISCONNECT.serverError);
    }
  }

  disconnect(reason: Disconnect): void {
    if (this.state === 'closed') return;
    this.flush();
    this.state = 'closed';
    this.batch = [];
    this.hub.detach(this);
    try {
      this.transport.close(reason.code, reason.reason);
    } catch {
      // the socket is already gone
    }
  }

  /** The socket closed from the other side. */
  closed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.batch = [];
    this.hub.detach(this);
  }
}

/**
 * The live gateway's core: sessions, channel membership and fan-out. Each publication is
 * encoded once and queued to every subscriber; queues are flushed together on the next
 * turn of the event loop, so frames of one feed tick share one WebSocket message.
 */
export class GatewayHub {
  private readonly sessions = new Set<ClientSession>();
  private readonly channels = new Map<string, Set<ClientSession>>();
  private readonly dirty = new Set<ClientSession>();
  private flushScheduled = false;
  private pingTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly policy: GatewayPolicy,
    readonly options: GatewayOptions = DEFAULT_GATEWAY_OPTIONS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new socket: returns the session that handles it. */
  open(transport: Transport): ClientSession {
    const session = new ClientSession(this, transport, this.now());
    this.sessions.add(session);
    this.startPinging();
    return session;
  }

  attach(session: ClientSession): void {
    this.sessions.add(session);
  }

  detach(session: ClientSession): void {
    this.sessions.delete(session);
    this.dirty.delete(session);
    for (const channel of session.channels) this.leave(session, channel);
  }

  join(session: ClientSession, channel: string): void {
    let members = this.channels.get(channel);
    if (!members) {
      members = new Set();
      this.channels.set(channel, members);
    }
    members.add(session);
  }

  leave(session: ClientSession, channel: string): void {
    const members = this.channels.get(channel);
    if (!members) return;
    members.delete(session);
    if (members.size === 0) this.channels.delete(channel);
  }

  /** Number of sessions subscribed to a channel. */
  subscribers(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }

  get connectionCount(): number {
    return this.sessions.size;
  }

  /** Delivers a publication to the channel's subscribers. */
  publish(channel: string, data: unknown): void {
    const members = this.channels.get(channel);
    if (!members || members.size === 0) return;
    const frame = encodePublication(channel, data);
    for (const session of members) session.enqueue(frame);
  }

  markDirty(session: ClientSession): void {
    this.dirty.add(session);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flushAll());
    }
  }

  private flushAll(): void {
    this.flushScheduled = false;
    const sessions = [...this.dirty];
    this.dirty.clear();
    for (const session of sessions) session.flush();
  }

  private startPinging(): void {
    if (this.pingTimer) return;
    this.pingTimer = setInterval(() => this.pingAll(), this.options.pingSeconds * 1000);
    this.pingTimer.unref();
  }

  /** Sends `{}` to every connected session and cuts off those silent for too long. */
  pingAll(): void {
    const now = this.now();
    const silentLimit = (this.options.pingSeconds + this.options.pongTimeoutSeconds) * 1000;
    for (const session of [...this.sessions]) {
      if (!session.isConnected) {
        // a socket that never sent its connect command
        if (now - session.lastSeenAt > this.options.pongTimeoutSeconds * 1000) {
          session.disconnect(DISCONNECT.badRequest);
        }
      } else if (now - session.lastSeenAt > silentLimit) {
        session.disconnect(DISCONNECT.noPong);
      } else {
        session.enqueue('{}');
      }
    }
  }

  /** Disconnects everyone (server shutdown): clients reconnect later. */
  close(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    for (const session of [...this.sessions]) session.disconnect(DISCONNECT.shutdown);
  }
}
