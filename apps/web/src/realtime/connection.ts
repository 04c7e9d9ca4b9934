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

let client: Centrifuge | null = null;
// The user the connection's token identifies; null while it is anonymous.
let liveIdentity: string | null = null;
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
  liveIdentity = null;
  for (const listener of clientListeners) listener(next);
}

export type ConnectOptions = {
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
  const centrifuge = new Centrifuge(url, {
    data: CONNECT_DATA,
    name: 'browser',
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
 * need: the connect token is kept for every later (re)connect, and a connection that is
 * anonymous or another user's reconnects once so the gateway sees it (price channels are
 * resubscribed by the client). Called again with a fresh token before the old one expires.
 */
export function identifyLive(userId: string, connectToken: string): void {
  const current = client;
  if (!current) return;
  current.setToken(connectToken);
  if (liveIdentity === userId) return;
  liveIdentity = userId;
  current.disconnect();
  current.connect();
}

/** Closes the live connection (tests; a logout keeps it: price channels are public). */
export function disconnectLive(): void {
  client?.disconnect();
  setClient(null);
  useConnectionStore.setState({ status: 'disconnected', connectedOnce: false });
}
