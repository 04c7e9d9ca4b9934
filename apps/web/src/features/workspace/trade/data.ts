import {
  TRADE_PAGE_SIZE,
  usePagedTradeList,
  useTradeList,
  type PagedListState,
} from '../../trading';
import type { OrderLogRow, PendingOrderRow, PositionRow, SettledOrderRow } from './types';

/** The pages of a long list: the server's total and the page on screen (1-based). */
export type TablePaging = {
  page: number;
  pageSize: number;
  total: number;
  setPage: (page: number) => void;
};

export type TableData<T> = { rows: T[]; loading: boolean; paging?: TablePaging };

/*
 * Data sources of the trade tables: the current trader's lists from the trading calls
 * (GET /trading/order/position, /settles, /pending, /logs), cached per account by TanStack
 * Query (features/trading/queries.ts). Each loads when its table is shown (`active`) and the
 * cache lacks it, on every trader change (another key), and again when an action or the
 * account's live channel reports a change to it. Settlements and the order log come in
 * pages of the server's.
 */

export function usePositions(active = true): TableData<PositionRow> {
  return useTradeList('positions', active);
}

export function usePendingOrders(active = true): TableData<PendingOrderRow> {
  return useTradeList('pendings', active);
}

function paged<T>({ rows, loading, total, page, setPage }: PagedListState<T>): TableData<T> {
  return { rows, loading, paging: { page, pageSize: TRADE_PAGE_SIZE, total, setPage } };
}

export function useSettledOrders(active = true): TableData<SettledOrderRow> {
  return paged(usePagedTradeList('settles', active));
}

export function useOrderLogs(active = true): TableData<OrderLogRow> {
  return paged(usePagedTradeList('logs', active));
}
