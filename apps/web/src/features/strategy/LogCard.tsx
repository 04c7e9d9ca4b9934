import { Badge, Button, Card, Empty, Space } from 'antd';
import { useEffect, useRef } from 'react';
import { strategy as messages } from '../../i18n/defaults/strategy';
import type { LogSocketState } from './logSocket';

const m = messages.strategy;

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
  state: LogSocketState;
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
