import type { OrderLogRow, PendingOrderRow, PositionRow, SettledOrderRow } from './types';

export type TableData<T> = { rows: readonly T[]; loading: boolean };

const EMPTY: TableData<never> = { rows: [], loading: false };

/*
 * Data sources of the trade tables. The trading issue (positions, settled orders, pending
 * orders and order logs of the current trader) replaces these bodies with calls to
 * GET /trading/order/position, /settles, /pending and /logs, refreshed on sub-tab and
 * trader changes. Until then every table is honestly empty.
 */

export function usePositions(): TableData<PositionRow> {
  return EMPTY;
}

export function useSettledOrders(): TableData<SettledOrderRow> {
  return EMPTY;
}

export function usePendingOrders(): TableData<PendingOrderRow> {
  return EMPTY;
}

export function useOrderLogs(): TableData<OrderLogRow> {
  return EMPTY;
}
