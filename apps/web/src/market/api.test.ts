import { describe, expect, it, vi } from 'vitest';
import { MalformedAnswerError } from '../api/client';
import { jsonResponse } from '../test/fixtures';
import { fetchInstrumentGroups, fetchKlines, fetchSymbolList } from './api';

describe('the market api', () => {
  it.each([
    ['the instrument groups', () => fetchInstrumentGroups(), [{ name: 'FX' }]],
    [
      'the symbol list',
      () => fetchSymbolList(),
      { code: 0, msg: 'ok', data: { lists: [{ id: 'x' }] } },
    ],
    [
      'the bars',
      () => fetchKlines('GOOG', 'day'),
      { code: 0, msg: 'ok', data: { lists: [{ open: 'high' }] } },
    ],
  ])('refuses a malformed answer of %s with a clear error', async (_name, call, body) => {
    vi.stubGlobal('fetch', async () => jsonResponse(body));
    const failure = await call().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MalformedAnswerError);
    expect((failure as Error).message).toMatch(/^Unexpected answer from GET \/(trading|api)\//);
  });
});
