import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { create } from 'zustand';
import { installFrameBridge, uninstallFrameBridge } from './frameBridge';
import { SharedState, useFrameSyncStore } from './sharedState';
import {
  frameMode as mode,
  frameWindow,
  manualClock,
  messageFrom as from,
  ORIGIN,
} from './testSupport';

import type * as Connection from './connection';

vi.mock('./connection', async (original) => {
  const { frameMode } = await import('./testSupport');
  return {
    ...(await original<typeof Connection>()),
    isChildFrame: () => frameMode.child,
  };
});

const useTheme = create<{ mode: 'light' | 'dark' }>(() => ({ mode: 'light' }));
const useStatus = create<{ status: 'disconnected' | 'connecting' | 'connected' }>(() => ({
  status: 'connected',
}));

function register(state: SharedState) {
  state.register('theme', {
    get: () => useTheme.getState().mode,
    set: (mode) => useTheme.setState({ mode }),
    subscribe: (listener) => useTheme.subscribe(listener),
  });
  state.register('connectionStatus', {
    get: () => useStatus.getState().status,
    set: (status) => useStatus.setState({ status }),
    subscribe: (listener) => useStatus.subscribe(listener),
    mainOnly: true,
  });
}

describe('shared state between the main window and its frames', () => {
  let clock: ReturnType<typeof manualClock>;
  let state: SharedState;

  beforeEach(() => {
    mode.child = false;
    useTheme.setState({ mode: 'light' });
    useStatus.setState({ status: 'connected' });
    installFrameBridge();
    clock = manualClock();
    state = new SharedState(clock);
    register(state);
  });
  afterEach(() => {
    state.reset();
    uninstallFrameBridge();
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  describe('in the main window', () => {
    it('answers a frame’s state request with the whole state', () => {
      state.start();
      expect(useFrameSyncStore.getState().status).toBe('main');
      const frame = frameWindow();
      const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
      from(frame, { type: 'cw_state_request', requestId: 'r1' });
      expect(post).toHaveBeenCalledWith(
        {
          type: 'cw_sync_all_state',
          requestId: 'r1',
          state: { theme: 'light', connectionStatus: 'connected' },
        },
        ORIGIN,
      );
    });

    it('sends its changes to every frame, once per change', () => {
      state.start();
      const a = frameWindow();
      const b = frameWindow();
      const postA = vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      const postB = vi.spyOn(b, 'postMessage').mockImplementation(() => {});
      useTheme.setState({ mode: 'dark' });
      useTheme.setState({ mode: 'dark' });
      const update = { type: 'cw_state_update', key: 'theme', payload: 'dark' };
      expect(postA).toHaveBeenCalledTimes(1);
      expect(postA).toHaveBeenCalledWith(update, ORIGIN);
      expect(postB).toHaveBeenCalledWith(update, ORIGIN);
    });

    it('applies a frame’s change and passes it on to the other frames only', () => {
      state.start();
      const a = frameWindow();
      const b = frameWindow();
      const postA = vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      const postB = vi.spyOn(b, 'postMessage').mockImplementation(() => {});
      const update = { type: 'cw_state_update', key: 'theme', payload: 'dark' };
      from(a, update);
      expect(useTheme.getState().mode).toBe('dark');
      expect(postA).not.toHaveBeenCalled(); // no echo to the sender
      expect(postB).toHaveBeenCalledWith(update, ORIGIN);
    });

    it('ignores invalid values, main-only items from frames, strangers and other origins', () => {
      state.start();
      const a = frameWindow();
      vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      from(a, { type: 'cw_state_update', key: 'theme', payload: 'purple' });
      from(a, { type: 'cw_state_update', key: 'connectionStatus', payload: 'disconnected' });
      from(a, { type: 'cw_state_update', key: 'theme', payload: 'dark' }, 'https://evil.example');
      const removed = frameWindow();
      removed.frameElement?.remove();
      from(removed, { type: 'cw_state_update', key: 'theme', payload: 'dark' });
      expect(useTheme.getState().mode).toBe('light');
      expect(useStatus.getState().status).toBe('connected');
    });
  });

  describe('in a child frame', () => {
    beforeEach(() => {
      mode.child = true;
    });

    it('asks for the whole state 100 ms after it starts and applies the answer', () => {
      const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
      state.start();
      expect(useFrameSyncStore.getState().status).toBe('waiting');
      clock.advance(99);
      expect(post).not.toHaveBeenCalled();
      clock.advance(1);
      const request = post.mock.calls[0]![0] as { type: string; requestId: string };
      expect(request.type).toBe('cw_state_request');
      expect(useFrameSyncStore.getState().status).toBe('syncing');
      // in jsdom window.parent is the window itself
      from(window, {
        type: 'cw_sync_all_state',
        requestId: request.requestId,
        state: { theme: 'dark', connectionStatus: 'connecting', unknownKey: 1 },
      });
      expect(useTheme.getState().mode).toBe('dark');
      expect(useStatus.getState().status).toBe('connecting');
      expect(useFrameSyncStore.getState()).toEqual({ status: 'synced', error: null });
      clock.advance(10_000);
      expect(useFrameSyncStore.getState().status).toBe('synced');
      expect(post).toHaveBeenCalledTimes(1); // applying sent nothing back
    });

    it("says 'State sync timeout' after 5 s without an answer, and retries on request", () => {
      const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
      state.start();
      clock.advance(100);
      clock.advance(4_999);
      expect(useFrameSyncStore.getState().status).toBe('syncing');
      clock.advance(1);
      expect(useFrameSyncStore.getState()).toEqual({
        status: 'timeout',
        error: 'State sync timeout',
      });
      state.requestAll();
      expect(post).toHaveBeenCalledTimes(2);
      expect(useFrameSyncStore.getState().status).toBe('syncing');
    });

    it('ignores an answer to another request', () => {
      vi.spyOn(window, 'postMessage').mockImplementation(() => {});
      state.start();
      clock.advance(100);
      from(window, {
        type: 'cw_sync_all_state',
        requestId: 'someone-else',
        state: { theme: 'dark' },
      });
      expect(useTheme.getState().mode).toBe('light');
    });

    it('follows updates of the main window and sends its own changes up, main-only ones not', () => {
      const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
      state.start();
      from(window, { type: 'cw_state_update', key: 'theme', payload: 'dark' });
      expect(useTheme.getState().mode).toBe('dark');
      expect(post).not.toHaveBeenCalled();
      useTheme.setState({ mode: 'light' });
      expect(post).toHaveBeenCalledWith(
        { type: 'cw_state_update', key: 'theme', payload: 'light' },
        ORIGIN,
      );
      useStatus.setState({ status: 'disconnected' });
      expect(post).toHaveBeenCalledTimes(1);
    });
  });
});
