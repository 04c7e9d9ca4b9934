import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  childFrames,
  frameStats,
  installFrameBridge,
  isFrameBridgeInstalled,
  isFrameMessage,
  onPriceUpdateMessage,
  registerFrameHandler,
  resetFrameStats,
  uninstallFrameBridge,
} from './frameBridge';

const ORIGIN = window.location.origin;

function post(data: unknown, origin = ORIGIN) {
  window.dispatchEvent(new MessageEvent('message', { data, origin }));
}

describe('frame bridge', () => {
  beforeEach(() => resetFrameStats());
  afterEach(() => {
    uninstallFrameBridge();
    document.body.innerHTML = '';
  });

  it('recognises only cw_-typed messages', () => {
    expect(isFrameMessage({ type: 'cw_state_update' })).toBe(true);
    expect(isFrameMessage({ type: 'PRICE_UPDATE' })).toBe(false);
    expect(isFrameMessage('cw_text')).toBe(false);
    expect(isFrameMessage(null)).toBe(false);
  });

  it('installs one listener that routes parsed cw_ messages of our origin to their handler', () => {
    installFrameBridge();
    installFrameBridge();
    expect(isFrameBridgeInstalled()).toBe(true);
    const handler = vi.fn();
    const stop = registerFrameHandler('cw_action', handler);
    const action = { type: 'cw_action', action: 'live/subscribe', payload: { symbol: 'A' } };
    post(action);
    post({ type: 'other' });
    post({ type: 'cw_unknown' });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]![0]).toEqual(action);
    stop();
    post(action);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('ignores and counts messages of other origins and of unknown shape', () => {
    installFrameBridge();
    const handler = vi.fn();
    registerFrameHandler('cw_state_request', handler);
    post({ type: 'cw_state_request', requestId: 'r' }, 'https://evil.example');
    post({ type: 'cw_state_request' }); // no requestId
    post({ type: 'cw_nonsense', x: 1 });
    post({ type: 'PRICE_UPDATE', symbol: 'A' }); // price missing
    post({ source: 'react-devtools-bridge' }); // not ours at all: not counted
    expect(handler).not.toHaveBeenCalled();
    expect(frameStats.foreignOrigin).toBe(1);
    expect(frameStats.malformed).toBe(3);
    expect(frameStats.received).toBe(0);
    post({ type: 'cw_state_request', requestId: 'r' });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(frameStats.received).toBe(1);
  });

  it('calls every handler registered for a type', () => {
    installFrameBridge();
    const a = vi.fn();
    const b = vi.fn();
    const stopA = registerFrameHandler('cw_ack', a);
    const stopB = registerFrameHandler('cw_ack', b);
    const ack = { type: 'cw_ack', id: '1', action: 'x', result: null };
    post(ack);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    stopA();
    post(ack);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(2);
    stopB();
  });

  it('hands PRICE_UPDATE of our origin to its handlers', () => {
    installFrameBridge();
    const handler = vi.fn();
    const stop = onPriceUpdateMessage(handler);
    const update = {
      type: 'PRICE_UPDATE',
      symbol: 'BTCUSDT',
      price: 45000,
      time: 1,
      simulated: true,
    };
    post(update);
    post(update, 'https://evil.example');
    expect(handler).toHaveBeenCalledTimes(1);
    expect(frameStats.priceUpdates).toBe(1);
    stop();
  });

  it('lists the child frames of the window', () => {
    expect(childFrames()).toEqual([]);
    const iframe = document.createElement('iframe');
    document.body.appendChild(iframe);
    expect(childFrames()).toEqual([iframe.contentWindow]);
  });
});
