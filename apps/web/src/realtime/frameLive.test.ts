import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFrameBridge, uninstallFrameBridge } from './frameBridge';
import { shareLiveWithFrames } from './frameLive';
import { ingestLiveMessage, resetLive, watchers } from './live';
import { resetQuotes } from './quotes';
import { frameWindow, messageFrom as fromFrame } from './testSupport';

describe('live prices shared with child frames', () => {
  let stop: () => void;
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    resetLive();
    resetQuotes();
    installFrameBridge();
    stop = shareLiveWithFrames();
  });
  afterEach(() => {
    stop();
    uninstallFrameBridge();
    resetLive();
    document.body.innerHTML = '';
  });

  it("holds a symbol for a frame's subscribe action and forwards its live messages", () => {
    const frame = frameWindow();
    const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    const subscribe = {
      type: 'cw_action',
      action: 'live/subscribe',
      payload: { symbol: 'BTCUSDT' },
    };
    fromFrame(frame, subscribe);
    fromFrame(frame, subscribe); // the same frame asking twice holds once
    expect(watchers('BTCUSDT')).toBe(1);

    const message = { price: 100, size: 1, tm: 1, entry: '0', strike: 0 };
    ingestLiveMessage('BTCUSDT', message);
    expect(post).toHaveBeenCalledWith(
      { type: 'cw_state_update', key: 'live/price', payload: { symbol: 'BTCUSDT', message } },
      window.location.origin,
    );

    fromFrame(frame, { ...subscribe, action: 'live/unsubscribe' });
    expect(watchers('BTCUSDT')).toBe(0);
  });

  it('ignores other origins and malformed actions', () => {
    const frame = frameWindow();
    fromFrame(
      frame,
      { type: 'cw_action', action: 'live/subscribe', payload: { symbol: 'A' } },
      'http://evil.test',
    );
    fromFrame(frame, { type: 'cw_action', action: 'live/subscribe', payload: {} });
    fromFrame(frame, { type: 'cw_action', action: 'other', payload: { symbol: 'A' } });
    expect(watchers('A')).toBe(0);
  });

  it('lets go of every symbol when sharing stops', () => {
    const frame = frameWindow();
    fromFrame(frame, {
      type: 'cw_action',
      action: 'live/subscribe',
      payload: { symbol: 'ETHUSDT' },
    });
    expect(watchers('ETHUSDT')).toBe(1);
    stop();
    expect(watchers('ETHUSDT')).toBe(0);
  });
});

describe('frames that go away', () => {
  let stop: () => void;
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    resetLive();
    installFrameBridge();
    stop = shareLiveWithFrames();
  });
  afterEach(() => {
    stop();
    uninstallFrameBridge();
    resetLive();
    document.body.innerHTML = '';
  });

  it("a frame's leave lets go of everything it held", () => {
    const frame = frameWindow();
    vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      fromFrame(frame, { type: 'cw_action', action: 'live/subscribe', payload: { symbol } });
    }
    expect(watchers('BTCUSDT') + watchers('ETHUSDT')).toBe(2);
    fromFrame(frame, { type: 'cw_action', action: 'frame/leave', payload: {} });
    expect(watchers('BTCUSDT') + watchers('ETHUSDT')).toBe(0);
  });

  it('a window that is not a frame of ours is not served', () => {
    const removed = frameWindow();
    removed.frameElement?.remove();
    fromFrame(removed, {
      type: 'cw_action',
      action: 'live/subscribe',
      payload: { symbol: 'BTCUSDT' },
    });
    expect(watchers('BTCUSDT')).toBe(0);
  });
});
