import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigate } from '../../shared/navigation';
import { recordToasts, type RecordedToast } from '../../test/toasts';
import { STORAGE_KEYS } from '../../shared/storage';
import { buildUser, jsonResponse } from '../../test/fixtures';
import { storeSession } from '../../test/render';
import { logout, switchTrader, useAuthStore } from './store';

describe('auth actions', () => {
  const navigate = vi.fn();
  let toasts: RecordedToast[] = [];
  const cleanups: (() => void)[] = [];

  beforeEach(() => {
    navigate.mockReset();
    cleanups.push(registerNavigate(navigate));
    const recorder = recordToasts();
    toasts = recorder.toasts;
    cleanups.push(recorder.unregister);
  });
  afterEach(() => cleanups.splice(0).forEach((fn) => fn()));

  it('switchTrader makes the account current, stores it and says Trading account switched', () => {
    storeSession(buildUser());
    expect(switchTrader('acc-2')).toBe(true);
    expect(useAuthStore.getState().currentTrader?.name).toBe('Second Account');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.currentTrader)!).uuid).toBe('acc-2');
    expect(toasts).toEqual([{ type: 'success', text: 'Trading account switched' }]);
  });

  it('switchTrader ignores an unknown account', () => {
    storeSession(buildUser());
    expect(switchTrader('nope')).toBe(false);
    expect(useAuthStore.getState().currentTrader?.uuid).toBe('acc-1');
    expect(toasts).toEqual([]);
  });

  it('logout calls the server, forgets the session and goes to /login', async () => {
    storeSession(buildUser());
    localStorage.setItem(STORAGE_KEYS.theme, 'dark');
    const fetchMock = vi
      .fn()
      .mockResolvedValue(jsonResponse({ code: 0, msg: 'Logged out', data: null }));
    vi.stubGlobal('fetch', fetchMock);
    await logout();
    expect(fetchMock.mock.calls[0]![0]).toBe('/user/api/v1/account/logout');
    for (const key of ['userId', 'userName', 'userData', 'isLoggedIn', 'currentTrader']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    expect(useAuthStore.getState()).toMatchObject({ userId: null, user: null, isLoggedIn: false });
    expect(navigate).toHaveBeenLastCalledWith('/login', { replace: true });
  });

  it('logout still signs out when the server cannot be reached', async () => {
    storeSession(buildUser());
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await logout();
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
    expect(navigate).toHaveBeenLastCalledWith('/login', { replace: true });
  });

  it('a 50002 answer anywhere also resets the in-memory session', async () => {
    storeSession(buildUser());
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(jsonResponse({ code: 50002, msg: 'Token验证失败', data: null }, 401)),
    );
    const { http } = await import('../../api/client');
    await expect(http.get('/trading/order/position')).rejects.toThrow('Token验证失败');
    expect(useAuthStore.getState().userId).toBeNull();
    expect(useAuthStore.getState().currentTrader).toBeNull();
  });
});
