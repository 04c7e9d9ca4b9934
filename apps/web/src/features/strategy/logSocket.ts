import { FRAME_LOG_KEY, logRelayPayloadSchema } from '@ct/domain';
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { strategy as messages } from '../../i18n/defaults/strategy';
import { isChildFrame } from '../../realtime/connection';
import { registerFrameHandler } from '../../realtime/frameBridge';

const m = messages.strategy;

export type LogSocketState = 'connecting' | 'connected' | 'disconnected';

/** ws(s)://host/ws/{clientId} of the API base (the page's own origin by default). */
export function logSocketUrl(clientId: string): string {
  const base = (import.meta.env.VITE_API_BASE ?? '').replace(/\/$/, '');
  const http = base ? new URL(base, window.location.href) : new URL(window.location.href);
  const protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${http.host}/ws/${encodeURIComponent(clientId)}`;
}

export type LogSocketListener = {
  lines(lines: string[]): void;
  state(state: LogSocketState): void;
};

/**
 * Opens the execution log socket of `clientId` (spec section 7: /ws/{clientId} streams the
 * logs of runs with that client id) and reports its lines and state, including the spec's
 * 'WebSocket connection error' and 'Connection closed' lines. Main window only: a child
 * frame never opens a socket. Returns the close.
 */
export function openLogSocket(clientId: string, listener: LogSocketListener): () => void {
  let closed = false;
  let socket: WebSocket;
  listener.state('connecting');
  try {
    socket = new WebSocket(logSocketUrl(clientId));
  } catch {
    queueMicrotask(() => listener.state('disconnected'));
    return () => {};
  }
  socket.onopen = () => listener.state('connected');
  socket.onmessage = (event) => {
    const text = typeof event.data === 'string' ? event.data : '';
    listener.lines(text.split('\n'));
  };
  socket.onerror = () => {
    if (!closed) listener.lines([m.socketError]);
  };
  socket.onclose = () => {
    listener.state('disconnected');
    if (!closed) listener.lines([m.connectionClosed]);
  };
  return () => {
    closed = true;
    socket.close();
  };
}

type Relayed = { lines: string[]; state: LogSocketState };

/** In a child frame: the log lines the main window forwarded, by client id. */
export const useRelayedLogs = create<{ byClient: Record<string, Relayed> }>(() => ({
  byClient: {},
}));

let relayListener: (() => void) | null = null;

/**
 * In a child frame, starts taking the log lines the main window forwards (idempotent).
 * Only the parent window is heard; a payload of unknown shape is ignored.
 */
export function receiveRelayedLogs(): void {
  if (relayListener || !isChildFrame()) return;
  relayListener = registerFrameHandler('cw_state_update', (message, event) => {
    if (message.key !== FRAME_LOG_KEY || event.source !== window.parent) return;
    const parsed = logRelayPayloadSchema.safeParse(message.payload);
    if (!parsed.success) return;
    const { clientId, state, lines } = parsed.data;
    useRelayedLogs.setState((s) => {
      const old = s.byClient[clientId] ?? { lines: [], state: 'connecting' };
      return {
        byClient: { ...s.byClient, [clientId]: { state, lines: [...old.lines, ...lines] } },
      };
    });
  });
}

/** Stops taking forwarded log lines and forgets them (tests). */
export function stopRelayedLogs(): void {
  relayListener?.();
  relayListener = null;
  useRelayedLogs.setState({ byClient: {} });
}

/**
 * The execution log of `clientId` while mounted: in the main window its own socket; in a
 * child frame the lines the main window forwards over the frame bridge (no socket).
 */
export function useLogLines(clientId: string) {
  const child = isChildFrame();
  const [lines, setLines] = useState<string[]>([]);
  const [state, setState] = useState<LogSocketState>('connecting');
  useEffect(() => {
    if (child) return;
    return openLogSocket(clientId, {
      lines: (more) => setLines((old) => [...old, ...more]),
      state: setState,
    });
  }, [clientId, child]);
  useEffect(() => {
    if (child) receiveRelayedLogs();
  }, [child]);
  const relayed = useRelayedLogs((s) => (child ? s.byClient[clientId] : undefined));
  if (child) {
    return {
      lines: relayed?.lines ?? [],
      state: relayed?.state ?? 'connecting',
      clear: () =>
        useRelayedLogs.setState((s) => ({
          byClient: {
            ...s.byClient,
            [clientId]: { state: relayed?.state ?? 'connecting', lines: [] },
          },
        })),
    };
  }
  return { lines, state, clear: () => setLines([]) };
}
