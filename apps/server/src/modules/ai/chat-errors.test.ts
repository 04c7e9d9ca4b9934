import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { apiErrorEvent, stoppedEvent } from './chat-errors.ts';

const chat = { apiKey: 'sk-secret-1234', model: 'qwen-plus', provider: { label: 'Qwen' } };

describe("a chat's failures read as the provider's refusal or the relay's stop", () => {
  it("words a refusal by its status and keeps the provider's words without the key", () => {
    const error = new APIError(
      401,
      { message: 'Invalid key sk-secret-1234' },
      '401',
      new Headers(),
    );
    expect(apiErrorEvent(error, chat)).toEqual({
      event: 'error',
      data: {
        code: 'auth',
        status: 401,
        message:
          'Qwen refused the API key (HTTP 401). Check the key in API Settings. Invalid key ***',
      },
    });
  });

  it('names the bound an answer was stopped at', () => {
    const bounds = { firstTokenMs: 30_000, idleMs: 15_000, totalMs: 120_000, maxChars: 1000 };
    expect(stoppedEvent('first-token', 'Qwen', bounds).data).toEqual({
      code: 'timeout',
      message: 'Qwen sent no answer within 30 s.',
    });
    expect(stoppedEvent('too-long', 'Qwen', bounds).data).toMatchObject({ code: 'too_long' });
    expect(stoppedEvent('idle', 'Qwen', bounds).data).toMatchObject({
      message: 'Qwen stopped sending for 15 s; the answer is incomplete.',
    });
  });
});
