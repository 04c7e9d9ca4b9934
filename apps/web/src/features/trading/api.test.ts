import { afterEach, describe, expect, it, vi } from 'vitest';
import { MalformedAnswerError } from '../../api/client';
import { switchTo } from '../../i18n/switch';
import { buildTrader, jsonResponse } from '../../test/fixtures';
import {
  fetchLiveToken,
  fetchPositions,
  fetchSettles,
  placeMarketOrderRequest,
  placePendingOrderRequest,
} from './api';

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

  describe('refusals inside a successful answer, in the chosen language', () => {
    afterEach(() => switchTo('default'));
    const refusal = (text: string) => ({
      code: 42200,
      msg: text,
      success: false,
      message: text,
      data: null,
    });

    it('shows a refused order and a refused list in Chinese like an error answer', async () => {
      await switchTo('zh-CN');
      vi.stubGlobal('fetch', async () => jsonResponse(refusal('The market for EURUSD is closed')));
      const order = await placeMarketOrderRequest(trader, { symbol: 'EURUSD', cmd: 1, volume: 1 });
      expect(order).toEqual({ success: false, message: 'EURUSD 当前休市' });
      vi.stubGlobal('fetch', async () =>
        jsonResponse({ code: 40100, msg: 'Order not found: 7', data: null }),
      );
      expect(await fetchPositions(trader)).toEqual({ success: false, message: '未找到订单：7' });
    });

    it('shows a refused pending order in Chinese, and the server text in the default language', async () => {
      await switchTo('zh-CN');
      vi.stubGlobal('fetch', async () => jsonResponse(refusal('No quote available for XAUUSD')));
      const pending = await placePendingOrderRequest(trader, {
        symbol: 'XAUUSD',
        cmd: 3,
        volume: 1,
        price: 2000,
        expireType: 'GTC',
      } as never);
      expect(pending).toEqual({ success: false, message: 'XAUUSD 暂无报价' });
      await switchTo('default');
      vi.stubGlobal('fetch', async () => jsonResponse(refusal('The market for EURUSD is closed')));
      const order = await placeMarketOrderRequest(trader, { symbol: 'EURUSD', cmd: 1, volume: 1 });
      expect(order).toEqual({ success: false, message: 'The market for EURUSD is closed' });
    });
  });
});
