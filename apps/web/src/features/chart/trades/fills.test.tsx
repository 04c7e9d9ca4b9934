import type { OrderLogView, PositionView } from '@ct/domain';
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../shared/queryClient';
import { buildUser } from '../../../test/fixtures';
import { storeSession } from '../../../test/render';
import { tradingKeys } from '../../trading/queries';
import { buildPosition, ok, stubTradingFetch, type Call } from '../../trading/testSupport';
import { LIVE_COLOR } from '../../live-runs/markers';
import { RECENT_FILL_ROWS, useFillMarkers } from './fills';

const filled = (
  sortId: number,
  cmd: number,
  price: number,
  transactTime: number,
): OrderLogView => ({
  sortId,
  symbol: 'BTCUSDT',
  cmd,
  actionType: cmd === 1 ? 1 : 2,
  orderType: 1,
  volume: 1,
  price,
  marketPrice: price,
  orderStatus: 2,
  createdAt: transactTime,
  transactTime,
  commissionFee: 0,
  currency: 'USD',
  tp: 0,
  sl: 0,
  orderId: '11',
  pId: null,
  message: '',
  clientOrderId: null,
});

describe('the account’s fills on the chart', () => {
  let calls: Call[];
  let logs: OrderLogView[];

  beforeEach(() => {
    storeSession(buildUser());
    logs = [filled(1, 1, 45_000, 1_700_000_130)];
    calls = stubTradingFetch({
      '/trading/order/position': ok({ orders: [buildPosition()] }),
      '/trading/order/logs': () => ok({ orders: logs, lastSortId: -1, total: logs.length }),
    });
  });

  const logRequests = () => calls.filter((c) => c.path === '/trading/order/logs');

  it('marks the newest fills and asks again when the positions change (a fill)', async () => {
    const colors = { up: 'green', down: 'red' };
    const { result } = renderHook(() => useFillMarkers('BTCUSDT', '1m', colors));
    await waitFor(() => expect(result.current).toHaveLength(1));
    expect(result.current[0]).toMatchObject({ time: 1_700_000_100, price: 45_000, text: 'Buy 1' });
    expect(logRequests()[0]?.query.get('limit')).toBe(String(RECENT_FILL_ROWS));
    expect(logRequests()[0]?.query.get('lastSortId')).toBe('-1');

    // the position was closed: its close is a new fill
    logs = [filled(2, 2, 45_100, 1_700_000_250), ...logs];
    act(() => {
      queryClient.setQueryData<PositionView[]>(tradingKeys.list('acc-1', 'positions'), []);
    });
    await waitFor(() => expect(result.current).toHaveLength(2));
    expect(result.current[1]).toMatchObject({
      time: 1_700_000_220,
      position: 'atPriceBottom',
      shape: 'arrowDown',
      color: 'red',
      text: 'Sell 1',
    });
    expect(logRequests()).toHaveLength(2);
  });

  it('a live run’s fills get the live runs’ colour and say Live', async () => {
    // the runner's key: 'lr', the run id's first 12 hex digits, the opening's bar and side
    logs = [
      { ...filled(3, 2, 45_200, 1_700_000_310), clientOrderId: 'lr0f8fad5bd9cb-o1700000240-2-0' },
      ...logs,
    ];
    const { result } = renderHook(() => useFillMarkers('BTCUSDT', '1m', { up: 'g', down: 'r' }));
    await waitFor(() => expect(result.current).toHaveLength(2));
    expect(result.current[0]).toMatchObject({ color: 'g', text: 'Buy 1' });
    expect(result.current[1]).toMatchObject({
      time: 1_700_000_280,
      shape: 'arrowDown',
      color: LIVE_COLOR,
      text: 'Live Sell 1',
    });
  });

  it('asks nothing without an instrument', () => {
    const { result } = renderHook(() => useFillMarkers(null, '1m', { up: 'g', down: 'r' }));
    expect(result.current).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});
