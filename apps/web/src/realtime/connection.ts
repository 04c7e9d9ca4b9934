import { Centrifuge } from 'centrifuge';
import { create } from 'zustand';

/** Connection status of the live gateway (spec section 4). */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected';

export const useConnectionStore = create<{ status: ConnectionStatus; connectedOnce: boolean }>(
  () => ({ status: 'disconnected', connectedOnce: false }),
);

/** True while a connection that was up is being restored (for a 'Reconnecting…' hint). */
export function useReconnecting(): boolean {
  return useConnectionStore((s) => s.connectedOnce && s.status !== 'connected');
}

/** The connect data the gateway expects (spec section 7): anonymous price channels. */
export const CONNECT_DATA = { type: 1 } as const;

/** The start-up step gives up waiting for the gateway after this long. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Fetches a fresh connect token of the identified user (GET /api/live/token). */
export type ConnectTokenSource = () => Promise<string>;

let client: Centrifuge | null = null;
type Identity = {
  userId: string;
  getToken: ConnectTokenSource;
  /** Set at start-up from the stored session: given way to by the first feature's own. */
  provisional?: boolean;
};
// Who asked for the live connection to be a user's (the account channel, the drawings
// channel), each with where its connect tokens come from; the newest one's are used. None:
// anonymous.
const identities: Identity[] = [];
const currentIdentity = (): Identity | null => identities.at(-1) ?? null;
// The user the current connection was opened as (what the gateway knows); null: anonymous.
let connectedAs: string | null = null;
const clientListeners = new Set<(client: Centrifuge | null) => void>();

/** True inside a child frame: frames never open their own live connection. */
export function isChildFrame(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true; // a cross-origin parent denies access: we are framed
  }
}

