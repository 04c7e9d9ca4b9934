import type { OrderLogView, PendingView, PositionView, SettleView, Trader } from '@ct/domain';
import { useEffect } from 'react';
import { create } from 'zustand';
import { notify } from '../../app/notify';
import { useAuthStore } from '../auth/store';
import {
  currentTrader,
  fetchOrderLogs,
  fetchPendings,
  fetchPositions,
  fetchSettles,
  type TradingResult,
} from './api';

/** The four lists of the Trade tab. */
export const TRADE_LISTS = ['positions', 'settles', 'pendings', 'logs'] as const;
export type TradeList = (typeof TRADE_LISTS)[number];

type Rows = {
  positions: PositionView[];
  settles: SettleView[];
  pendings: PendingView[];
  logs: OrderLogView[];
};

export type ListState<T> = {
  rows: T[];
  /** True while a request of the current account is on its way. */
  loading: boolean;
  /** The account the rows belong to (null: none loaded). */
  account: string | null;
};

type TradeDataState = { [K in TradeList]: ListState<Rows[K][number]> };

const empty = <T>(): ListState<T> => ({ rows: [], loading: false, account: null });

/** The current account's positions, settlements, pending orders and order log. */
export const useTradeDataStore = create<TradeDataState>(() => ({
  positions: empty(),
  settles: empty(),
  pendings: empty(),
  logs: empty(),
}));

const FETCHERS: { [K in TradeList]: (trader: Trader) => Promise<TradingResult<Rows[K]>> } = {
  positions: fetchPositions,
  settles: fetchSettles,
  pendings: fetchPendings,
  logs: fetchOrderLogs,
};

// Only the newest request of a list may write it (an account switch overtakes older ones).
const latestRequest: Record<TradeList, number> = { positions: 0, settles: 0, pendings: 0, logs: 0 };

/**
 * Loads one list of the current account. Without an account the list is empty and nothing
 * is asked (spec section 6). A failure shows its message and keeps the rows.
 */
export async function refreshList(list: TradeList, options: { quiet?: boolean } = {}) {
  const trader = currentTrader();
  const request = ++latestRequest[list];
  if (!trader) {
    useTradeDataStore.setState({ [list]: empty() });
    return;
  }
  useTradeDataStore.setState((s) => ({
    [list]: {
      ...s[list],
      loading: true,
      // rows of another account never show under this one
      ...(s[list].account === trader.uuid ? {} : { rows: [], account: trader.uuid }),
    },
  }));
  const result = await FETCHERS[list](trader);
  if (request !== latestRequest[list]) return;
  if (result.success) {
    useTradeDataStore.setState({
      [list]: { rows: result.data, loading: false, account: trader.uuid },
    });
  } else {
    useTradeDataStore.setState((s) => ({ [list]: { ...s[list], loading: false } }));
    if (!options.quiet) notify.error(result.message);
  }
}

const watched: Record<TradeList, number> = { positions: 0, settles: 0, pendings: 0, logs: 0 };

/**
 * Refreshes the lists a change touched that are on screen now; the others load when they
 * are shown (every table loads on showing).
 */
export function invalidateLists(lists: readonly TradeList[] = TRADE_LISTS): void {
  for (const list of lists) {
    if (watched[list] > 0) void refreshList(list, { quiet: true });
  }
}

/**
 * The rows of one list for a table: loaded when the table is shown (`active`), on every
 * account change, and whenever a change of the account invalidates it.
 */
export function useTradeList<K extends TradeList>(
  list: K,
  active = true,
): ListState<Rows[K][number]> {
  const account = useAuthStore((s) => s.currentTrader?.uuid ?? null);
  useEffect(() => {
    if (!active) return;
    watched[list] += 1;
    void refreshList(list);
    return () => {
      watched[list] = Math.max(0, watched[list] - 1);
    };
  }, [list, active, account]);
  return useTradeDataStore((s) => s[list]) as ListState<Rows[K][number]>;
}

/** Test helper: forgets every list. */
export function resetTradeData(): void {
  for (const list of TRADE_LISTS) {
    latestRequest[list] += 1;
    watched[list] = 0;
  }
  useTradeDataStore.setState({
    positions: empty(),
    settles: empty(),
    pendings: empty(),
    logs: empty(),
  });
}
