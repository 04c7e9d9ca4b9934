import { ArrowUpOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import type { KeyboardEvent } from 'react';
import { assistant as messages } from '../../i18n/defaults/assistant';

const a = messages.assistant;

type Props = {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  streaming: boolean;
  autoFocus?: boolean;
};

/** The message box: 1 to 10 rows; Enter sends, Shift+Enter adds a newline. */
export function ChatInput({ value, onChange, onSend, onStop, streaming, autoFocus }: Props) {
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME composing Chinese text uses Enter to confirm its candidate, not to send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!streaming) onSend();
  };

  return (
    <div className="assistant-input">
      <div className="assistant-input-row">
        <Input.TextArea
          aria-label={a.inputLabel}
          placeholder={a.placeholder}
          autoSize={{ minRows: 1, maxRows: 10 }}
          value={value}
          autoFocus={autoFocus}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {streaming ? (
          <Button
            danger
            icon={<StopOutlined aria-hidden />}
            onClick={onStop}
            className="assistant-send"
          >
            {a.stop}
          </Button>
        ) : (
          <Button
            type="primary"
            icon={<ArrowUpOutlined aria-hidden />}
            onClick={onSend}
            disabled={!value.trim()}
            className="assistant-send"
          >
            {a.send}
          </Button>
        )}
      </div>
      <div className="assistant-input-hint" aria-hidden="true">
        {a.inputHint}
      </div>
    </div>
  );
}
