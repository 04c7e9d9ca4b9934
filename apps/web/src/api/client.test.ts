import { CODE_AUTH_FAILED, MSG_TOKEN_INVALID } from '@ct/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigate } from '../shared/navigation';
import { STORAGE_KEYS } from '../shared/storage';
import { jsonResponse } from '../test/fixtures';
import { ApiError, failureReason, http, HTTP_TIMEOUT_MS, onAuthFailure } from './client';

const authFailure = { code: CODE_AUTH_FAILED, msg: MSG_TOKEN_INVALID, data: null };

function storeSession() {
  localStorage.setItem(STORAGE_KEYS.userId, '12');
  localStorage.setItem(STORAGE_KEYS.userName, 'alice@example.com');
  localStorage.setItem(STORAGE_KEYS.userData, '{"id":12}');
  localStorage.setItem(STORAGE_KEYS.isLoggedIn, 'true');
  localStorage.setItem(STORAGE_KEYS.currentTrader, '{"uuid":"acc-1"}');
  localStorage.setItem(STORAGE_KEYS.theme, 'dark');
}

describe('http client', () => {
  const navigate = vi.fn();
  let unregister: () => void;

  beforeEach(() => {
    navigate.mockReset();
    unregister = registerNavigate(navigate);
  });
  afterEach(() => unregister());

  it.each([401, 200])(
    'on code 50002 (HTTP %i) forgets the session, goes to /login and fails',
    async (status) => {
      storeSession();
      const listener = vi.fn();
      const stop = onAuthFailure(listener);
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(authFailure, status)));

      await expect(http.get('/trading/order/position')).rejects.toThrow(MSG_TOKEN_INVALID);

      for (const key of ['userId', 'userName', 'userData', 'isLoggedIn', 'currentTrader']) {
        expect(localStorage.getItem(key)).toBeNull();
      }
      expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
      expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
      expect(listener).toHaveBeenCalledTimes(1);
      stop();
    },
  );

  it('fails with an Error whose message is exactly Token验证失败', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(authFailure, 401)));
    const error = await http.post('/user/api/v1/account/logout').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('Token验证失败');
  });

  it('sends the stored identity headers, the session cookie and JSON', async () => {
    storeSession();
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({ code: 0, msg: 'ok', data: 1 }));
    vi.stubGlobal('fetch', fetchMock);

    const answer = await http.post('/trading/order/open', { volume: 1 });

    expect(answer).toEqual({ code: 0, msg: 'ok', data: 1 });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/trading/order/open');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"volume":1}');
    expect(init.headers).toMatchObject({
      'x-user-id': '12',
      'x-user-name': 'alice@example.com',
      'Content-Type': 'application/json',
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('leaves the identity headers out when nothing is stored', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({ status: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await http.get('/api/health');
    const init = fetchMock.mock.calls[0]![1] as RequestInit;
    expect(init.headers).not.toHaveProperty('x-user-id');
    expect(init.headers).not.toHaveProperty('x-user-name');
  });

  it('encodes GET params and asks for fresh answers with noCache', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({ code: 0, msg: '', data: [] }));
    vi.stubGlobal('fetch', fetchMock);
    await http.get('/trading/order/logs', {
      params: { uuid: 'a b', channel: 1, skip: undefined, token: null },
      noCache: true,
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/trading/order/logs?uuid=a+b&channel=1');
    expect(init.cache).toBe('no-store');
    expect(init.headers).toMatchObject({ 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
  });

  it('turns other non-2xx answers into an ApiError carrying the body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse({ code: 40000, msg: 'volume: too small' }, 400)),
    );
    const error = await http.get('/trading/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe('volume: too small');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('gives up after 300000 ms', async () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_url: string, init: RequestInit) =>
            new Promise((_resolve, reject) => {
              init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
            }),
        ),
      );
      const pending = http.get('/api/slow').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS - 1);
      let settled = false;
      void pending.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const error = await pending;
      expect((error as Error).message).toContain('300000 ms');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('failureReason', () => {
  it("gives the server's detail, else its msg, else the error's message", () => {
    expect(failureReason(new ApiError(400, { detail: 'Bad period', msg: 'x' }, 'm'))).toBe(
      'Bad period',
    );
    expect(failureReason(new ApiError(400, { detail: '', msg: 'Too many' }, 'm'))).toBe('Too many');
    expect(failureReason(new ApiError(502, 'Bad gateway', 'Request failed'))).toBe(
      'Request failed',
    );
    expect(failureReason(new Error('offline'))).toBe('offline');
    expect(failureReason('nope')).toBeNull();
  });
});
