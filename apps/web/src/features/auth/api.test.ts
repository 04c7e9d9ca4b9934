import { describe, expect, it, vi } from 'vitest';
import { MalformedAnswerError } from '../../api/client';
import { buildUser, jsonResponse } from '../../test/fixtures';
import { loginRequest } from './api';

describe('the auth api', () => {
  it('hands over a login answer that matches its schema', async () => {
    const body = { status: 200, msg: 'ok', data: [buildUser()] };
    vi.stubGlobal('fetch', async () => jsonResponse(body));
    expect(await loginRequest('alice@example.com', 'secret')).toEqual(body);
  });

  it('refuses a malformed login answer with a clear error', async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse({ status: 200, msg: 'ok', data: [{ id: 'x' }] }),
    );
    const failure = await loginRequest('alice@example.com', 'secret').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MalformedAnswerError);
    expect((failure as Error).message).toMatch(
      /^Unexpected answer from POST \/user\/api\/v1\/account\/login: data\.0\./,
    );
  });
});
