import { toEpochSec, toEpochMs } from '@ct/domain';
import { randomUUID } from 'node:crypto';
import {
  CommandBudget,
  DEFAULT_COMMAND_LIMITS,
  DEFAULT_REFUSALS,
  TokenBucket,
  type Budget,
  type CommandLimits,
} from './command-budget.ts';
import {
  DISCONNECT,
  ERROR,
  UNSUBSCRIBE,
  encodePublication,
  encodeUnsubscribePush,
  parseFrames,
  type Command,
  type Disconnect,
  type ProtocolError,
} from './protocol.ts';

/** A client's pong: an empty command, alone in its message. */
const PONG = '{}';
const PONG_COMMAND: Command = {};
/** The server's ping: an empty reply; its bytes, shared by every session pinged alone. */
const PING = '{}';
const PING_BYTES = Buffer.from(PING);

/** A command to handle, or to answer 111 (over budget); or the end of a flooding client. */
type Step = { command: Command; refused: boolean } | 'cut off';

/** What a client session needs from its socket. */
export interface Transport {
  /** A text message: the JSON text, or its UTF-8 bytes (shared by every session sending it). */
  send(text: string | Buffer): void;
  close(code: number, reason: string): void;
  /** Bytes queued in the socket and not yet sent. */
  bufferedAmount(): number;
}

/**
 * Who a connection is: anonymous (public channels only) or a user; `sessionId` is the login
 * session its token came from (absent: a token tied to no session, or anonymous).
 */
export type Identity = { userId: number | null; sessionId?: number | null };

/**
 * Until when a token's grant lasts: epoch seconds, or null when it never expires; and the
 * login session that minted the token, whose end ends the grant.
 */
export type Expiry = { expiresAt: number | null; sessionId?: number | null };

export type GatewayPolicy = {
  /** Checks a connect (or refresh) token; absent token → anonymous, never expiring. */
  authenticate(token: string | undefined): Promise<(Identity & Expiry) | ProtocolError>;
  /** May this identity subscribe to this channel (with this subscription token)? */
  authorize(
    identity: Identity,
    channel: string,
    token: string | undefined,
  ): Promise<Expiry | ProtocolError>;
};

export type GatewayOptions = {
  /** Seconds between server pings (the client answers with a pong). */
  pingSeconds: number;
  /** Seconds past a ping after which a silent client is disconnected. */
  pongTimeoutSeconds: number;
  /**
   * Seconds a connection may outlive its token's expiry while the client refreshes it,
   * then it is closed with 3005 (Centrifugo's client_expired_close_delay).
   */
  expiredCloseDelaySeconds: number;
  /**
   * Seconds a subscription may outlive its token's expiry while the client refreshes it,
   * then it gets an unsubscribe push 2501 (Centrifugo's client_expired_sub_close_delay).
   */
  expiredSubCloseDelaySeconds: number;
  /** Bytes queued for one connection (socket buffer + batch) before it is cut off as slow. */
  maxQueuedBytes: number;
  /** Largest accepted client message in bytes. */
  maxMessageBytes: number;
  maxChannelsPerConnection: number;
  /**
   * Commands one WebSocket message may carry (the official client batches `connect` and one
   * `subscribe` per channel); a message with more closes the connection with 3013 unread.
   */
  maxCommandsPerMessage: number;
  /** Commands per connection, by kind (token buckets); one over budget is answered 111. */
  commandLimits: CommandLimits;
  /** Commands over budget a connection may send before it is closed with 3013. */
  refusals: Budget;
};

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  pingSeconds: 25,
  pongTimeoutSeconds: 10,
  expiredCloseDelaySeconds: 25,
  expiredSubCloseDelaySeconds: 25,
  maxQueuedBytes: 4 * 1024 * 1024,
  maxMessageBytes: 64 * 1024,
  maxChannelsPerConnection: 256,
  maxCommandsPerMessage: 300,
  commandLimits: DEFAULT_COMMAND_LIMITS,
  refusals: DEFAULT_REFUSALS,
};

const VERSION = '1.0.0';

