import { z } from 'zod';

/**
 * The Centrifuge client protocol v2 in its JSON form (centrifugal/protocol client.proto).
 * Several frames may share one WebSocket message, separated by newlines.
 */

/** WebSocket close codes the official client understands (reconnect below 3500). */
export const DISCONNECT = {
  shutdown: { code: 3001, reason: 'shutdown' },
  serverError: { code: 3004, reason: 'internal server error' },
  /** The connection's token expired and was not refreshed in time: reconnect with a new one. */
  expired: { code: 3005, reason: 'connection expired' },
  slow: { code: 3008, reason: 'slow' },
  /**
   * The login session of the connection's token ended (logout): the client reconnects,
   * anonymously or with a token of a live session (Centrifugo's force-reconnect code).
   */
  sessionEnded: { code: 3011, reason: 'session ended' },
  noPong: { code: 3012, reason: 'no pong' },
  /**
   * The client sent more commands than its budget allows and kept on after being refused
   * (Centrifugo's DisconnectTooManyRequests: a reconnect code, the client backs off).
   */
  tooManyRequests: { code: 3013, reason: 'too many requests' },
  invalidToken: { code: 3500, reason: 'invalid token' },
  badRequest: { code: 3501, reason: 'bad request' },
  forceNoReconnect: { code: 3503, reason: 'force disconnect' },
  messageTooBig: { code: 1009, reason: 'message too big' },
} as const;
export type Disconnect = (typeof DISCONNECT)[keyof typeof DISCONNECT];

/** Error codes of command replies. */
export const ERROR = {
  internal: { code: 100, message: 'internal server error' },
  unauthorized: { code: 101, message: 'unauthorized' },
  unknownChannel: { code: 102, message: 'unknown channel' },
  permissionDenied: { code: 103, message: 'permission denied' },
  methodNotFound: { code: 104, message: 'method not found' },
  alreadySubscribed: { code: 105, message: 'already subscribed' },
  limitExceeded: { code: 106, message: 'limit exceeded' },
  badRequest: { code: 107, message: 'bad request' },
  notAvailable: { code: 108, message: 'not available' },
  tokenExpired: { code: 109, message: 'token expired' },
  /**
   * A command over the connection's budget for its kind (Centrifugo's ErrorTooManyRequests):
   * temporary, so the official client retries it with a backoff instead of giving up.
   */
  tooManyRequests: { code: 111, message: 'too many requests', temporary: true },
} as const;
export type ProtocolError = { code: number; message: string; temporary?: boolean };

/** Codes of server-side unsubscribe pushes (≥ 2500: the client subscribes again). */
export const UNSUBSCRIBE = {
  /** The subscription token expired and was not refreshed in time (Centrifugo's 2501). */
  expired: { code: 2501, reason: 'subscription expired' },
  /** The login session of the subscription's token ended: not resubscribed (below 2500). */
  sessionEnded: { code: 2000, reason: 'session ended' },
} as const;

const channelSchema = z.string().min(1).max(255);

const connectSchema = z.object({
  token: z.string().optional(),
  data: z.unknown().optional(),
  name: z.string().optional(),
  version: z.string().optional(),
  subs: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const subscribeSchema = z.object({
  channel: channelSchema,
  token: z.string().optional(),
  flag: z.number().optional(),
  recover: z.boolean().optional(),
  offset: z.number().optional(),
  epoch: z.string().optional(),
  data: z.unknown().optional(),
  positioned: z.boolean().optional(),
  recoverable: z.boolean().optional(),
  join_leave: z.boolean().optional(),
});

const unsubscribeSchema = z.object({ channel: channelSchema });

const refreshSchema = z.object({ token: z.string() });

const subRefreshSchema = z.object({ channel: channelSchema, token: z.string() });

/** A client command: an id and exactly one method, or `{}` (a pong). */
export const commandSchema = z
  .object({
    id: z.number().int().positive().optional(),
    connect: connectSchema.optional(),
    subscribe: subscribeSchema.optional(),
    unsubscribe: unsubscribeSchema.optional(),
    publish: z.unknown().optional(),
    presence: z.unknown().optional(),
    presence_stats: z.unknown().optional(),
    history: z.unknown().optional(),
    ping: z.unknown().optional(),
    send: z.unknown().optional(),
    rpc: z.unknown().optional(),
    refresh: refreshSchema.optional(),
    sub_refresh: subRefreshSchema.optional(),
  })
  .strict();
export type Command = z.infer<typeof commandSchema>;

export type ParsedFrames = { ok: true; commands: Command[] } | { ok: false; tooMany?: true };

/**
 * Splits a WebSocket message into commands; any malformed line fails the whole message, and
 * so does one with more than `maxCommands` commands (counted before any is parsed).
 */
export function parseFrames(text: string, maxCommands = Number.POSITIVE_INFINITY): ParsedFrames {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > maxCommands) return { ok: false, tooMany: true };
  const commands: Command[] = [];
  for (const line of lines) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return { ok: false };
    }
    const parsed = commandSchema.safeParse(json);
    if (!parsed.success) return { ok: false };
    commands.push(parsed.data);
  }
  return { ok: true, commands };
}

/** The JSON text of a publication push, encoded once and shared by every subscriber. */
export function encodePublication(channel: string, data: unknown): string {
  return JSON.stringify({ push: { channel, pub: { data } } });
}

/**
 * The JSON text of a server-side unsubscribe push: below 2500 the client stays
 * unsubscribed, from 2500 on it subscribes again.
 */
export function encodeUnsubscribePush(channel: string, code: number, reason: string): string {
  return JSON.stringify({ push: { channel, unsubscribe: { code, reason } } });
}
