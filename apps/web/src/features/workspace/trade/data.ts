import { useActiveChart } from '../../../shared/chartGrid';
import {
  TRADE_PAGE_SIZE,
  usePagedTradeList,
  useTradeList,
  useTradingTarget,
  type PagedListState,
  type TradingTarget,
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

/**
 * The account the tables show: the active chart's replay account while that chart replays
 * (its rows come with the session, nothing is fetched from the trading calls), else null.
 */
export function useActiveTarget(): TradingTarget | null {
  return useTradingTarget(useActiveChart()?.id);
}

export function usePositions(active = true): TableData<PositionRow> {
  const target = useActiveTarget();
  const own = useTradeList('positions', active && !target);
  return target ? { rows: target.positions, loading: false } : own;
}

export function usePendingOrders(active = true): TableData<PendingOrderRow> {
  const target = useActiveTarget();
  const own = useTradeList('pendings', active && !target);
  return target ? { rows: target.pendings, loading: false } : own;
}

function paged<T>({ rows, loading, total, page, setPage }: PagedListState<T>): TableData<T> {
  return { rows, loading, paging: { page, pageSize: TRADE_PAGE_SIZE, total, setPage } };
}

export function useSettledOrders(active = true): TableData<SettledOrderRow> {
  const target = useActiveTarget();
  const own = paged(usePagedTradeList('settles', active && !target));
  return target ? { rows: target.settles, loading: false } : own;
}

/** A replay keeps no order log: its orders are its positions, pending orders and trades. */
export function useOrderLogs(active = true): TableData<OrderLogRow> {
  const target = useActiveTarget();
  const own = paged(usePagedTradeList('logs', active && !target));
  return target ? { rows: [], loading: false } : own;
}
