import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPLAY_T0, buildReplayView, jsonResponse } from '../../test/fixtures';
import { recordToasts } from '../../test/toasts';
import { replayOrderBody, replayTarget } from './target';

const VIEW = buildReplayView({ equity: [{ time: REPLAY_T0, equity: 100_000 }] });
const ID = VIEW.id;

describe('the replay session as the trading panel’s target', () => {
  let toasts: ReturnType<typeof recordToasts>;
  beforeEach(() => {
    toasts = recordToasts();
  });
  afterEach(() => {
    toasts.unregister();
    vi.unstubAllGlobals();
  });

  it('turns the ticket’s orders into the replay’s order bodies', () => {
    const base = { symbol: 'BTCUSDT', quantity: 0.5, expireType: 'GFD' as const };
    expect(
      replayOrderBody({ ...base, side: 'buy', orderType: 'market', tp: 101, sl: null }),
    ).toEqual({ type: 'market', cmd: 1, volume: 0.5, tp: 101 });
    expect(
      replayOrderBody({ ...base, side: 'sell', orderType: 'limit', limitPrice: 102, sl: 103 }),
    ).toEqual({ type: 'limit', cmd: 2, volume: 0.5, pendPrice: 102, sl: 103 });
  });

  it('sends every operation to the session’s orders call and says how it went', async () => {
    const bodies: unknown[] = [];
    const fetch = vi.fn(async (input: string, init?: RequestInit) => {
      expect(new URL(input, 'http://localhost').pathname).toBe(`/api/replays/${ID}/orders`);
      const body = JSON.parse(String(init?.body)) as { type: string };
      bodies.push(body);
      return body.type === 'cancel'
        ? jsonResponse({ code: 42200, msg: 'refused', detail: 'Pending order not found: 9' }, 422)
        : jsonResponse(VIEW);
    });
    vi.stubGlobal('fetch', fetch);
    const target = replayTarget(VIEW);
    expect(target).toMatchObject({
      account: `replay:${ID}`,
      label: 'Replay account',
      symbol: 'BTCUSDT',
      quote: { bid: 100, ask: 100.5 },
    });
    expect(await target.close('3', 0.4)).toEqual({
      success: true,
      message: 'Replay position closed',
    });
    expect(await target.cancel('9')).toEqual({
      success: false,
      message: 'Pending order not found: 9',
    });
    await target.tpsl('3', 0, 95);
    expect(await target.modify('5', { price: 98, tp: 0, sl: 97 })).toEqual({
      success: true,
      message: 'Replay pending order moved',
    });
    expect(bodies).toEqual([
      { type: 'close', orderId: '3', volume: 0.4 },
      { type: 'cancel', pId: '9' },
      { type: 'tpsl', orderId: '3', tp: 0, sl: 95 },
      { type: 'modify', pId: '5', pendPrice: 98, sl: 97 },
    ]);
    expect(toasts.toasts.map((t) => t.text)).toEqual([
      'Replay position closed',
      'Pending order not found: 9',
      'Replay TP/SL saved',
      'Replay pending order moved',
    ]);
  });
});
