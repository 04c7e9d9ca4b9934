import { ArrowDownOutlined, RobotOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { memo, useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import { assistant as messages } from '../../i18n/defaults/assistant';
import type { ChatMessage } from './logic';
import { Markdown } from './Markdown';
import { ReasoningSection } from './ReasoningSection';
import { useLanguage } from '../../shared/language';

const a = messages.assistant;

type ApplyCode = ((code: string) => Promise<unknown> | unknown) | undefined;

function StreamingMarkdown({ text, onApply }: { text: string; onApply: ApplyCode }) {
  // A long answer re-parses on every piece; React may skip intermediate texts under load.
  const deferred = useDeferredValue(text);
  return <Markdown text={deferred} streaming onApply={onApply} />;
}

const AnswerBubble = memo(function AnswerBubble({
  message,
  errorDetail,
  onApply,
}: {
  message: ChatMessage;
  errorDetail: string | null;
  onApply: ApplyCode;
}) {
  useLanguage(); // memoised: drawn again with the new texts when the language changes
  const loading = message.status === 'loading';
  const waiting = loading && !message.content && !message.reasoning;
  return (
    <article
      className="assistant-message assistant-message-answer"
      aria-label={a.assistantName}
      aria-busy={loading}
      data-status={message.status}
    >
      <span className="assistant-avatar" aria-hidden="true">
        <RobotOutlined />
      </span>
      <div className="assistant-bubble">
        {message.reasoning && (
          <ReasoningSection
            reasoning={message.reasoning}
            thinkingMs={message.thinkingMs}
            streaming={loading}
          />
        )}
        {message.content &&
          (loading ? (
            <StreamingMarkdown text={message.content} onApply={onApply} />
          ) : (
            <Markdown text={message.content} onApply={onApply} />
          ))}
        {waiting && (
          <span className="assistant-typing" role="status" aria-label={a.thinking}>
            <i />
            <i />
            <i />
          </span>
        )}
        {message.status === 'error' && (
          <div className="assistant-error" role="alert">
            <div>{a.errorBubble}</div>
            {errorDetail && <div className="assistant-error-detail">{errorDetail}</div>}
          </div>
        )}
        {message.status === 'stopped' && <Tag className="assistant-stopped">{a.stopped}</Tag>}
      </div>
    </article>
  );
});

function QuestionBubble({ message }: { message: ChatMessage }) {
  return (
    <article className="assistant-message assistant-message-question" aria-label={a.you}>
      <div className="assistant-bubble">{message.content}</div>
    </article>
  );
}

function Welcome({ onSuggestion }: { onSuggestion: (text: string) => void }) {
  return (
    <article className="assistant-message assistant-message-answer assistant-welcome">
      <span className="assistant-avatar" aria-hidden="true">
        <RobotOutlined />
      </span>
      <div className="assistant-bubble">
        <h3 className="assistant-welcome-title">{a.welcomeTitle}</h3>
        <p>{a.welcomeText}</p>
        <ul className="assistant-suggestions">
          {a.suggestions.map((text) => (
            <li key={text}>
              <button
                type="button"
                className="assistant-suggestion"
                onClick={() => onSuggestion(text)}
              >
                {text}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </article>
  );
}

/** Distance from the bottom (px) within which the view counts as at the bottom. */
const STICK_PX = 48;

type Props = {
  messages: ChatMessage[];
  errorDetail: string | null;
  onSuggestion: (text: string) => void;
  onApply: ApplyCode;
};

/**
 * The conversation: the welcome message with its suggestions when empty, then questions and
 * answers. It follows a streaming answer while the view is at the bottom; scrolled up, it
 * stays put and offers a scroll-to-bottom button.
 */
export function Conversation({ messages: list, errorDetail, onSuggestion, onApply }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [showJump, setShowJump] = useState(false);

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    atBottom.current = distance <= STICK_PX;
    setShowJump(!atBottom.current);
  }, []);

  const jump = useCallback((smooth: boolean) => {
    const element = scroller.current;
    if (!element) return;
    if (smooth && typeof element.scrollTo === 'function') {
      element.scrollTo({ top: element.scrollHeight, behavior: 'smooth' });
    } else {
      element.scrollTop = element.scrollHeight;
    }
    atBottom.current = true;
    setShowJump(false);
  }, []);

  const last = list.at(-1);
  const count = list.length;
  // A new question always brings the view down; streamed text does while it is there.
  useEffect(() => {
    if (count > 0) jump(false);
  }, [count, jump]);
  useEffect(() => {
    if (atBottom.current) jump(false);
  }, [last?.content, last?.reasoning, last?.status, jump]);

  // Content growing after layout (code highlighting, fonts) keeps a bottom view at the bottom.
  useEffect(() => {
    const element = scroller.current;
    const content = element?.firstElementChild;
    if (!element || !content || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
      else onScroll();
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, [onScroll]);

  return (
    <div className="assistant-conversation-frame">
      <div
        className="assistant-conversation"
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-live="polite"
        aria-label={a.title}
      >
        <div className="assistant-conversation-content">
          {list.length === 0 && <Welcome onSuggestion={onSuggestion} />}
          {list.map((message) =>
            message.role === 'user' ? (
              <QuestionBubble key={message.id} message={message} />
            ) : (
              <AnswerBubble
                key={message.id}
                message={message}
                errorDetail={message === last ? errorDetail : null}
                onApply={onApply}
              />
            ),
          )}
        </div>
      </div>
      {showJump && (
        <Button
          className="assistant-jump"
          shape="circle"
          icon={<ArrowDownOutlined />}
          aria-label={a.scrollToBottom}
          title={a.scrollToBottom}
          onClick={() => jump(true)}
        />
      )}
    </div>
  );
}
