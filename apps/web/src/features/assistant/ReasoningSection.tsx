import { BulbOutlined, DownOutlined, LoadingOutlined, RightOutlined } from '@ant-design/icons';
import { useEffect, useId, useRef, useState } from 'react';
import { assistant as messages } from '../../i18n/defaults/assistant';
import { thinkingSeconds } from './logic';

const a = messages.assistant;

type Props = {
  reasoning: string;
  /** Thinking time once the answer text started; null while thinking (or if it never did). */
  thinkingMs: number | null;
  /** True while the answer streams. */
  streaming: boolean;
};

/**
 * The model's reasoning, collapsed: 'Deep Thinking...' while it streams (its latest line
 * shows as a preview), then 'Deep Thinking Completed (Time: N seconds)' once the answer
 * text starts. Expanding shows the whole reasoning, live.
 */
export function ReasoningSection({ reasoning, thinkingMs, streaming }: Props) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const body = useRef<HTMLDivElement>(null);
  const thinking = streaming && thinkingMs === null;

  // While it streams, the expanded reasoning follows its newest line.
  useEffect(() => {
    const element = body.current;
    if (expanded && thinking && element) element.scrollTop = element.scrollHeight;
  }, [expanded, thinking, reasoning]);

  const label =
    thinkingMs !== null
      ? a.thinkingDone(thinkingSeconds(thinkingMs))
      : thinking
        ? a.thinking
        : a.thinking.replace(/\.+$/, '');
  const preview = thinking && !expanded ? lastLine(reasoning) : '';

  return (
    <div className="assistant-reasoning" data-state={thinking ? 'thinking' : 'done'}>
      <button
        type="button"
        className="assistant-reasoning-toggle"
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded((open) => !open)}
      >
        <span aria-hidden="true" className="assistant-reasoning-icon">
          {thinking ? <LoadingOutlined /> : <BulbOutlined />}
        </span>
        <span className="assistant-reasoning-label">{label}</span>
        <span aria-hidden="true" className="assistant-reasoning-chevron">
          {expanded ? <DownOutlined /> : <RightOutlined />}
        </span>
      </button>
      {preview && (
        <div className="assistant-reasoning-preview" aria-hidden="true">
          {preview}
        </div>
      )}
      <div
        id={id}
        ref={body}
        role="region"
        aria-label={label}
        className="assistant-reasoning-body"
        hidden={!expanded}
      >
        {reasoning}
      </div>
    </div>
  );
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.at(-1) ?? '').slice(-160);
}
