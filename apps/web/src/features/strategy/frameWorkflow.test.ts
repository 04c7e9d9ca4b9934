import type { Deal } from '@ct/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { frameActions, registerChartActionTarget } from '../../realtime/frameActions';
import { installFrameBridge, uninstallFrameBridge } from '../../realtime/frameBridge';
import { frameMode, frameWindow, messageFrom, ORIGIN, settle } from '../../realtime/testSupport';
import { buildDeal, jsonResponse } from '../../test/fixtures';
import { currentChart, forgetWorkflows, runCodeForChart, workflowChart } from './frameWorkflow';
import { endAllLogRelays, relayedClients } from './logRelay';
import { receiveRelayedLogs, stopRelayedLogs, useRelayedLogs } from './logSocket';
import { runCode } from './actions';
import { openEditorFor } from './openEditor';
import { registerStrategySharedActions } from './register';
import { resetEditorStore, useEditorStore, useWorkbenchStore } from './store';

import type * as Connection from '../../realtime/connection';

vi.mock('../../realtime/connection', async (original) => {
  const { frameMode } = await import('../../realtime/testSupport');
  return {
    ...(await original<typeof Connection>()),
    isChildFrame: () => frameMode.child,
  };
});

/** A log socket the test drives: every one opened is kept, with its url. */
class FakeSocket {
  static opened: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  close() {
    this.closed = true;
    this.onclose?.();
  }
}

const deal = buildDeal();

function runAnswer(deals: Deal[], error: string | null = null) {
  return {
    success: true,
    reason: null,
    data: {
      run_id: 'r1',
      deals,
      performance: null,
      error,
      error_kind: error ? 'exception' : null,
      logs: [],
    },
  };
}

const CLIENT = 'frame-a:chart-page';

describe('the workbench shared actions in the main window', () => {
  let bodies: unknown[];
  let answer: unknown;

  beforeEach(() => {
    frameMode.child = false;
    FakeSocket.opened = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    bodies = [];
    answer = runAnswer([deal]);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        bodies.push(JSON.parse(String(init.body)));
        return jsonResponse(answer);
      }),
    );
    installFrameBridge();
  });
  afterEach(() => {
    endAllLogRelays();
    forgetWorkflows();
    frameActions.reset();
    uninstallFrameBridge();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('monacoWorkflow/currentChart keeps the chart and forwards its log to the frame', () => {
    const frame = frameWindow();
    const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    const payload = { clientId: CLIENT, symbolId: 'ETHUSDT', defaultCode: 'x', period: '1h' };
    expect(currentChart(payload, { source: frame })).toEqual({ success: true });
    expect(workflowChart(CLIENT)).toEqual({ symbolId: 'ETHUSDT', period: '1h', defaultCode: 'x' });
    // the main window opens the log socket of the chart's client id, not the frame
    expect(FakeSocket.opened.map((s) => new URL(s.url).pathname)).toEqual([
      `/ws/${encodeURIComponent(CLIENT)}`,
    ]);
    const socket = FakeSocket.opened[0]!;
    socket.onopen?.();
    socket.onmessage?.({ data: 'bar 1\nbar 2' });
    const sent = post.mock.calls.map(([message]) => message);
    expect(sent.at(-1)).toEqual({
      type: 'cw_state_update',
      key: 'strategy/log',
      payload: { clientId: CLIENT, state: 'connected', lines: ['bar 1', 'bar 2'] },
    });
    expect(post.mock.calls.every(([, origin]) => origin === ORIGIN)).toBe(true);
    // asking again reuses the relay
    currentChart(payload, { source: frame });
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('a frame that says goodbye ends its log relay and closes the socket', () => {
    registerStrategySharedActions();
    const frame = frameWindow();
    vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    currentChart({ clientId: CLIENT, symbolId: 'ETHUSDT', defaultCode: '' }, { source: frame });
    expect(relayedClients()).toEqual([CLIENT]);
    messageFrom(frame, { type: 'cw_action', action: 'frame/leave', payload: {} });
    expect(relayedClients()).toEqual([]);
    expect(FakeSocket.opened[0]!.closed).toBe(true);
  });

  it('chartActions/runCode runs with the chart’s client id and puts the trades on that chart', async () => {
    const frame = frameWindow();
    vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    const setEvents = vi.fn();
    registerChartActionTarget(CLIENT, { setEvents });
    currentChart(
      { clientId: CLIENT, symbolId: 'BTCUSDT', defaultCode: '', period: '4h' },
      {
        source: frame,
      },
    );
    const result = await runCodeForChart(
      { clientId: CLIENT, code: 'def main(d): return []', symbolId: 'BTCUSDT' },
      { source: frame },
    );
    await runCodeForChart(
      { clientId: CLIENT, code: 'def main(d): return []', symbolId: 'BTCUSDT', limit: 1_000_000 },
      { source: frame },
    );
    expect(bodies).toEqual([
      { clientId: CLIENT, code: 'def main(d): return []', symbol: 'BTCUSDT', period: '4h' },
      {
        clientId: CLIENT,
        code: 'def main(d): return []',
        symbol: 'BTCUSDT',
        period: '4h',
        limit: 1_000_000,
      },
    ]);
    expect(result).toMatchObject({ success: true, data: { deals: [deal] } });
    // OB at the open, CS at the close: the spec's markers, on the chart of that client id
    expect(setEvents).toHaveBeenCalledWith(
      [
        expect.objectContaining({ time: deal.start, text: 'OB', position: 'belowBar' }),
        expect.objectContaining({ time: deal.end, text: 'CS', position: 'aboveBar' }),
      ],
      'BTCUSDT',
    );
  });

  it('a failed run answers its error and draws nothing', async () => {
    const setEvents = vi.fn();
    registerChartActionTarget(CLIENT, { setEvents });
    answer = runAnswer([deal], 'NameError: x');
    const result = await runCodeForChart(
      { clientId: CLIENT, code: 'x', symbolId: 'BTCUSDT', period: 'day' },
      { source: null },
    );
    expect(result).toMatchObject({ success: true, data: { error: 'NameError: x' } });
    expect(setEvents).not.toHaveBeenCalled();
    // no frame asked: no relay
    expect(FakeSocket.opened).toHaveLength(0);
  });

  it('are registered in the main window only, and answer a frame over the bridge', async () => {
    const stop = registerStrategySharedActions();
    expect(frameActions.has('chartActions/runCode')).toBe(true);
    expect(frameActions.has('monacoWorkflow/currentChart')).toBe(true);
    const stopListening = frameActions.listen();
    const frame = frameWindow();
    const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    messageFrom(frame, {
      type: 'cw_action',
      id: 'c1',
      action: 'monacoWorkflow/currentChart',
      payload: { clientId: CLIENT, symbolId: 'ETHUSDT', defaultCode: 'x' },
    });
    await vi.waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        {
          type: 'cw_ack',
          id: 'c1',
          action: 'monacoWorkflow/currentChart',
          result: { success: true },
        },
        ORIGIN,
      ),
    );
    stop();
    stopListening();
    frameMode.child = true;
    registerStrategySharedActions();
    expect(frameActions.has('chartActions/runCode')).toBe(false);
  });
});

