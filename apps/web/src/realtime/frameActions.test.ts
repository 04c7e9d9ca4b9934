import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameActions, SharedActionError } from './frameActions';
import {
  frameStats,
  installFrameBridge,
  resetFrameStats,
  uninstallFrameBridge,
} from './frameBridge';
import {
  frameMode as mode,
  frameWindow,
  manualClock,
  messageFrom as from,
  ORIGIN,
  settle,
} from './testSupport';

import type * as Connection from './connection';

vi.mock('./connection', async (original) => {
  const { frameMode } = await import('./testSupport');
  return {
    ...(await original<typeof Connection>()),
    isChildFrame: () => frameMode.child,
  };
});

const events = [
  { time: 1_700_000_000, position: 'belowBar', shape: 'arrowUp', color: '#26a69a', text: 'OB' },
];

describe('shared actions between frames', () => {
  let clock: ReturnType<typeof manualClock>;
  let hub: FrameActions;
  let ids: number;
  let stopListening: () => void;

  beforeEach(() => {
    mode.child = false;
    resetFrameStats();
    installFrameBridge();
    clock = manualClock(1_000);
    ids = 0;
    hub = new FrameActions(clock, () => `id-${++ids}`);
    stopListening = hub.listen();
  });
  afterEach(() => {
    stopListening();
    hub.reset();
    uninstallFrameBridge();
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('the main window runs a registered action for a child and answers cw_ack', async () => {
    const frame = frameWindow();
    const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    const handler = vi.fn(() => ({ success: true }));
    hub.register('monacoWorkflow/currentChart', handler);
    const payload = { clientId: 'f:chart-page', symbolId: 'ETHUSDT', defaultCode: 'x' };
    from(frame, { type: 'cw_action', id: 'a1', action: 'monacoWorkflow/currentChart', payload });
    await settle();
    expect(handler).toHaveBeenCalledWith(payload, { source: frame });
    expect(post).toHaveBeenCalledWith(
      {
        type: 'cw_ack',
        id: 'a1',
        action: 'monacoWorkflow/currentChart',
        result: { success: true },
      },
      ORIGIN,
    );
  });

  it('answers cw_error for an unknown action, an invalid payload and a refusal', async () => {
    const frame = frameWindow();
    const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    hub.register('chartActions/createAITask', () => {
      throw new SharedActionError('No active chart');
    });
    from(frame, { type: 'cw_action', id: 'u', action: 'chartActions/nothing', payload: {} });
    from(frame, {
      type: 'cw_action',
      id: 'v',
      action: 'chartActions/createAITask',
      payload: { clientId: 'c' },
    });
    from(frame, {
      type: 'cw_action',
      id: 'w',
      action: 'chartActions/createAITask',
      payload: { clientId: 'c', prompt: 'p', taskType: 'strategy' },
    });
    await settle();
    const errors = post.mock.calls.map(([m]) => m as { id: string; error: string });
    expect(errors.find((m) => m.id === 'u')?.error).toBe('Unknown action: chartActions/nothing');
    expect(errors.find((m) => m.id === 'v')?.error).toMatch(/^Invalid payload/);
    expect(errors.find((m) => m.id === 'w')?.error).toBe('No active chart');
  });

  it('does not answer windows that are not its frames, nor other origins', async () => {
    const frame = frameWindow();
    const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    const handler = vi.fn(() => ({ success: true }));
    hub.register('chartActions/runCode', handler);
    const action = {
      type: 'cw_action',
      id: 'x',
      action: 'chartActions/runCode',
      payload: { clientId: 'c', code: 'print(1)', symbolId: 'BTCUSDT' },
    };
    from(frame, action, 'https://evil.example');
    // not a frame of ours: the window of an iframe that was removed
    const detached = frameWindow();
    detached.frameElement?.remove();
    from(detached, action);
    await settle();
    expect(handler).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();
    expect(frameStats.foreignOrigin).toBe(1);
  });

  it("a chart takes setEvents for its own client id only: else 'Not my chart'", async () => {
    const taken = vi.fn();
    hub.registerChart('frame-a:chart-page', { setEvents: taken });
    await expect(
      hub.runLocal(
        'chartActions/setEvents',
        { clientId: 'frame-a:chart-page', events },
        { source: null },
      ),
    ).resolves.toEqual({ success: true });
    expect(taken).toHaveBeenCalledWith(events, undefined);
    mode.child = true;
    await expect(
      hub.runLocal(
        'chartActions/setEvents',
        { clientId: 'frame-b:chart-page', events },
        { source: null },
      ),
    ).rejects.toThrow('Not my chart');
    expect(taken).toHaveBeenCalledTimes(1);
  });

  it('a child frame refuses setEvents of another chart with cw_error Not my chart', async () => {
    mode.child = true;
    hub.registerChart('frame-a:chart-page', { setEvents: vi.fn() });
    const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
    // in a child frame the parent is the window that asks (jsdom: window.parent === window)
    from(window, {
      type: 'cw_action',
      id: 'p1',
      action: 'chartActions/setEvents',
      payload: { clientId: 'frame-b:chart-page', events },
    });
    await settle();
    expect(post).toHaveBeenCalledWith(
      { type: 'cw_error', id: 'p1', action: 'chartActions/setEvents', error: 'Not my chart' },
      ORIGIN,
    );
  });

  it('a request from a child frame resolves with the main window’s ack', async () => {
    mode.child = true;
    const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
    const result = hub.request('chartActions/runCode', { clientId: 'c', code: 'x', symbolId: 'A' });
    expect(post).toHaveBeenCalledWith(
      {
        type: 'cw_action',
        id: 'id-1',
        action: 'chartActions/runCode',
        payload: { clientId: 'c', code: 'x', symbolId: 'A' },
      },
      ORIGIN,
    );
    from(window, {
      type: 'cw_ack',
      id: 'id-1',
      action: 'chartActions/runCode',
      result: { success: true, deals: [] },
    });
    await expect(result).resolves.toEqual({ success: true, deals: [] });
    expect(hub.pendingCount()).toBe(0);
  });

  it('a request rejects with the cw_error reason', async () => {
    mode.child = true;
    vi.spyOn(window, 'postMessage').mockImplementation(() => {});
    const result = hub.request('chartActions/createAITask', {});
    from(window, {
      type: 'cw_error',
      id: 'id-1',
      action: 'chartActions/createAITask',
      error: 'No active chart',
    });
    await expect(result).rejects.toThrow('No active chart');
  });

  it('drops a remote action after 10 s; a late answer is ignored', async () => {
    mode.child = true;
    vi.spyOn(window, 'postMessage').mockImplementation(() => {});
    const result = hub.request('chartActions/runCode', {});
    const outcome = result.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    clock.advance(9_999);
    expect(hub.pendingCount()).toBe(1);
    clock.advance(1);
    expect(await outcome).toBe('Remote action timed out');
    expect(hub.pendingCount()).toBe(0);
    expect(frameStats.timeouts).toBe(1);
    from(window, { type: 'cw_ack', id: 'id-1', action: 'chartActions/runCode', result: {} });
    expect(frameStats.acks).toBe(0);
  });

  it('in the main window a request runs the local handler', async () => {
    hub.register('monacoWorkflow/currentChart', () => ({ success: true, reason: 'local' }));
    await expect(
      hub.request('monacoWorkflow/currentChart', { clientId: 'c', symbolId: 'A', defaultCode: '' }),
    ).resolves.toEqual({ success: true, reason: 'local' });
  });

  describe('broadcasts to the child frames', () => {
    it('settle with the first success; refusals of other frames do not matter', async () => {
      const a = frameWindow();
      const b = frameWindow();
      vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      vi.spyOn(b, 'postMessage').mockImplementation(() => {});
      const result = hub.broadcast('chartActions/setEvents', { clientId: 'b', events });
      from(a, {
        type: 'cw_error',
        id: 'id-1',
        action: 'chartActions/setEvents',
        error: 'Not my chart',
      });
      from(b, {
        type: 'cw_ack',
        id: 'id-2',
        action: 'chartActions/setEvents',
        result: { success: true },
      });
      await expect(result).resolves.toEqual({ success: true });
      expect(hub.pendingCount()).toBe(0);
    });

    it('reject with the refusal when every frame refused', async () => {
      const a = frameWindow();
      vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      const result = hub.broadcast('chartActions/setEvents', { clientId: 'z', events });
      from(a, {
        type: 'cw_error',
        id: 'id-1',
        action: 'chartActions/setEvents',
        error: 'Not my chart',
      });
      await expect(result).rejects.toThrow('Not my chart');
    });

    it('wait 3 s by default and 30 s for select broadcasts', async () => {
      const a = frameWindow();
      vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      const quick = hub.broadcast('chartActions/setEvents', {}).catch((e: Error) => e.message);
      const slow = hub.broadcast('chartActions/runCode', {}).catch((e: Error) => e.message);
      let slowDone = false;
      void slow.then(() => (slowDone = true));
      clock.advance(3_000);
      expect(await quick).toBe('No window handled the action');
      await settle();
      expect(slowDone).toBe(false);
      clock.advance(27_000);
      expect(await slow).toBe('No window handled the action');
    });

    it('the main window forwards setEvents of a chart it lacks to its frames', async () => {
      const a = frameWindow();
      const post = vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      const result = hub.runLocal(
        'chartActions/setEvents',
        { clientId: 'frame-a:chart-page', events },
        { source: null },
      );
      expect(post).toHaveBeenCalledWith(
        {
          type: 'cw_action',
          id: 'id-1',
          action: 'chartActions/setEvents',
          payload: { clientId: 'frame-a:chart-page', events },
        },
        ORIGIN,
      );
      from(a, {
        type: 'cw_ack',
        id: 'id-1',
        action: 'chartActions/setEvents',
        result: { success: true },
      });
      await expect(result).resolves.toEqual({ success: true });
    });

    it("the main window says 'Not my chart' when no frame answered in time", async () => {
      const a = frameWindow();
      vi.spyOn(a, 'postMessage').mockImplementation(() => {});
      const result = hub
        .runLocal('chartActions/setEvents', { clientId: 'gone', events }, { source: null })
        .catch((e: Error) => e.message);
      clock.advance(3_000);
      expect(await result).toBe('Not my chart');
    });
  });
});
