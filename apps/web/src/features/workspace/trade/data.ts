import { useTradeList, type ListState } from '../../trading/store';
import type { OrderLogRow, PendingOrderRow, PositionRow, SettledOrderRow } from './types';

export type TableData<T> = Pick<ListState<T>, 'rows' | 'loading'>;

/*
 * Data sources of the trade tables: the current trader's lists from the trading calls
 * (GET /trading/order/position, /settles, /pending, /logs). Each loads when its table is
 * shown (`active`), on every trader change, and when the engine reports a change on the
 * account's live channel.
 */

export function usePositions(active = true): TableData<PositionRow> {
  return useTradeList('positions', active);
}

export function useSettledOrders(active = true): TableData<SettledOrderRow> {
  return useTradeList('settles', active);
}

export function usePendingOrders(active = true): TableData<PendingOrderRow> {
  return useTradeList('pendings', active);
}

export function useOrderLogs(active = true): TableData<OrderLogRow> {
  return useTradeList('logs', active);
}