describe('a child frame’s execution log', () => {
  beforeEach(() => {
    frameMode.child = true;
    installFrameBridge();
  });
  afterEach(() => {
    stopRelayedLogs();
    uninstallFrameBridge();
    document.body.innerHTML = '';
    frameMode.child = false;
  });

  it('takes the lines the main window forwards, for its client id, from the parent only', async () => {
    receiveRelayedLogs();
    const relay = (clientId: string, lines: string[]) => ({
      type: 'cw_state_update',
      key: 'strategy/log',
      payload: { clientId, state: 'connected', lines },
    });
    messageFrom(window, relay(CLIENT, ['Connection established, waiting for logs...']));
    messageFrom(window, relay(CLIENT, ['bar 1']));
    messageFrom(frameWindow(), relay(CLIENT, ['from a sibling'])); // not the parent
    messageFrom(window, relay(CLIENT, ['from another origin']), 'http://evil.example');
    messageFrom(window, { type: 'cw_state_update', key: 'strategy/log', payload: { lines: 1 } });
    await settle();
    expect(useRelayedLogs.getState().byClient[CLIENT]).toEqual({
      state: 'connected',
      lines: ['Connection established, waiting for logs...', 'bar 1'],
    });
  });
});

describe('the editor in a child frame goes through the main window', () => {
  beforeEach(() => {
    frameMode.child = true;
    resetEditorStore();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
  });
  afterEach(() => {
    frameMode.child = false;
    stopRelayedLogs();
    useWorkbenchStore.setState({ request: null, open: false });
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("the editor button tells monacoWorkflow/currentChart; the editor then uses the chart's client id", async () => {
    const request = vi.spyOn(frameActions, 'request').mockResolvedValue({ success: true });
    const { queryClient } = await import('../../shared/queryClient');
    queryClient.setQueryData(['strategyTemplate'], 'def main(data_array):\n    return []\n');
    const opened = await openEditorFor({ chartId: 'chart-page', symbol: 'ETHUSDT', period: '1h' });
    expect(opened).toBe(true);
    const clientId = request.mock.calls[0]?.[1] as { clientId: string };
    expect(request).toHaveBeenCalledWith('monacoWorkflow/currentChart', {
      clientId: expect.stringMatching(/:chart-page$/),
      symbolId: 'ETHUSDT',
      defaultCode: 'def main(data_array):\n    return []\n',
      period: '1h',
    });
    expect(useEditorStore.getState().clientId).toBe(clientId.clientId);
    expect(useWorkbenchStore.getState()).toMatchObject({ open: true });
    queryClient.clear();
  });

  it('an unanswered currentChart leaves the editor closed and says why', async () => {
    vi.spyOn(frameActions, 'request').mockRejectedValue(new Error('Remote action timed out'));
    const { notify } = await import('../../shared/notify');
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    const { queryClient } = await import('../../shared/queryClient');
    queryClient.setQueryData(['strategyTemplate'], 'x');
    expect(await openEditorFor({ chartId: 'chart-page', symbol: 'ETHUSDT', period: '1h' })).toBe(
      false,
    );
    expect(error).toHaveBeenCalledWith('Remote action timed out');
    expect(useWorkbenchStore.getState().open).toBe(false);
    queryClient.clear();
  });

  it('Run Code asks chartActions/runCode and shows the answer', async () => {
    useWorkbenchStore.setState({
      request: { chartId: 'chart-page', symbol: 'BTCUSDT', period: '4h' },
      open: true,
    });
    useEditorStore.setState({ clientId: CLIENT, code: 'def main(d): return []', bars: 250_000 });
    const request = vi.spyOn(frameActions, 'request').mockResolvedValue(runAnswer([deal]));
    const outcome = await runCode();
    // the Bars field's count goes with it, and the main window asks the server for as many
    expect(request).toHaveBeenCalledWith('chartActions/runCode', {
      clientId: CLIENT,
      code: 'def main(d): return []',
      symbolId: 'BTCUSDT',
      period: '4h',
      limit: 250_000,
    });
    expect(outcome.success).toBe(true);
    expect(useEditorStore.getState().results).toMatchObject({ deals: [deal], symbol: 'BTCUSDT' });
  });
});
