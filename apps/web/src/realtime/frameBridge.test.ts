import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameActions } from './frameActions';
import {
  allowedEmbedders,
  childFrames,
  frameStats,
  installFrameBridge,
  isFrameBridgeInstalled,
  isFrameMessage,
  onPriceUpdateMessage,
  postFrameMessage,
  registerFrameHandler,
  resetFrameOrigins,
  resetFrameStats,
  uninstallFrameBridge,
} from './frameBridge';
import { frameMode, frameWindow, manualClock, messageFrom, settle } from './testSupport';

import type * as Connection from './connection';

vi.mock('./connection', async (original) => {
  const { frameMode } = await import('./testSupport');
  return {
    ...(await original<typeof Connection>()),
    isChildFrame: () => frameMode.child,
  };
});

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

// A page of another origin listed in FRAME_ANCESTORS frames ours: the server tells the page
// in a <meta>; the child frame hears that parent's messages and answers it at its origin.
// (jsdom's window.parent is the window itself: "the parent" is `window` here.)
describe('frame bridge with allowed embedders (FRAME_ANCESTORS)', () => {
  const PORTAL = 'https://portal.example';
  const EVIL = 'https://evil.example';
  const request = { type: 'cw_state_request', requestId: 'r' };

  function allowEmbedders(content: string) {
    const meta = document.createElement('meta');
    meta.name = 'ct-frame-ancestors';
    meta.content = content;
    document.head.appendChild(meta);
    resetFrameOrigins();
  }

  beforeEach(() => {
    resetFrameStats();
    resetFrameOrigins();
    frameMode.child = true;
    installFrameBridge();
  });
  afterEach(() => {
    uninstallFrameBridge();
    frameMode.child = false;
    document.head.querySelectorAll('meta[name="ct-frame-ancestors"]').forEach((m) => m.remove());
    delete (document as { referrer?: string }).referrer;
    resetFrameOrigins();
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('reads the allowed origins from the page, ignoring what is not an origin', () => {
    expect(allowedEmbedders()).toEqual([]);
    allowEmbedders(`${PORTAL} http://127.0.0.1:5555 not-an-origin https://x.example/path`);
    expect(allowedEmbedders()).toEqual([PORTAL, 'http://127.0.0.1:5555']);
  });

  it('a child frame hears its parent of an allowed origin, and nothing of other origins', () => {
    allowEmbedders(PORTAL);
    const handler = vi.fn();
    registerFrameHandler('cw_state_request', handler);
    messageFrom(window, request, PORTAL);
    expect(handler).toHaveBeenCalledTimes(1);
    messageFrom(window, request, EVIL); // the parent's origin is not listed
    messageFrom(frameWindow(), request, PORTAL); // a listed origin, but not our parent
    expect(handler).toHaveBeenCalledTimes(1);
    expect(frameStats.foreignOrigin).toBe(2);
  });

  it('a main window never hears an allowed origin, nor a child without the setting', () => {
    const handler = vi.fn();
    registerFrameHandler('cw_state_request', handler);
    messageFrom(window, request, PORTAL); // no FRAME_ANCESTORS: our own origin only
    allowEmbedders(PORTAL);
    frameMode.child = false;
    messageFrom(window, request, PORTAL); // not framed: the origin frames nothing of ours
    expect(handler).not.toHaveBeenCalled();
    expect(frameStats.foreignOrigin).toBe(2);
  });

  it('answers an allowed parent’s action at its origin, and runs nothing for another origin', async () => {
    allowEmbedders(PORTAL);
    Object.defineProperty(document, 'referrer', {
      value: `${PORTAL}/dashboard`,
      configurable: true,
    });
    const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
    const hub = new FrameActions(manualClock(), () => 'id');
    const stop = hub.listen();
    const handler = vi.fn(() => ({ success: true }));
    hub.register('test/echo', handler);
    messageFrom(window, { type: 'cw_action', id: 'a1', action: 'test/echo', payload: {} }, EVIL);
    await settle();
    expect(handler).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();
    messageFrom(window, { type: 'cw_action', id: 'a2', action: 'test/echo', payload: {} }, PORTAL);
    await settle();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith(
      { type: 'cw_ack', id: 'a2', action: 'test/echo', result: { success: true } },
      PORTAL,
    );
    stop();
  });

  it('posts to the parent at every heard origin when the parent’s is not known', () => {
    allowEmbedders(PORTAL);
    // a referrer of an origin not listed is no evidence of the parent's
    Object.defineProperty(document, 'referrer', { value: `${EVIL}/`, configurable: true });
    const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
    postFrameMessage(window, request as never);
    expect(post.mock.calls.map((call) => call[1])).toEqual([window.location.origin, PORTAL]);
    expect(frameStats.sent).toBe(1);
    // the frames of this window are always of our own origin
    const frame = frameWindow();
    const toFrame = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    postFrameMessage(frame, request as never);
    expect(toFrame).toHaveBeenCalledWith(request, window.location.origin);
  });

  it('posts to the parent at our own origin only, without allowed embedders', () => {
    Object.defineProperty(document, 'referrer', { value: `${PORTAL}/`, configurable: true });
    const post = vi.spyOn(window, 'postMessage').mockImplementation(() => {});
    postFrameMessage(window, request as never);
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith(request, window.location.origin);
  });
});
