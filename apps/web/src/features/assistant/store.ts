import type { ChatContext, ChatEvent } from '@ct/domain';
import { create } from 'zustand';
import { ApiError, failureReason, onAuthFailure } from '../../api/client';
import { notify } from '../../shared/notify';
import { assistant as messages } from '../../i18n/defaults/assistant';
import { useAuthStore } from '../auth';
import { streamChat } from './api';
import {
  applyAnswerEvent,
  checkSend,
  historyForRequest,
  type AnswerEvent,
  type ChatMessage,
} from './logic';
import {
  loadAssistantSettings,
  openSettingsModal,
  providerNeedsKey,
  resetAssistantSettings,
  useAssistantSettings,
} from './settingsStore';

const a = messages.assistant;

type ChatState = {
  /** The drawer (a full-screen modal on phones). */
  open: boolean;
  /** True once it was opened: the chat's code loads then, and stays mounted. */
  opened: boolean;
  messages: ChatMessage[];
  /** True while an answer streams. */
  streaming: boolean;
  /** The input's text: kept while the drawer is closed, cleared when sent. */
  draft: string;
  /** Why the last answer failed, as the server said (shown under the error bubble). */
  errorDetail: string | null;
};

export const useChatStore = create<ChatState>(() => ({
  open: false,
  opened: false,
  messages: [],
  streaming: false,
  draft: '',
  errorDetail: null,
}));

/** What the page shows now (active chart, editor code, last backtest); set by the page. */
type ContextSource = () => ChatContext;
const contextSources: ContextSource[] = [];

/** Registers where the chat's context comes from; the latest registered wins. */
export function registerChatContext(source: ContextSource): () => void {
  contextSources.push(source);
  return () => {
    const index = contextSources.lastIndexOf(source);
    if (index !== -1) contextSources.splice(index, 1);
  };
}

function currentContext(): ChatContext | undefined {
  const source = contextSources.at(-1);
  if (!source) return undefined;
  try {
    const context = source();
    return Object.keys(context).length > 0 ? context : undefined;
  } catch (error) {
    // A chat without context is still useful.
    console.warn('The chat context could not be read', error);
    return undefined;
  }
}

let controller: AbortController | null = null;
let sequence = 0;
/** The clock; tests replace it to check thinking times. */
let clock: () => number = () => Date.now();

export function setChatClock(now: () => number): void {
  clock = now;
}

function newId(prefix: string): string {
  sequence += 1;
  return `${prefix}-${clock().toString(36)}-${sequence}`;
}

export function openAssistant(): void {
  useChatStore.setState({ open: true, opened: true });
  loadAssistantSettings().catch(() => notify.error(a.settings.providersFailed));
}

export function closeAssistant(): void {
  useChatStore.setState({ open: false });
}

export function setDraft(draft: string): void {
  useChatStore.setState({ draft });
}

function updateAnswer(id: string, change: (message: ChatMessage) => ChatMessage): void {
  useChatStore.setState((state) => ({
    messages: state.messages.map((m) => (m.id === id ? change(m) : m)),
  }));
}

function toAnswerEvent(event: ChatEvent): AnswerEvent {
  switch (event.event) {
    case 'reasoning':
    case 'content':
      return { type: event.event, text: event.data.text };
    case 'error':
      return { type: 'error', message: event.data.message };
    case 'done':
      return { type: 'done' };
  }
}

function failAnswer(id: string, detail: string | null): void {
  updateAnswer(id, (m) => ({ ...m, status: 'error' }));
  useChatStore.setState({ errorDetail: detail });
  notify.error(a.errorToast);
}

/**
 * Sends a question (spec section 5): non-empty trimmed text and a configured API key
 * (unless the provider needs none), else 'Please set OpenAI API Key first' and the API
 * Settings open. The answer streams into the conversation. Returns whether it was sent.
 */
export async function sendMessage(text: string): Promise<boolean> {
  if (useChatStore.getState().streaming) return false;
  if (!text.trim()) return false;
  try {
    await loadAssistantSettings();
  } catch {
    // The server decides without the settings: a missing key comes back as an error.
  }
  const settings = useAssistantSettings.getState();
  const check = checkSend(text, {
    requiresKey: settings.loaded ? providerNeedsKey(settings) : false,
    hasKey: settings.apiKey !== '',
  });
  if (check === 'empty') return false;
  if (check === 'missing-key') {
    notify.warning(a.setKeyFirst);
    openSettingsModal();
    return false;
  }

  const now = clock();
  const question: ChatMessage = {
    id: newId('q'),
    role: 'user',
    content: text.trim(),
    reasoning: '',
    status: 'done',
    startedAt: now,
    thinkingMs: null,
  };
  const answer: ChatMessage = {
    id: newId('a'),
    role: 'assistant',
    content: '',
    reasoning: '',
    status: 'loading',
    startedAt: now,
    thinkingMs: null,
  };
  const history = historyForRequest([...useChatStore.getState().messages, question]);
  useChatStore.setState((state) => ({
    messages: [...state.messages, question, answer],
    streaming: true,
    draft: '',
    errorDetail: null,
  }));

  const own = new AbortController();
  controller = own;
  let finished = false;
  try {
    const context = currentContext();
    await streamChat(
      {
        messages: history,
        provider: settings.provider,
        model: settings.model,
        ...(context ? { context } : {}),
      },
      (event) => {
        const change = toAnswerEvent(event);
        if (change.type === 'error') {
          finished = true;
          failAnswer(answer.id, change.message);
          return;
        }
        if (change.type === 'done') finished = true;
        updateAnswer(answer.id, (m) => applyAnswerEvent(m, change, clock()));
      },
      own.signal,
    );
    // A stream that ends without its last event lost the rest of the answer.
    if (!finished && !own.signal.aborted) failAnswer(answer.id, null);
  } catch (error) {
    if (own.signal.aborted) {
      updateAnswer(answer.id, (m) => ({ ...m, status: 'stopped' }));
    } else if (failureReason(error) === a.setKeyFirst) {
      // The server knows of no key after all: back to the question, and to the settings.
      useChatStore.setState((state) => ({
        messages: state.messages.filter((m) => m.id !== question.id && m.id !== answer.id),
        draft: question.content,
      }));
      notify.warning(a.setKeyFirst);
      openSettingsModal();
    } else if (!finished) {
      if (!(error instanceof ApiError)) console.warn('The chat request failed', error);
      failAnswer(answer.id, failureReason(error));
    }
  } finally {
    if (controller === own) controller = null;
    useChatStore.setState({ streaming: false });
  }
  return true;
}

/** Stops the answer being streamed; what arrived so far stays. */
export function stopAnswer(): void {
  controller?.abort();
}

/** Starts a new conversation (stopping an answer in progress). */
export function newConversation(): void {
  stopAnswer();
  useChatStore.setState({ messages: [], draft: '', errorDetail: null });
}

/** Forgets the conversation and closes the drawer (logout, token failure, tests). */
export function resetChat(): void {
  stopAnswer();
  useChatStore.setState({
    open: false,
    messages: [],
    streaming: false,
    draft: '',
    errorDetail: null,
  });
}

onAuthFailure(resetChat);

// Another user's session starts with their own settings and an empty conversation.
useAuthStore.subscribe((state, previous) => {
  if (state.userId === previous.userId) return;
  resetChat();
  resetAssistantSettings();
});
