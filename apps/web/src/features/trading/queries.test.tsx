import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import { buildTrader, buildUser, jsonResponse } from '../../test/fixtures';
import { storeSession } from '../../test/render';
import { selectTrader, useAuthStore } from '../auth/store';
import { handleAccountPublication, keysChangedBy } from './accountLive';
import { modifyPendingOrder, placeOrder } from './actions';
import { REFRESH_COALESCE_MS } from './refresh';
import { tradingKeys, TRADE_LISTS, usePagedTradeList, useTradeList } from './queries';
import {
  buildPending,
  buildPosition,
  helperOk,
  ok,
  stubTradingFetch,
  type Call,
} from './testSupport';

/** An answer the test releases when it wants (a slow network). */
function deferred() {
  let release: (body: unknown) => void = () => {};
  const answer = new Promise<Response>((resolve) => {
    release = (body) => resolve(jsonResponse(body));
  });
  return { answer, release };
}

const gets = (calls: Call[], path: string) =>
  calls.filter((c) => c.method === 'GET' && c.path === path).length;

/** The four tables of the Trade tab on screen at once. */
function renderTradeLists() {
  return renderHook(() => ({
    positions: useTradeList('positions'),
    pendings: useTradeList('pendings'),
    settles: usePagedTradeList('settles'),
    logs: usePagedTradeList('logs'),
  }));
}

const opened = (orderId: string) => ({
  type: 'position_opened',
  uuid: 'acc-1',
  symbol: 'BTCUSDT',
  at: 1,
  orderId,
  pId: null,
});

