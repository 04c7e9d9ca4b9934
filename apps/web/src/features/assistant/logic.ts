/** The chat's rules, free of React and I/O: time is passed in, so tests drive it. */

export type ChatRole = 'user' | 'assistant';

/** An answer is loading while it streams, then done; a failed or stopped one says so. */
export type MessageStatus = 'loading' | 'done' | 'error' | 'stopped';

export type ChatMessage = {
  id: string;
  role: ChatRole;
  /** The text (markdown for answers). */
  content: string;
  /** The model's reasoning text, shown in its own section; never sent back. */
  reasoning: string;
  status: MessageStatus;
  /** When the question was sent (epoch ms); thinking time counts from here. */
  startedAt: number;
  /** Thinking time in ms, set when answer text starts after reasoning; null until then. */
  thinkingMs: number | null;
};

/** What the stream of one answer can say, whatever its wire format. */
export type AnswerEvent =
  | { type: 'reasoning'; text: string }
  | { type: 'content'; text: string }
  | { type: 'error'; message: string }
  | { type: 'done' };

/** A provider that runs on the user's own machine and needs no key. */
export const KEYLESS_PROVIDERS: readonly string[] = ['ollama'];

/** Whether `provider` needs an API key before a chat can be sent (Ollama does not). */
export function needsApiKey(provider: string | null | undefined): boolean {
  return !KEYLESS_PROVIDERS.includes((provider ?? '').toLowerCase());
}

export type SendCheck = 'ok' | 'empty' | 'missing-key';

/**
 * The sending rule (spec section 5): non-empty trimmed text, and a configured API key
 * unless the provider needs none (a local Ollama server).
 */
export function checkSend(
  text: string,
  settings: { requiresKey: boolean; hasKey: boolean },
): SendCheck {
  if (!text.trim()) return 'empty';
  if (settings.requiresKey && !settings.hasKey) return 'missing-key';
  return 'ok';
}

/** Applies one stream event to the answer being written; `now` is epoch ms. */
export function applyAnswerEvent(
  message: ChatMessage,
  event: AnswerEvent,
  now: number,
): ChatMessage {
  switch (event.type) {
    case 'reasoning':
      if (!event.text) return message;
      return { ...message, reasoning: message.reasoning + event.text };
    case 'content': {
      if (!event.text) return message;
      // Reasoning is complete when answer text starts after it (spec section 4).
      const thinkingMs =
        message.thinkingMs === null && message.reasoning && !message.content
          ? Math.max(0, now - message.startedAt)
          : message.thinkingMs;
      return { ...message, content: message.content + event.text, thinkingMs };
    }
    case 'error':
      return { ...message, status: 'error' };
    case 'done':
      return message.status === 'loading' ? { ...message, status: 'done' } : message;
  }
}

/** Whole seconds shown in 'Deep Thinking Completed (Time: N seconds)'; at least 1. */
export function thinkingSeconds(ms: number): number {
  return Math.max(1, Math.round(ms / 1000));
}

/**
 * The conversation sent with a new question: questions and finished answers, without
 * reasoning (providers refuse it back) and without failed or empty answers.
 */
export function historyForRequest(
  messages: readonly ChatMessage[],
): { role: ChatRole; content: string }[] {
  return messages
    .filter((m) => m.content.trim() && (m.role === 'user' || m.status !== 'error'))
    .map((m) => ({ role: m.role, content: m.content }));
}