/**
 * One WebSocket connection speaking the Centrifuge client protocol. Tokens with an expiry
 * are refreshed by the client (`refresh`, `sub_refresh`) before they run out; what is not
 * refreshed in time is ended by the hub's periodic check (`expire`).
 */
export class ClientSession {
  readonly id = randomUUID();
  private state: 'connecting' | 'connected' | 'closed' = 'connecting';
  private identity: Identity = { userId: null };
  /** When the connect token expires (epoch seconds), null for a connection without one. */
  private expiresAt: number | null = null;
  readonly channels = new Set<string>();
  /** Subscriptions whose token expires, and when (epoch seconds). */
  private readonly channelExpiry = new Map<string, number>();
  /** Subscriptions granted by a token of a login session, and which one. */
  private readonly channelSession = new Map<string, number>();
  private batch: string[] = [];
  private batchBytes = 0;
  lastSeenAt: number;
  /** Commands are handled one message at a time, in order. */
  private work: Promise<void> = Promise.resolve();
  /** Messages of commands received and not yet handled to the end. */
  private pending = 0;
  /** What the client may still send (checked as messages arrive, before any work). */
  private readonly budget: CommandBudget;
  /** Commands over budget it may still send before it is disconnected. */
  private readonly refusals: TokenBucket;
  /** It sent too many: nothing more is read, the close (3013) is on its way. */
  private cutOff = false;
  /** The hub's flush: the turn this session was last reached in, and its channels' subset then. */
  flushTurn = 0;
  subset: Subset | null = null;
  /** The hub's ping round: the tick of the round in which this session is pinged. */
  pingSlot = 0;