describe('trading lists in the query cache', () => {
  beforeEach(() => {
    storeSession(buildUser());
  });

  it('an answer for the previous account arriving late never shows under the new one', async () => {
    const late = deferred();
    const calls = stubTradingFetch({
      '/trading/order/position': (call: Call) =>
        call.query.get('uuid') === 'acc-1'
          ? late.answer
          : ok({ orders: [buildPosition({ orderId: '77', uuid: 'acc-2' })] }),
    });
    const { result } = renderHook(() => useTradeList('positions'));
    await vi.waitFor(() => expect(gets(calls, '/trading/order/position')).toBe(1));
    act(() => selectTrader(buildTrader({ uuid: 'acc-2', token: 'tok-2' })));
    await vi.waitFor(() => expect(result.current.rows.map((r) => r.orderId)).toEqual(['77']));

    // acc-1's answer comes in now: it goes under acc-1's key only
    late.release(ok({ orders: [buildPosition({ orderId: '11' })] }));
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(tradingKeys.list('acc-1', 'positions'))).toHaveLength(1),
    );
    expect(result.current.rows.map((r) => r.orderId)).toEqual(['77']);
  });

  it('an account shown again reloads its lists: it had no live events meanwhile', async () => {
    const calls = stubTradingFetch({
      '/trading/order/position': (call: Call) =>
        ok({ orders: [buildPosition({ uuid: call.query.get('uuid') ?? '' })] }),
    });
    const { result } = renderHook(() => useTradeList('positions'));
    const shows = async (uuid: string) => {
      act(() => selectTrader(buildTrader({ uuid, token: `tok-${uuid}` })));
      await vi.waitFor(() => {
        expect(result.current.loading).toBe(false);
        expect(result.current.rows.map((r) => r.uuid)).toEqual([uuid]);
      });
    };
    await shows('acc-1');
    await shows('acc-2');
    await shows('acc-1');
    const asked = calls.map((c) => c.query.get('uuid'));
    expect(asked).toEqual(['acc-1', 'acc-2', 'acc-1']);
  });

  it('an order answered after an account switch goes to its own account’s positions', async () => {
    const post = deferred();
    stubTradingFetch({
      '/trading/order/position': (call: Call) =>
        ok({
          orders: call.query.get('uuid') === 'acc-1' ? [] : [buildPosition({ uuid: 'acc-2' })],
        }),
      '/trading/order/open': () => post.answer,
    });
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const { result } = renderHook(() => useTradeList('positions'));
    await vi.waitFor(() => expect(result.current.loading).toBe(false));
    const placing = placeOrder({
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'market',
      quantity: 0.1,
      expireType: 'GTC',
    });
    act(() => selectTrader(buildTrader({ uuid: 'acc-2', token: 'tok-2' })));
    await vi.waitFor(() => expect(result.current.rows.map((r) => r.uuid)).toEqual(['acc-2']));
    post.release(helperOk({ order: buildPosition({ orderId: '5' }) }, 'Order placed'));
    await placing;
    expect(
      queryClient.getQueryData<{ orderId: string }[]>(tradingKeys.list('acc-1', 'positions')),
    ).toEqual([expect.objectContaining({ orderId: '5' })]);
    expect(result.current.rows.map((r) => r.orderId)).toEqual(['11']);
  });

  describe('one market order', () => {
    let positions = [buildPosition()];
    let calls: Call[] = [];
    beforeEach(() => {
      positions = [buildPosition()];
      calls = stubTradingFetch({
        '/trading/order/position': () => ok({ orders: positions }),
        '/trading/order/pending': ok({ pendings: [buildPending()] }),
        '/trading/order/settles': ok({ settles: [], lastSortId: -1, total: 0 }),
        '/trading/order/logs': ok({ orders: [], lastSortId: -1, total: 0 }),
        '/trading/order/open': () => {
          const order = buildPosition({ orderId: '12', volume: 0.1, settledVol: 0 });
          positions = [order, ...positions];
          return helperOk({ order }, 'Order placed');
        },
      });
      vi.spyOn(notify, 'success').mockImplementation(() => {});
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    const place = () =>
      placeOrder({
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'market',
        quantity: 0.1,
        expireType: 'GTC',
      });

    /** Lets every burst end and every request answer. */
    async function settle() {
      for (let i = 0; i < 5; i += 1) await vi.advanceTimersByTimeAsync(REFRESH_COALESCE_MS);
      await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    }

    async function loaded() {
      const view = renderTradeLists();
      await vi.waitFor(() => expect(view.result.current.positions.rows).toHaveLength(1));
      await settle();
      const before = Object.fromEntries(
        ['position', 'pending', 'settles', 'logs'].map((list) => [
          list,
          gets(calls, `/trading/order/${list}`),
        ]),
      );
      expect(before).toEqual({ position: 1, pending: 1, settles: 1, logs: 1 });
      return view;
    }

    /** GETs per list since the lists loaded. */
    const refetches = () => ({
      position: gets(calls, '/trading/order/position') - 1,
      pending: gets(calls, '/trading/order/pending') - 1,
      settles: gets(calls, '/trading/order/settles') - 1,
      logs: gets(calls, '/trading/order/logs') - 1,
    });

    it('the answer shows the position at once; the event after it asks nothing again', async () => {
      const { result } = await loaded();
      await expect(place()).resolves.toMatchObject({ success: true });
      // the answer itself is in the cache, before any refetch
      expect(
        queryClient
          .getQueryData<{ orderId: string }[]>(tradingKeys.list('acc-1', 'positions'))
          ?.map((r) => r.orderId),
      ).toEqual(['12', '11']);
      expect(refetches().position).toBe(0);
      await settle();
      // the event comes well after the refresh the answer started
      handleAccountPublication(opened('12'));
      await settle();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
      expect(refetches()).toEqual({ position: 1, pending: 0, settles: 0, logs: 1 });
      expect(result.current.positions.rows.map((r) => r.orderId)).toEqual(['12', '11']);
    });

    it('the event before the answer: one refresh of each list for both', async () => {
      const { result } = await loaded();
      const placing = place();
      handleAccountPublication(opened('12'));
      await placing;
      await settle();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
      expect(refetches()).toEqual({ position: 1, pending: 0, settles: 0, logs: 1 });
      expect(result.current.positions.rows.map((r) => r.orderId)).toEqual(['12', '11']);
    });

    it('the event of another change still refreshes its lists', async () => {
      await loaded();
      await place();
      await settle();
      // a take-profit of the older position: not the order's own change
      handleAccountPublication({
        type: 'position_closed',
        uuid: 'acc-1',
        symbol: 'BTCUSDT',
        at: 2,
        orderId: '11',
        tradeId: '40',
        volume: 1.5,
        full: true,
        closeReason: 1,
      });
      await settle();
      expect(refetches()).toEqual({ position: 2, pending: 0, settles: 1, logs: 2 });
    });
  });

  describe('one pending order change (the chart drags its line)', () => {
    let pendings = [buildPending({ pId: '21', pendPrice: 44_000, tp: 44_500 })];
    let calls: Call[] = [];
    beforeEach(() => {
      pendings = [buildPending({ pId: '21', pendPrice: 44_000, tp: 44_500 })];
      calls = stubTradingFetch({
        '/trading/order/pending': () => ok({ pendings }),
        '/trading/order/logs': ok({ orders: [], lastSortId: -1, total: 0 }),
        '/trading/order/pending/modify': (call: Call) => {
          const body = call.body as { pendPrice: number; tp?: number };
          pendings = [{ ...pendings[0]!, pendPrice: body.pendPrice, tp: body.tp ?? 0 }];
          return helperOk({ pending: pendings[0] }, 'Pending order updated successfully');
        },
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    async function settle() {
      for (let i = 0; i < 5; i += 1) await vi.advanceTimersByTimeAsync(REFRESH_COALESCE_MS);
      await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    }

    it('the answer moves the cached order at once, says so, and its event asks nothing again', async () => {
      const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
      const { result } = renderHook(() => ({
        pendings: useTradeList('pendings'),
        logs: usePagedTradeList('logs'),
      }));
      await vi.waitFor(() => expect(result.current.pendings.rows).toHaveLength(1));
      await settle();
      const outcome = await modifyPendingOrder({ pId: '21' }, { price: 43_500, tp: 44_000, sl: 0 });
      expect(outcome).toEqual({ success: true, message: 'Pending order updated successfully' });
      expect(success).toHaveBeenCalledWith('Pending order updated successfully');
      const post = calls.find((c) => c.method === 'POST');
      expect(post?.body).toMatchObject({ pId: '21', pendPrice: 43_500, tp: 44_000 });
      // an SL of 0 is not sent (left out: not set)
      expect(post?.body).not.toHaveProperty('sl');
      // the answer itself is in the cache, before any refetch
      expect(
        queryClient.getQueryData<{ pendPrice: number }[]>(tradingKeys.list('acc-1', 'pendings')),
      ).toEqual([expect.objectContaining({ pendPrice: 43_500, tp: 44_000 })]);
      expect(gets(calls, '/trading/order/pending')).toBe(1);
      await settle();
      handleAccountPublication({
        type: 'pending_modified',
        uuid: 'acc-1',
        symbol: 'BTCUSDT',
        at: 3,
        pId: '21',
        pendPrice: 43_500,
        tp: 44_000,
        sl: 0,
      });
      await settle();
      // one refresh of the pendings and the log (the Modify row) for the answer and its event
      expect(gets(calls, '/trading/order/pending')).toBe(2);
      expect(gets(calls, '/trading/order/logs')).toBe(2);
    });

    it('a refusal is returned with the server’s message and changes nothing cached', async () => {
      stubTradingFetch({
        '/trading/order/pending': () => ok({ pendings }),
        '/trading/order/pending/modify': {
          code: 40000,
          msg: 'Limit price must be between 35208.4 and 43966.4',
          data: null,
          success: false,
          message: 'Limit price must be between 35208.4 and 43966.4',
        },
      });
      const { result } = renderHook(() => useTradeList('pendings'));
      await vi.waitFor(() => expect(result.current.rows).toHaveLength(1));
      await expect(
        modifyPendingOrder({ pId: '21' }, { price: 44_000.1, tp: 0, sl: 0 }),
      ).resolves.toEqual({
        success: false,
        message: 'Limit price must be between 35208.4 and 43966.4',
      });
      expect(result.current.rows[0]).toMatchObject({ pendPrice: 44_000 });
    });
  });

  it('an event invalidates the keys it changed, of its account only', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (const uuid of ['acc-1', 'acc-2']) {
        for (const list of TRADE_LISTS) queryClient.setQueryData(tradingKeys.list(uuid, list), []);
      }
      const event = {
        type: 'pending_expired' as const,
        uuid: 'acc-1',
        symbol: 'BTCUSDT',
        at: 1,
        pId: '3',
      };
      expect(keysChangedBy(event)).toEqual([
        ['trading', 'acc-1', 'pendings'],
        ['trading', 'acc-1', 'logs'],
      ]);
      handleAccountPublication(event);
      // a burst: nothing yet
      expect(queryClient.getQueryState(tradingKeys.list('acc-1', 'pendings'))?.isInvalidated).toBe(
        false,
      );
      await vi.advanceTimersByTimeAsync(REFRESH_COALESCE_MS);
      const invalidated = (uuid: string) =>
        TRADE_LISTS.filter(
          (list) => queryClient.getQueryState(tradingKeys.list(uuid, list))?.isInvalidated,
        );
      expect(invalidated('acc-1')).toEqual(['pendings', 'logs']);
      expect(invalidated('acc-2')).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('without an account the lists are empty and nothing is asked', async () => {
    useAuthStore.setState({ currentTrader: null });
    const calls = stubTradingFetch({});
    const { result } = renderTradeLists();
    expect(result.current.positions).toEqual({ rows: [], loading: false });
    expect(result.current.logs.rows).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});
