import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  installFrameBridge,
  isFrameBridgeInstalled,
  isFrameMessage,
  registerFrameHandler,
  uninstallFrameBridge,
} from './frameBridge';

function post(data: unknown) {
  window.dispatchEvent(new MessageEvent('message', { data }));
}

describe('frame bridge', () => {
  afterEach(() => uninstallFrameBridge());

  it('recognises only cw_-typed messages', () => {
    expect(isFrameMessage({ type: 'cw_state_update' })).toBe(true);
    expect(isFrameMessage({ type: 'PRICE_UPDATE' })).toBe(false);
    expect(isFrameMessage('cw_text')).toBe(false);
    expect(isFrameMessage(null)).toBe(false);
  });

  it('installs one listener that routes cw_ messages to their handler', () => {
    installFrameBridge();
    installFrameBridge();
    expect(isFrameBridgeInstalled()).toBe(true);
    const handler = vi.fn();
    const stop = registerFrameHandler('cw_action', handler);
    post({ type: 'cw_action', payload: 1 });
    post({ type: 'other' });
    post({ type: 'cw_unknown' });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]![0]).toEqual({ type: 'cw_action', payload: 1 });
    stop();
    post({ type: 'cw_action' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('calls every handler registered for a type', () => {
    installFrameBridge();
    const a = vi.fn();
    const b = vi.fn();
    const stopA = registerFrameHandler('cw_action', a);
    const stopB = registerFrameHandler('cw_action', b);
    post({ type: 'cw_action' });
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    stopA();
    post({ type: 'cw_action' });
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(2);
    stopB();
  });
});
