import { describe, expect, it } from 'vitest';
import {
  chatRequestSchema,
  chatSizeProblem,
  formatChatEvent,
  isMaskedApiKey,
  maskApiKey,
  MAX_CHAT_MESSAGE_CHARS,
  MAX_CHAT_TOTAL_CHARS,
  normalizeBaseUrl,
  parseChatEvent,
  saveApiSettingsRequestSchema,
} from '../index.ts';

describe('maskApiKey', () => {
  it('shows at most the first 3 and last 4 characters', () => {
    expect(maskApiKey('sk-abcdefghijklmnop3456')).toBe('sk-…3456');
    expect(maskApiKey('abcdefgh')).toBe('…gh');
    expect(maskApiKey('abc')).toBe('…');
    expect(maskApiKey('')).toBe('');
  });

  it('is recognised as masked, a typed key is not', () => {
    expect(isMaskedApiKey(maskApiKey('sk-abcdefghijklmnop3456'))).toBe(true);
    expect(isMaskedApiKey('sk-abcdefghijklmnop3456')).toBe(false);
  });
});

describe('saveApiSettingsRequestSchema', () => {
  it('needs provider, endpoint and model with the spec messages; the key is optional', () => {
    const parsed = saveApiSettingsRequestSchema.safeParse({ provider: '', baseURL: '', model: '' });
    expect(parsed.success).toBe(false);
    const messages = parsed.error?.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Please select a service provider',
        'Please enter API endpoint',
        'Please select a model',
      ]),
    );
    expect(
      saveApiSettingsRequestSchema.parse({ provider: 'qwen', baseURL: 'x', model: 'qwen-plus' })
        .apiKey,
    ).toBe('');
  });

  it('refuses keys with spaces or control characters', () => {
    const bad = { provider: 'qwen', baseURL: 'x', model: 'qwen-plus', apiKey: 'sk a' };
    expect(saveApiSettingsRequestSchema.safeParse(bad).success).toBe(false);
  });
});

describe('chat requests', () => {
  const user = (content: string) => ({ role: 'user' as const, content });

  it('keeps role and content only: reasoning a client stored is dropped', () => {
    const parsed = chatRequestSchema.parse({
      messages: [
        user('hi'),
        { role: 'assistant', content: 'hello', reasoning_content: 'secret', reasoning: 'x' },
        user('more'),
      ],
    });
    expect(parsed.messages[1]).toEqual({ role: 'assistant', content: 'hello' });
  });

  it('needs a last, non-empty user message', () => {
    expect(chatRequestSchema.safeParse({ messages: [] }).success).toBe(false);
    expect(
      chatRequestSchema.safeParse({ messages: [{ role: 'assistant', content: 'x' }] }).success,
    ).toBe(false);
    expect(chatRequestSchema.safeParse({ messages: [user('  ')] }).success).toBe(false);
    expect(
      chatRequestSchema.safeParse({ messages: [{ role: 'system', content: 'x' }, user('a')] })
        .success,
    ).toBe(false);
  });

  it('names the size limit a request breaks', () => {
    const ok = chatRequestSchema.parse({ messages: [user('hello')] });
    expect(chatSizeProblem(ok)).toBeNull();
    const long = chatRequestSchema.parse({
      messages: [user('x'.repeat(MAX_CHAT_MESSAGE_CHARS + 1))],
    });
    expect(chatSizeProblem(long)).toMatch(/^Message 1 is too long/);
    const many = chatRequestSchema.parse({
      messages: Array.from({ length: 7 }, () => user('x'.repeat(MAX_CHAT_MESSAGE_CHARS))),
    });
    expect(7 * MAX_CHAT_MESSAGE_CHARS).toBeGreaterThan(MAX_CHAT_TOTAL_CHARS);
    expect(chatSizeProblem(many)).toMatch(/^The conversation is too long/);
  });
});

describe('chat events', () => {
  it('round-trip through the SSE text', () => {
    const text = formatChatEvent({ event: 'content', data: { text: 'a\nb' } });
    expect(text).toBe('event: content\ndata: {"text":"a\\nb"}\n\n');
    expect(parseChatEvent('content', '{"text":"a\\nb"}')).toEqual({
      event: 'content',
      data: { text: 'a\nb' },
    });
  });

  it('refuse unknown names and bodies that do not match', () => {
    expect(parseChatEvent('other', '{}')).toBeNull();
    expect(parseChatEvent('error', '{"code":"nope","message":"x"}')).toBeNull();
    expect(parseChatEvent('done', 'not json')).toBeNull();
    expect(parseChatEvent('done', '{"finish_reason":"stop"}')).toEqual({
      event: 'done',
      data: { finish_reason: 'stop' },
    });
  });
});

it('normalizeBaseUrl drops trailing slashes', () => {
  expect(normalizeBaseUrl('https://api.deepseek.com/ ')).toBe('https://api.deepseek.com');
});
