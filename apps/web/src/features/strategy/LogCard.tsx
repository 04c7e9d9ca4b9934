import { Badge, Button, Card, Empty, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { messages } from '../../i18n/messages';

const m = messages.strategy;

/** ws(s)://host/ws/{clientId} of the API base (the page's own origin by default). */
export function logSocketUrl(clientId: string): string {
  const base = (import.meta.env.VITE_API_BASE ?? '').replace(/\/$/, '');
  const http = base ? new URL(base, window.location.href) : new URL(window.location.href);
  const protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${http.host}/ws/${encodeURIComponent(clientId)}`;
}

type SocketState = 'connecting' | 'connected' | 'disconnected';

/** Keeps a log socket open while mounted, collecting its lines. */
export function useLogSocket(clientId: string) {
  const [lines, setLines] = useState<string[]>([]);
  const [state, setState] = useState<SocketState>('connecting');
  useEffect(() => {
    let closed = false;
    let socket: WebSocket;
    try {
      socket = new WebSocket(logSocketUrl(clientId));
    } catch {
      queueMicrotask(() => setState('disconnected'));
      return;
    }
    socket.onopen = () => setState('connected');
    socket.onmessage = (event) => {
      const text = typeof event.data === 'string' ? event.data : '';
      setLines((old) => [...old, ...text.split('\n')]);
    };
    socket.onerror = () => {
      if (!closed) setLines((old) => [...old, m.socketError]);
    };
    socket.onclose = () => {
      setState('disconnected');
      if (!closed) setLines((old) => [...old, m.connectionClosed]);
    };
    return () => {
      closed = true;
      socket.close();
    };
  }, [clientId]);
  return { lines, state, clear: () => setLines([]) };
}

/** The realtime log card: status, Clear Logs, the lines (auto-scrolled) or 'No logs'. */
export function LogCard({
  title = m.realtimeLog,
  lines,
  state,
  onClear,
  height = 400,
}: {
  title?: string;
  lines: readonly string[];
  state: SocketState;
  onClear: () => void;
  height?: number;
}) {
  const bodyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = bodyRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);
  const status =
    state === 'connected' ? (
      <Badge status="success" text={m.connected} />
    ) : state === 'connecting' ? (
      <Badge status="processing" text={m.connecting} />
    ) : (
      <Badge status="error" text={m.disconnected} />
    );
  return (
    <Card
      size="small"
      title={title}
      extra={
        <Space>
          {status}
          <Button size="small" onClick={onClear}>
            {m.clearLogs}
          </Button>
        </Space>
      }
    >
      <div
        ref={bodyRef}
        data-testid="strategy-log"
        style={{
          height,
          overflow: 'auto',
          fontFamily: 'monospace',
          fontSize: 12,
          whiteSpace: 'pre-wrap',
        }}
      >
        {lines.length === 0 ? (
          <Empty description={m.noLogs} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          lines.map((line, i) => <div key={i}>{line}</div>)
        )}
      </div>
    </Card>
  );
}
