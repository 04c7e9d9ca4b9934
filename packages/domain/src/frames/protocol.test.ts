import { describe, expect, it } from 'vitest';
import {
  FRAME_ERRORS,
  FRAME_LOG_KEY,
  FRAME_MESSAGE_TYPES,
  FRAME_TIMEOUTS,
  PendingActions,
  SHARED_ACTIONS,
  SHARED_STATE_KEYS,
  broadcastWaitMs,
  chartActionRefusal,
  frameMessageSchema,
  isSharedStateKey,
  logRelayPayloadSchema,
  priceUpdateMessageSchema,
  readFrameMessage,
  sharedActionPayloadSchemas,
  sharedActionResultSchemas,
  sharedStateSchemas,
} from './protocol.ts';

const ORIGIN = 'http://127.0.0.1:8080';

describe('the cw_ message schemas', () => {
  const valid = {
    cw_state_update: { type: 'cw_state_update', key: 'theme', payload: 'dark' },
    cw_state_request: { type: 'cw_state_request', requestId: 'r1' },
    cw_action: { type: 'cw_action', action: 'chartActions/runCode', payload: {}, id: 'a1' },
    cw_ack: { type: 'cw_ack', id: 'a1', action: 'chartActions/runCode', result: { success: true } },
    cw_error: {
      type: 'cw_error',
      id: 'a1',
      action: 'chartActions/setEvents',
      error: 'Not my chart',
    },
    cw_sync_all_state: { type: 'cw_sync_all_state', requestId: 'r1', state: { theme: 'light' } },
  } as const;

  it('has the six types of the spec, each parsed by its schema', () => {
    expect(FRAME_MESSAGE_TYPES).toEqual(Object.keys(valid));
    for (const message of Object.values(valid)) {
      expect(frameMessageSchema.parse(message)).toEqual(message);
    }
  });

  it('refuses each type without its required fields', () => {
    const broken = [
      { type: 'cw_state_update', payload: 1 },
      { type: 'cw_state_request' },
      { type: 'cw_action', payload: {} },
      { type: 'cw_ack', action: 'x', result: 1 },
      { type: 'cw_error', id: 'a', action: 'x' },
      { type: 'cw_sync_all_state', state: 'all' },
      { type: 'cw_unknown' },
      { type: 'cw_action', action: '', payload: {} },
    ];
    for (const message of broken) expect(frameMessageSchema.safeParse(message).success).toBe(false);
  });

  it('an action without an id is fire and forget (the live subscriptions)', () => {
    const parsed = frameMessageSchema.parse({
      type: 'cw_action',
      action: SHARED_ACTIONS.liveSubscribe,
      payload: { symbol: 'BTCUSDT' },
    });
    expect(parsed.type === 'cw_action' && parsed.id).toBeUndefined();
  });
});

describe('shared state items', () => {
  it('covers the spec: active chart, trade action, mobile modal, throttle, batch, theme, account, connection', () => {
    expect(SHARED_STATE_KEYS).toEqual([
      'activeChart',
      'chartTradeAction',
      'mobileModalVisible',
      'throttle',
      'batch',
      'theme',
      'account',
      'connectionStatus',
    ]);
    expect(isSharedStateKey('theme')).toBe(true);
    expect(isSharedStateKey('live/price')).toBe(false);
    expect(isSharedStateKey('toString')).toBe(false);
  });

  it('parses good values and refuses bad ones', () => {
    const s = sharedStateSchemas;
    expect(s.theme.safeParse('dark').success).toBe(true);
    expect(s.theme.safeParse('blue').success).toBe(false);
    expect(s.connectionStatus.safeParse('connected').success).toBe(true);
    expect(s.connectionStatus.safeParse('open').success).toBe(false);
    expect(
      s.chartTradeAction.safeParse({ chartId: 'chart-1', symbol: 'BTCUSDT', tradeAction: 'buy' })
        .success,
    ).toBe(true);
    expect(
      s.chartTradeAction.safeParse({ chartId: 'c', symbol: 'X', tradeAction: 'hold' }).success,
    ).toBe(false);
    expect(s.chartTradeAction.safeParse(null).success).toBe(true);
    expect(
      s.throttle.safeParse({
        priceUpdateDelay: 100,
        chartDataUpdateDelay: 500,
        maxDataPoints: 1000,
      }).success,
    ).toBe(true);
    expect(
      s.throttle.safeParse({ priceUpdateDelay: -1, chartDataUpdateDelay: 500, maxDataPoints: 1 })
        .success,
    ).toBe(false);
    expect(
      s.batch.safeParse({ maxBatchSize: 50, batchDelay: 16, forceFlushInterval: 200 }).success,
    ).toBe(true);
    expect(s.mobileModalVisible.safeParse('yes').success).toBe(false);
    const trader = { uuid: 'u', name: 'Main', level: 1, type: 1, token: 't', channel: 1 };
    expect(
      s.account.safeParse({ userId: '1', userName: 'a@b.c', currentTrader: trader }).success,
    ).toBe(true);
    expect(
      s.account.safeParse({ userId: '1', userName: 'a@b.c', currentTrader: { uuid: 1 } }).success,
    ).toBe(false);
  });
});

