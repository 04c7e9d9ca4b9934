import { describe, expect, it, vi } from 'vitest';
import { MalformedAnswerError } from '../../api/client';
import { buildTrader, jsonResponse } from '../../test/fixtures';
import { fetchLiveToken, fetchPositions, fetchSettles, placeMarketOrderRequest } from './api';

const trader = buildTrader();

describe('the trading api', () => {
  it('a malformed list answer fails the call with a clear message instead of rows', async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse({ code: 0, msg: 'ok', data: { orders: [{ orderId: 1 }] } }),
    );
    const answer = await fetchPositions(trader);
    expect(answer.success).toBe(false);
    expect(answer.message).toMatch(/^Unexpected answer from GET \/trading\/order\/position: /);
    expect('data' in answer).toBe(false);
  });

  it('a malformed page answer fails the call with a clear message instead of rows', async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse({ code: 0, msg: 'ok', data: { settles: 'none', lastSortId: -1, total: 0 } }),
    );
    const answer = await fetchSettles(trader, { lastSortId: -1, limit: 20 });
    expect(answer.success).toBe(false);
    expect(answer.message).toMatch(/^Unexpected answer from GET \/trading\/order\/settles: /);
  });

  it('refuses a malformed order answer with a clear error', async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse({ code: 0, msg: 'ok', success: true, message: 'ok', data: { order: 7 } }),
    );
    const failure = await placeMarketOrderRequest(trader, {
      symbol: 'EURUSD',
      cmd: 1,
      volume: 0.1,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MalformedAnswerError);
    expect((failure as Error).message).toMatch(
      /^Unexpected answer from POST \/trading\/order\/open: /,
    );
  });

  it('refuses a malformed live token answer with a clear error', async () => {
    vi.stubGlobal('fetch', async () => jsonResponse({ token: 5 }));
    const failure = await fetchLiveToken(trader).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MalformedAnswerError);
    expect((failure as Error).message).toMatch(/^Unexpected answer from GET \/api\/live\/token: /);
  });
});