  constructor(
    private readonly hub: GatewayHub,
    private readonly transport: Transport,
    now: number,
  ) {
    this.lastSeenAt = now;
    this.budget = new CommandBudget(hub.options.commandLimits, now);
    this.refusals = new TokenBucket(hub.options.refusals, now);
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  /** A WebSocket message arrived from the client. */
  receive(text: string, now: number): void {
    if (this.state === 'closed' || this.cutOff) return;
    this.lastSeenAt = now;
    if (Buffer.byteLength(text) > this.hub.options.maxMessageBytes) {
      this.disconnect(DISCONNECT.messageTooBig);
      return;
    }
    if (text === PONG && this.state === 'connected' && this.pending === 0) {
      // the answer to a ping, alone in its message, with no command of the client's still in
      // hand: nothing to parse, answer or queue, it is only counted (against the budget too)
      if (this.budget.admit(PONG_COMMAND, now)) return;
    }
    const parsed = parseFrames(text, this.hub.options.maxCommandsPerMessage);
    if (!parsed.ok) {
      this.disconnect(parsed.tooMany ? DISCONNECT.tooManyRequests : DISCONNECT.badRequest);
      return;
    }
    // Budgets are taken as the message arrives, so a flood is refused before it queues any
    // work (a refresh waits for the database). Over budget: 111; past the refusals, what was
    // admitted is answered, then the connection is closed with 3013 and nothing more is read.
    const steps: Step[] = [];
    for (const command of parsed.commands) {
      if (this.budget.admit(command, now)) {
        steps.push({ command, refused: false });
      } else if (this.refusals.take(now)) {
        steps.push({ command, refused: true });
      } else {
        this.cutOff = true;
        steps.push('cut off');
        break;
      }
    }
    this.pending += 1;
    this.work = this.work.then(async () => {
      try {
        for (const step of steps) {
          if (this.state === 'closed') return;
          if (step === 'cut off') this.disconnect(DISCONNECT.tooManyRequests);
          else if (!step.refused) await this.handle(step.command);
          // a pong has no id to answer: it is only counted
          else if (step.command.id !== undefined) {
            this.replyError(step.command.id, ERROR.tooManyRequests);
          }
        }
      } finally {
        this.pending -= 1;
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
      if (this.state !== 'connecting') return this.disconnect(DISCONNECT.badRequest);
      return this.connect(id, command.connect.token);
    }
    if (this.state !== 'connected') return this.disconnect(DISCONNECT.badRequest);
    if (command.subscribe) {
      return this.subscribe(id, command.subscribe.channel, command.subscribe.token);
    }
    if (command.unsubscribe) {
      this.leave(command.unsubscribe.channel);
      this.enqueue(JSON.stringify({ id, unsubscribe: {} }));
      return;
    }
    if (command.refresh) return this.refresh(id, command.refresh.token);
    if (command.sub_refresh) {
      return this.refreshSubscription(id, command.sub_refresh.channel, command.sub_refresh.token);
    }
    this.replyError(id, ERROR.methodNotFound);
  }

  private async connect(id: number, token: string | undefined): Promise<void> {
    const credentials = await this.hub.policy.authenticate(token);
    if (this.isClosed) return;
    if ('code' in credentials) return this.refuseToken(id, credentials);
    this.identity = { userId: credentials.userId, sessionId: credentials.sessionId ?? null };
    this.expiresAt = credentials.expiresAt;
    this.state = 'connected';
    this.hub.attach(this);
    const { pingSeconds } = this.hub.options;
    const connect = { client: this.id, version: VERSION, ping: pingSeconds, pong: true };
    this.enqueue(JSON.stringify({ id, connect: { ...connect, ...this.ttl(this.expiresAt) } }));
  }

  /** A new connect token of the same user extends the connection. */
  private async refresh(id: number, token: string): Promise<void> {
    if (token === '') return this.disconnect(DISCONNECT.badRequest);
    const credentials = await this.hub.policy.authenticate(token);
    if (this.isClosed) return;
    if ('code' in credentials) return this.refuseToken(id, credentials);
    // another user's token (or any token on an anonymous connection) refreshes nothing
    if (credentials.userId !== this.identity.userId) {
      return this.disconnect(DISCONNECT.invalidToken);
    }
    this.expiresAt = credentials.expiresAt;
    this.identity = { ...this.identity, sessionId: credentials.sessionId ?? null };
    const refresh = { client: this.id, version: VERSION, ...this.ttl(this.expiresAt) };
    this.enqueue(JSON.stringify({ id, refresh }));
  }

  /**
   * A refused connect or refresh token: an expired one is answered (the client gets a new
   * one and tries again); a forged or malformed one ends the connection for good.
   */
  private refuseToken(id: number, error: ProtocolError): void {
    if (error.code === ERROR.tokenExpired.code) return this.replyError(id, error);
    this.disconnect(DISCONNECT.invalidToken);
  }

  private async subscribe(id: number, channel: string, token: string | undefined): Promise<void> {
    if (this.channels.has(channel)) return this.replyError(id, ERROR.alreadySubscribed);
    if (this.channels.size >= this.hub.options.maxChannelsPerConnection) {
      return this.replyError(id, ERROR.limitExceeded);
    }
    const grant = await this.hub.policy.authorize(this.identity, channel, token);
    if (this.isClosed) return;
    if ('code' in grant) return this.replyError(id, grant);
    this.channels.add(channel);
    this.setChannelExpiry(channel, grant);
    this.hub.join(this, channel);
    this.enqueue(JSON.stringify({ id, subscribe: this.ttl(grant.expiresAt) }));
  }

  /** A new subscription token (checked as on subscribe) extends the subscription. */
  private async refreshSubscription(id: number, channel: string, token: string): Promise<void> {
    if (!this.channels.has(channel)) return this.replyError(id, ERROR.permissionDenied);
    const grant = await this.hub.policy.authorize(this.identity, channel, token);
    if (this.isClosed) return;
    if ('code' in grant) return this.replyError(id, grant);
    // the subscription may have expired while the token was checked
    if (!this.channels.has(channel)) return this.replyError(id, ERROR.permissionDenied);
    this.setChannelExpiry(channel, grant);
    this.enqueue(JSON.stringify({ id, sub_refresh: this.ttl(grant.expiresAt) }));
  }

  private setChannelExpiry(channel: string, { expiresAt, sessionId }: Expiry): void {
    if (expiresAt === null) this.channelExpiry.delete(channel);
    else this.channelExpiry.set(channel, expiresAt);
    if (sessionId === undefined || sessionId === null) this.channelSession.delete(channel);
    else this.channelSession.set(channel, sessionId);
  }

  private leave(channel: string): void {
    this.channels.delete(channel);
    this.channelExpiry.delete(channel);
    this.channelSession.delete(channel);
    this.hub.leave(this, channel);
  }

  /**
   * A login session ended (logout): a connection opened with its token is disconnected
   * (3011: the client reconnects, anonymously or with a live session's token), and
   * subscriptions granted by its tokens end (unsubscribe push 2000, not resubscribed).
   */
  endSession(sessionId: number): void {
    if (this.state === 'closed') return;
    if (this.identity.sessionId === sessionId) {
      this.disconnect(DISCONNECT.sessionEnded);
      return;
    }
    for (const [channel, owner] of [...this.channelSession]) {
      if (owner !== sessionId) continue;
      this.leave(channel);
      const { code, reason } = UNSUBSCRIBE.sessionEnded;
      this.enqueue(encodeUnsubscribePush(channel, code, reason));
    }
  }

  /** `expires` and `ttl` (seconds left) of a reply, for a token that expires. */
  private ttl(expiresAt: number | null): { expires?: true; ttl?: number } {
    if (expiresAt === null) return {};
    const nowSeconds = toEpochSec(this.hub.now());
    return { expires: true, ttl: Math.max(0, expiresAt - nowSeconds) };
  }

  /**
   * Ends what was not refreshed within the grace after its token expired: the connection
   * (3005, the client reconnects with a new token) or a subscription (unsubscribe push
   * 2501, the client subscribes again with a new token).
   */
  expire(now: number): void {
    if (this.state !== 'connected') return;
    const { expiredCloseDelaySeconds, expiredSubCloseDelaySeconds } = this.hub.options;
    if (this.expiresAt !== null && now >= toEpochMs(this.expiresAt + expiredCloseDelaySeconds)) {
      this.disconnect(DISCONNECT.expired);
      return;
    }
    for (const [channel, expiresAt] of this.channelExpiry) {
      if (now < toEpochMs(expiresAt + expiredSubCloseDelaySeconds)) continue;
      this.leave(channel);
      const { code, reason } = UNSUBSCRIBE.expired;
      this.enqueue(encodeUnsubscribePush(channel, code, reason));
    }
  }

  private replyError(id: number, { code, message, temporary }: ProtocolError): void {
    const error = { code, message, ...(temporary ? { temporary } : {}) };
    this.enqueue(JSON.stringify({ id, error }));
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

  /** Sends the queued frames (replies, pings, pushes) as one newline-joined WebSocket message. */
  flush(): void {
    if (this.state === 'closed' || this.batch.length === 0) return;
    const frames = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    if (frames.length === 1 && frames[0] === PING) this.send(PING_BYTES);
    else this.send(frames.length === 1 ? (frames[0] ?? '') : frames.join('\n'));
  }

  /**
   * Sends this turn's publications for the session's channels: `shared`, the bytes every
   * session subscribed alike gets, after its own queued frames if it has any (a reply to a
   * subscribe comes before the channel's publications). Past the queue limit it is cut off.
   */
  deliver(shared: Buffer, publications: string): void {
    if (this.state === 'closed') return;
    const queued = this.transport.bufferedAmount() + this.batchBytes + shared.length;
    if (queued > this.hub.options.maxQueuedBytes) {
      this.disconnect(DISCONNECT.slow);
      return;
    }
    if (this.batch.length === 0) {
      this.send(shared);
      return;
    }
    const frames = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    frames.push(publications);
    this.send(frames.join('\n'));
  }

  /**
   * Every message goes to the socket as bytes (a text message still): the socket's send then
   * sees one kind of value, shared bytes and a session's own frames alike.
   */
  private send(message: string | Buffer): void {
    try {
      this.transport.send(typeof message === 'string' ? Buffer.from(message) : message);
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

/** The publications of a subset's channels, in the turn's order, newline-joined. */
function messageOf(
  subset: Subset,
  channelCount: number,
  indexes: readonly number[],
  frames: readonly string[],
): string {
  const included = new Uint8Array(channelCount);
  for (let node: Subset | null = subset; node && node.index >= 0; node = node.parent) {
    included[node.index] = 1;
  }
  const chosen: string[] = [];
  for (let i = 0; i < frames.length; i++) {
    if (included[indexes[i] ?? 0] === 1) chosen.push(frames[i] ?? '');
  }
  return chosen.length === 1 ? (chosen[0] ?? '') : chosen.join('\n');
}

/**
 * A subset of the channels published in one turn: sessions reach it by stepping through the
 * turn's channels they are members of (in the turn's order), so sessions subscribed alike
 * meet at the same node, whose message is joined and encoded once for all of them.
 */
export class Subset {
  private readonly children = new Map<number, Subset>();
  /** The child taken last: most sessions take the same steps. */
  private lastIndex = -1;
  private lastChild: Subset | null = null;
  /** The message's text (its publications, newline-joined) and bytes, once asked. */
  text: string | null = null;
  bytes: Buffer | null = null;

  constructor(
    readonly parent: Subset | null,
    /** The index, in the turn's channels, of the channel this step added. */
    readonly index: number,
  ) {}

  child(index: number): Subset {
    if (index === this.lastIndex && this.lastChild) return this.lastChild;
    let child = this.children.get(index);
    if (!child) {
      child = new Subset(this, index);
      this.children.set(index, child);
    }
    this.lastIndex = index;
    this.lastChild = child;
    return child;
  }
}

/**
 * The live gateway's core: sessions, channel membership and fan-out. A publication is encoded
 * once and kept with the turn's others; on the next turn of the event loop every subscriber
 * gets one WebSocket message with the turn's publications of its channels, joined and encoded
 * once for all sessions subscribed alike. Nothing is allocated per subscriber and publication.
 */
export class GatewayHub {
  private readonly sessions = new Set<ClientSession>();
  private readonly channels = new Map<string, Set<ClientSession>>();
  /** Sessions with frames of their own (replies, pings, pushes) queued this turn. */
  private readonly dirty = new Set<ClientSession>();
  /** This turn's publications, in order: the channel's index in `turnChannels`, the frame. */
  private turnIndexes: number[] = [];
  private turnFrames: string[] = [];
  /** The channels published this turn, in order of their first publication, and their index. */
  private turnChannels = new Map<string, number>();
  private turn = 0;
  /** Sessions reached by this turn's publications (reused from turn to turn). */
  private readonly reached: ClientSession[] = [];
  private flushScheduled = false;
  private timer: NodeJS.Timeout | null = null;
  /**
   * The ping round in ticks (one a second): each session is pinged and its tokens checked on
   * the tick of its slot, so a round's pings, and the pongs they draw, are spread over the
   * round instead of coming all in one turn. Sessions take the slots in turn as they open.
   */
  private readonly slots: Set<ClientSession>[];
  private nextSlot = 0;
  private tickCount = 0;

  constructor(
    readonly policy: GatewayPolicy,
    readonly options: GatewayOptions = DEFAULT_GATEWAY_OPTIONS,
    readonly now: () => number = Date.now,
  ) {
    const count = Math.max(1, Math.floor(options.pingSeconds));
    this.slots = Array.from({ length: count }, () => new Set<ClientSession>());
  }

  /** A new socket: returns the session that handles it. */
  open(transport: Transport): ClientSession {
    const session = new ClientSession(this, transport, this.now());
    session.pingSlot = this.nextSlot;
    this.nextSlot = (this.nextSlot + 1) % this.slots.length;
    this.attach(session);
    this.startTimer();
    return session;
  }

  attach(session: ClientSession): void {
    this.sessions.add(session);
    this.slots[session.pingSlot]?.add(session);
  }

  detach(session: ClientSession): void {
    this.sessions.delete(session);
    this.slots[session.pingSlot]?.delete(session);
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

  /** Subscriptions of all connections together (a session in two channels counts twice). */
  get subscriptionCount(): number {
    let count = 0;
    for (const members of this.channels.values()) count += members.size;
    return count;
  }

  /** Publications handed to the hub since it started, with or without subscribers (metrics). */
  publicationCount = 0;

  /** Delivers a publication to the channel's subscribers (on the next turn). */
  publish(channel: string, data: unknown): void {
    this.publicationCount += 1;
    const members = this.channels.get(channel);
    if (!members || members.size === 0) return;
    let index = this.turnChannels.get(channel);
    if (index === undefined) {
      index = this.turnChannels.size;
      this.turnChannels.set(channel, index);
    }
    this.turnIndexes.push(index);
    this.turnFrames.push(encodePublication(channel, data));
    this.scheduleFlush();
  }

  markDirty(session: ClientSession): void {
    this.dirty.add(session);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(this.flushAll);
  }

  /**
   * Sends what this turn queued: to each subscriber of the turn's channels one message with
   * the publications of its channels (membership as it is now: a session that left a channel
   * this turn gets none of its frames), shared by the sessions subscribed alike; then the
   * sessions' own frames not sent with them.
   */
  private readonly flushAll = (): void => {
    this.flushScheduled = false;
    const channels = this.turnChannels;
    const indexes = this.turnIndexes;
    const frames = this.turnFrames;
    this.turnChannels = new Map();
    this.turnIndexes = [];
    this.turnFrames = [];
    if (frames.length > 0) {
      const turn = ++this.turn;
      const root = new Subset(null, -1);
      const reached = this.reached;
      for (const [channel, index] of channels) {
        const members = this.channels.get(channel);
        if (!members) continue;
        for (const session of members) {
          if (session.flushTurn !== turn) {
            session.flushTurn = turn;
            session.subset = root;
            reached.push(session);
          }
          session.subset = (session.subset ?? root).child(index);
        }
      }
      for (const session of reached) {
        const subset = session.subset ?? root;
        session.subset = null;
        if (subset.bytes === null) {
          subset.text = messageOf(subset, channels.size, indexes, frames);
          subset.bytes = Buffer.from(subset.text);
        }
        session.deliver(subset.bytes, subset.text ?? '');
      }
      reached.length = 0;
    }
    if (this.dirty.size > 0) {
      const sessions = [...this.dirty];
      this.dirty.clear();
      for (const session of sessions) session.flush();
    }
  };

  /** The periodic work, a tick a second: every session's turn comes once in `pingSeconds`. */
  private startTimer(): void {
    if (this.timer) return;
    const tickMs = (this.options.pingSeconds * 1000) / this.slots.length;
    this.timer = setInterval(() => this.tick(), tickMs);
    this.timer.unref();
  }

  /** The next slot's periodic work: its sessions' expiries, then their pings. */
  tick(): void {
    const slot = this.slots[this.tickCount % this.slots.length];
    this.tickCount += 1;
    if (!slot || slot.size === 0) return;
    const sessions = [...slot];
    const now = this.now();
    for (const session of sessions) session.expire(now);
    this.ping(sessions, now);
  }

  /** Ends connections and subscriptions whose tokens expired and were not refreshed. */
  expireAll(): void {
    const now = this.now();
    for (const session of [...this.sessions]) session.expire(now);
  }

  /** Sends `{}` to every connected session and cuts off those silent for too long. */
  pingAll(): void {
    this.ping([...this.sessions], this.now());
  }

  private ping(sessions: readonly ClientSession[], now: number): void {
    const silentLimit = (this.options.pingSeconds + this.options.pongTimeoutSeconds) * 1000;
    for (const session of sessions) {
      if (session.isClosed) continue;
      if (!session.isConnected) {
        // a socket that never sent its connect command
        if (now - session.lastSeenAt > this.options.pongTimeoutSeconds * 1000) {
          session.disconnect(DISCONNECT.badRequest);
        }
      } else if (now - session.lastSeenAt > silentLimit) {
        session.disconnect(DISCONNECT.noPong);
      } else {
        session.enqueue(PING);
      }
    }
  }

  /** Ends what a login session's tokens opened (its logout): see ClientSession.endSession. */
  endSession(sessionId: number): void {
    for (const session of [...this.sessions]) session.endSession(sessionId);
  }

  /** Disconnects everyone (server shutdown): clients reconnect later. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const session of [...this.sessions]) session.disconnect(DISCONNECT.shutdown);
  }
}