describe('shared action payloads and results', () => {
  const p = sharedActionPayloadSchemas;
  it('createAITask takes clientId, prompt, taskType; answers success and reason', () => {
    expect(
      p['chartActions/createAITask'].safeParse({ clientId: 'c', prompt: 'p', taskType: 't' })
        .success,
    ).toBe(true);
    expect(
      p['chartActions/createAITask'].safeParse({
        clientId: 'c',
        prompt: 'x'.repeat(1001),
        taskType: 't',
      }).success,
    ).toBe(false);
    expect(
      sharedActionResultSchemas['chartActions/createAITask'].safeParse({
        success: false,
        reason: 'No active chart',
      }).success,
    ).toBe(true);
    expect(
      sharedActionResultSchemas['chartActions/createAITask'].safeParse({ reason: 'x' }).success,
    ).toBe(false);
  });

  it('setEvents takes the client id and the events (markers)', () => {
    const event = {
      time: 1_700_000_000,
      position: 'belowBar',
      shape: 'arrowUp',
      color: '#26a69a',
      text: 'OB',
    };
    expect(p['chartActions/setEvents'].safeParse({ clientId: 'c', events: [event] }).success).toBe(
      true,
    );
    expect(
      p['chartActions/setEvents'].safeParse({
        clientId: 'c',
        events: [{ ...event, position: 'inBar' }],
      }).success,
    ).toBe(false);
  });

  it('runCode and monacoWorkflow/currentChart', () => {
    expect(
      p['chartActions/runCode'].safeParse({ clientId: 'c', code: 'print(1)', symbolId: 'BTCUSDT' })
        .success,
    ).toBe(true);
    expect(
      p['chartActions/runCode'].safeParse({ clientId: 'c', code: '', symbolId: 'BTCUSDT' }).success,
    ).toBe(false);
    expect(
      p['monacoWorkflow/currentChart'].safeParse({
        clientId: 'c',
        symbolId: 'ETHUSDT',
        defaultCode: 'x',
      }).success,
    ).toBe(true);
    expect(
      p['monacoWorkflow/currentChart'].safeParse({ clientId: 'c', symbolId: 'ETHUSDT' }).success,
    ).toBe(false);
    // the run helper's answer: success, reason, data (deals, performance, error)
    expect(
      sharedActionResultSchemas['chartActions/runCode'].safeParse({
        success: false,
        reason: 'Symbol not found',
        data: null,
      }).success,
    ).toBe(true);
    expect(
      sharedActionResultSchemas['chartActions/runCode'].safeParse({ success: true, deals: [] })
        .success,
    ).toBe(false);
  });

  it('the log lines a main window forwards to a frame', () => {
    expect(FRAME_LOG_KEY).toBe('strategy/log');
    expect(
      logRelayPayloadSchema.parse({ clientId: 'f:chart', state: 'connected', lines: ['a', 'b'] }),
    ).toEqual({ clientId: 'f:chart', state: 'connected', lines: ['a', 'b'] });
    expect(
      logRelayPayloadSchema.safeParse({ clientId: 'f:chart', state: 'open', lines: [] }).success,
    ).toBe(false);
    expect(
      logRelayPayloadSchema.safeParse({ clientId: '', state: 'connected', lines: [] }).success,
    ).toBe(false);
  });

  it('live subscribe and unsubscribe take a symbol', () => {
    expect(p['live/subscribe'].safeParse({ symbol: 'BTCUSDT' }).success).toBe(true);
    expect(p['live/unsubscribe'].safeParse({ symbol: '' }).success).toBe(false);
  });
});