/** ws(s)://host/connection/websocket of the API base (the page's own origin by default). */
export function liveUrl(): string {
  const base = (import.meta.env.VITE_API_BASE ?? '').replace(/\/$/, '');
  const http = base ? new URL(base, window.location.href) : new URL(window.location.href);
  const protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${http.host}/connection/websocket`;
}

/** The main window's live client, or null before start-up (and always in child frames). */
export function getLiveClient(): Centrifuge | null {
  return client;
}

/** Follows the client being created or dropped; called at once with the current one. */
export function onLiveClient(listener: (client: Centrifuge | null) => void): () => void {
  clientListeners.add(listener);
  listener(client);
  return () => clientListeners.delete(listener);
}

function setClient(next: Centrifuge | null): void {
  client = next;
  connectedAs = next ? (currentIdentity()?.userId ?? null) : null;
  for (const listener of clientListeners) listener(next);
}

/**
 * The client's `getToken`: a fresh connect token of the identified user, or '' while the
 * connection is anonymous (the client then connects without a token). The client asks on
 * a connect without a token, after the gateway refused an expired one (109), and before
 * the connection expires (the gateway's connect reply tells when).
 */
export function liveConnectToken(): Promise<string> {
  const identity = currentIdentity();
  return identity ? identity.getToken() : Promise.resolve('');
}

/** Reconnects once, so that the gateway sees the connection as this user (null: anonymous). */
function connectAs(userId: string | null): void {
  if (connectedAs === userId) return;
  connectedAs = userId;
  if (!client) return;
  client.setToken(''); // the next connect asks liveConnectToken
  client.disconnect();
  client.connect();
}

export type ConnectOptions = {
  /**
   * The user the stored session names, with where its connect tokens come from: the
   * connection opens as that user at once, so the private channels the first screen joins
   * need no reconnect (one connection per page load). A token that cannot be had (the
   * session ended meanwhile) opens it anonymously instead.
   */
  identity?: { userId: string; getToken: ConnectTokenSource };
  url?: string;
  timeoutMs?: number;
  /** A WebSocket implementation; the browser's own by default. */
  websocket?: unknown;
};

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String((error as { message: unknown }).message);
  }
  return String(error);
}

/**
 * Opens the one live connection of the main window and waits until it is up (the start-up
 * step 'Establishing WebSocket connection'). Afterwards the client reconnects and
 * resubscribes by itself. In a child frame nothing is opened.
 */
export async function connectLive(options: ConnectOptions = {}): Promise<void> {
  if (isChildFrame()) return;
  if (client) {
    await client.ready(options.timeoutMs ?? CONNECT_TIMEOUT_MS);
    return;
  }
  const url = options.url ?? liveUrl();
  const timeoutMs = options.timeoutMs ?? CONNECT_TIMEOUT_MS;
  if (options.identity && identities.length === 0) {
    const { userId, getToken } = options.identity;
    const provisional: Identity = {
      userId,
      provisional: true,
      getToken: async () => {
        try {
          const token = await getToken();
          provisionalTokenIssued = true;
          return token;
        } catch {
          // No token for the stored session: anonymous, and the next identity reconnects.
          dropProvisional();
          return '';
        }
      },
    };
    provisionalTokenIssued = false;
    identities.push(provisional);
  }
  const centrifuge = new Centrifuge(url, {
    data: CONNECT_DATA,
    name: 'browser',
    getToken: liveConnectToken,
    ...(options.websocket ? { websocket: options.websocket } : {}),
  });
  let lastError: string | null = null;
  centrifuge.on('state', (ctx) => {
    const status: ConnectionStatus =
      ctx.newState === 'connected'
        ? 'connected'
        : ctx.newState === 'connecting'
          ? 'connecting'
          : 'disconnected';
    useConnectionStore.setState((s) => ({
      status,
      connectedOnce: s.connectedOnce || status === 'connected',
    }));
  });
  centrifuge.on('error', (ctx) => {
    lastError = describe(ctx.error);
  });
  centrifuge.on('disconnected', (ctx) => {
    lastError = ctx.reason || lastError;
  });
  setClient(centrifuge);
  centrifuge.connect();
  try {
    await centrifuge.ready(timeoutMs);
  } catch (error) {
    centrifuge.disconnect();
    setClient(null);
    useConnectionStore.setState({ status: 'disconnected' });
    const why = lastError ?? describe(error);
    throw new Error(`${why} (${url}, no connection within ${Math.round(timeoutMs / 1000)} s)`, {
      cause: error,
    });
  }
}

/**
 * Identifies the live connection as a user, which private channels (`account:{uuid}`)
 * need: `getToken` is asked for the user's connect tokens from now on, and a connection
 * that is anonymous or another user's reconnects once so the gateway sees the user (price
 * channels are resubscribed by the client). Renewal is the client's: it calls `getToken`
 * again before the token expires.
 */
export function identifyLive(userId: string, getToken: ConnectTokenSource): void {
  for (let i = identities.length - 1; i >= 0; i -= 1) {
    const identity = identities[i];
    if (identity?.getToken === getToken || identity?.provisional) identities.splice(i, 1);
  }
  identities.push({ userId, getToken });
  connectAs(userId);
}

/**
 * Drops the identity set with this `getToken`: unless another one is left or set in the
 * same turn (an account switch leaves one account and joins the next; the drawings channel
 * holds its own), the connection reconnects anonymously, since the user's tokens are no
 * longer renewed.
 */
export function forgetLive(getToken: ConnectTokenSource): void {
  const known = identities.findIndex((i) => i.getToken === getToken);
  if (known < 0) return;
  identities.splice(known, 1);
  queueMicrotask(() => connectAs(currentIdentity()?.userId ?? null));
}

// Whether the start-up identity's token was handed to the gateway (the connection is the
// user's), or it has not been asked for or failed (the connection is or will be anonymous).
let provisionalTokenIssued = false;

/** Forgets the start-up identity; the connection is anonymous unless its token was used. */
function dropProvisional(): boolean {
  const at = identities.findIndex((i) => i.provisional);
  if (at < 0) return false;
  identities.splice(at, 1);
  if (!provisionalTokenIssued) connectedAs = currentIdentity()?.userId ?? null;
  return true;
}

/**
 * Drops the start-up identity when no feature took over from it (a logout, or a session
 * found ended while the app starts): a connection opened with its token goes anonymous, as
 * the user's tokens end; one still opening goes on anonymously (its token request fails).
 */
export function forgetProvisionalLive(): void {
  if (!dropProvisional() || !provisionalTokenIssued) return;
  queueMicrotask(() => connectAs(currentIdentity()?.userId ?? null));
}

/** Closes the live connection (tests; a logout keeps it: price channels are public). */
export function disconnectLive(): void {
  client?.disconnect();
  setClient(null);
  identities.length = 0;
  useConnectionStore.setState({ status: 'disconnected', connectedOnce: false });
}
