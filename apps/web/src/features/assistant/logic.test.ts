import { describe, expect, it } from 'vitest';
import {
  applyAnswerEvent,
  checkSend,
  historyForRequest,
  needsApiKey,
  thinkingSeconds,
  type ChatMessage,
} from './logic';

const answer = (overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'a',
  role: 'assistant',
  content: '',
  reasoning: '',
  status: 'loading',
  startedAt: 1_000,
  thinkingMs: null,
  ...overrides,
});

describe('the sending rule', () => {
  it('needs non-empty trimmed text', () => {
    expect(checkSend('   \n ', { requiresKey: false, hasKey: false })).toBe('empty');
  });

  it('needs a configured key when the provider requires one', () => {
    expect(checkSend('Hi', { requiresKey: true, hasKey: false })).toBe('missing-key');
    expect(checkSend('Hi', { requiresKey: true, hasKey: true })).toBe('ok');
  });

  it('lets a keyless provider (Ollama) send without a key', () => {
    expect(needsApiKey('ollama')).toBe(false);
    expect(needsApiKey('qwen')).toBe(true);
    expect(checkSend('Hi', { requiresKey: needsApiKey('ollama'), hasKey: false })).toBe('ok');
  });
});

describe('an answer being streamed', () => {
  it('marks reasoning complete when answer text starts after it', () => {
    let message = applyAnswerEvent(answer(), { type: 'reasoning', text: 'Hmm' }, 2_000);
    expect(message.thinkingMs).toBeNull();
    message = applyAnswerEvent(message, { type: 'content', text: '' }, 2_500);
    expect(message.thinkingMs).toBeNull();
    message = applyAnswerEvent(message, { type: 'content', text: 'Answer' }, 4_200);
    expect(message.thinkingMs).toBe(3_200);
    message = applyAnswerEvent(message, { type: 'content', text: ' more' }, 9_000);
    expect(message).toMatchObject({ content: 'Answer more', reasoning: 'Hmm', thinkingMs: 3_200 });
    message = applyAnswerEvent(message, { type: 'done' }, 9_100);
    expect(message.status).toBe('done');
  });

  it('has no thinking time without reasoning', () => {
    const message = applyAnswerEvent(answer(), { type: 'content', text: 'Hi' }, 5_000);
    expect(message.thinkingMs).toBeNull();
  });

  it('shows whole seconds, at least 1', () => {
    expect(thinkingSeconds(200)).toBe(1);
    expect(thinkingSeconds(3_200)).toBe(3);
    expect(thinkingSeconds(12_600)).toBe(13);
  });

  it('an error ends it as failed', () => {
    const message = applyAnswerEvent(answer(), { type: 'error', message: 'x' }, 2_000);
    expect(message.status).toBe('error');
  });
});

describe('the history sent with a question', () => {
  it('keeps questions and answers without reasoning, failed or empty answers', () => {
    const history = historyForRequest([
      { ...answer({ id: 'q1', role: 'user', content: 'One', status: 'done' }) },
      answer({ id: 'a1', content: 'Reply', reasoning: 'secret', status: 'done' }),
      { ...answer({ id: 'q2', role: 'user', content: 'Two', status: 'done' }) },
      answer({ id: 'a2', content: 'Half', status: 'error' }),
      answer({ id: 'a3', content: 'Cut short', status: 'stopped' }),
      answer({ id: 'a4', content: '', status: 'stopped' }),
    ]);
    expect(history).toEqual([
      { role: 'user', content: 'One' },
      { role: 'assistant', content: 'Reply' },
      { role: 'user', content: 'Two' },
      { role: 'assistant', content: 'Cut short' },
    ]);
  });
});