describe('protocol rules', () => {
  it('a chart takes chart actions for its own client id only', () => {
    expect(chartActionRefusal('frame-a/chart-page', 'frame-a/chart-page')).toBeNull();
    expect(chartActionRefusal('frame-a/chart-page', 'frame-b/chart-page')).toBe('Not my chart');
    expect(FRAME_ERRORS.notMyChart).toBe('Not my chart');
    expect(FRAME_ERRORS.stateSyncTimeout).toBe('State sync timeout');
  });

  it('times of spec section 9', () => {
    expect(FRAME_TIMEOUTS).toEqual({
      remoteActionMs: 10_000,
      broadcastMs: 3_000,
      selectBroadcastMs: 30_000,
      stateSyncMs: 5_000,
      stateSyncStartDelayMs: 100,
    });
    expect(broadcastWaitMs(SHARED_ACTIONS.setEvents)).toBe(3_000);
    expect(broadcastWaitMs(SHARED_ACTIONS.runCode)).toBe(30_000);
    expect(broadcastWaitMs(SHARED_ACTIONS.createAITask)).toBe(30_000);
  });
});

describe('origin filtering and shape checks (readFrameMessage)', () => {
  it('hears a valid message of our own origin', () => {
    const read = readFrameMessage({ type: 'cw_state_request', requestId: 'r' }, ORIGIN, ORIGIN);
    expect(read.kind).toBe('frame');
  });

  it('ignores our messages from another origin (counted as foreign)', () => {
    const read = readFrameMessage(
      { type: 'cw_state_request', requestId: 'r' },
      'https://evil.example',
      ORIGIN,
    );
    expect(read).toEqual({ kind: 'foreignOrigin' });
    expect(readFrameMessage({ type: 'PRICE_UPDATE' }, 'null', ORIGIN)).toEqual({
      kind: 'foreignOrigin',
    });
  });

  it('hears every accepted origin of a list, and no other', () => {
    const message = { type: 'cw_state_request', requestId: 'r' };
    const accepted = [ORIGIN, 'https://portal.example'];
    expect(readFrameMessage(message, 'https://portal.example', accepted).kind).toBe('frame');
    expect(readFrameMessage(message, ORIGIN, accepted).kind).toBe('frame');
    expect(readFrameMessage(message, 'https://evil.example', accepted)).toEqual({
      kind: 'foreignOrigin',
    });
    expect(readFrameMessage(message, 'null', [])).toEqual({ kind: 'foreignOrigin' });
  });

  it('flags a cw_ message of unknown shape, and leaves other libraries alone', () => {
    const read = readFrameMessage({ type: 'cw_action', payload: {} }, ORIGIN, ORIGIN);
    expect(read.kind).toBe('malformed');
    expect(readFrameMessage({ type: 'cw_nonsense' }, ORIGIN, ORIGIN).kind).toBe('malformed');
    expect(readFrameMessage({ source: 'react-devtools' }, ORIGIN, ORIGIN)).toEqual({
      kind: 'other',
    });
    expect(readFrameMessage('hello', ORIGIN, ORIGIN)).toEqual({ kind: 'other' });
    expect(readFrameMessage(null, 'https://x', ORIGIN)).toEqual({ kind: 'other' });
  });

  it('reads PRICE_UPDATE of the performance page', () => {
    const message = {
      type: 'PRICE_UPDATE',
      symbol: 'BTCUSDT',
      price: 45000,
      time: 1,
      simulated: true,
    };
    expect(readFrameMessage(message, ORIGIN, ORIGIN)).toEqual({ kind: 'priceUpdate', message });
    expect(readFrameMessage({ ...message, price: 'x' }, ORIGIN, ORIGIN).kind).toBe('malformed');
    expect(priceUpdateMessageSchema.safeParse({ ...message, simulated: undefined }).success).toBe(
      false,
    );
  });
});

describe('PendingActions (time passed in)', () => {
  it('drops an action after 10 s without an answer', () => {
    const pending = new PendingActions<string>();
    pending.add('a', 'chartActions/runCode', 1_000, 'first');
    pending.add('b', 'chartActions/setEvents', 5_000, 'second');
    expect(pending.nextDeadline()).toBe(11_000);
    expect(pending.expire(10_999)).toEqual([]);
    expect(pending.expire(11_000).map((e) => e.id)).toEqual(['a']);
    expect(pending.size).toBe(1);
    expect(pending.nextDeadline()).toBe(15_000);
  });

  it('settles an answered action once; a late answer finds nothing', () => {
    const pending = new PendingActions<number>(3_000);
    pending.add('x', 'chartActions/setEvents', 0, 7);
    expect(pending.settle('x')?.value).toBe(7);
    expect(pending.settle('x')).toBeUndefined();
    expect(pending.expire(10_000)).toEqual([]);
    expect(pending.nextDeadline()).toBeNull();
  });
});
