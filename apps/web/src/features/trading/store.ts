import {
  TRADING_PAGE_MAX,
  type OrderLogView,
  type PendingView,
  type PositionView,
  type SettleView,
  type Trader,
} from '@ct/domain';
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { notify } from '../../shared/notify';
import { useAuthStore } from '../auth/store';
import {
  currentTrader,
  fetchOrderLogs,
  fetchPendings,
  fetchPositions,
  fetchSettles,
  type ListPage,
  type PageRequest,
  type TradingResult,
} from './api';

/** The four lists of the Trade tab. */
export const TRADE_LISTS = ['positions', 'settles', 'pendings', 'logs'] as const;
export type TradeList = (typeof TRADE_LISTS)[number];

/** The lists the server pages (settlements and order log, newest first). */
export type PagedList = Extract<TradeList, 'settles' | 'logs'>;

/** Rows of one page of the settlements and order log tables. */
export const TRADE_PAGE_SIZE = 50;

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
  /** Rows of the account on the server; paged lists may hold fewer of them. */
  total: number;
  /** Paging key of the next older rows (the server's lastSortId); -1 when all are loaded. */
  next: number;
};

type TradeDataState = { [K in TradeList]: ListState<Rows[K][number]> };

const empty = <T>(): ListState<T> => ({
  rows: [],
  loading: false,
  account: null,
  total: 0,
  next: -1,
});

/** The current account's positions, settlements, pending orders and order log. */
export const useTradeDataStore = create<TradeDataState>(() => ({
  positions: empty(),
  settles: empty(),
  pendings: empty(),
  logs: empty(),
}));

const WHOLE_FETCHERS: {
  [K in Exclude<TradeList, PagedList>]: (trader: Trader) => Promise<TradingResult<Rows[K]>>;
} = {
  positions: fetchPositions,
  pendings: fetchPendings,
};

const PAGE_FETCHERS: {
  [K in PagedList]: (
    trader: Trader,
    request: PageRequest,
  ) => Promise<TradingResult<ListPage<Rows[K][number]>>>;
} = {
  settles: fetchSettles,
  logs: fetchOrderLogs,
};

const isPaged = (list: TradeList): list is PagedList => list in PAGE_FETCHERS;

// Only the newest request of a list may write it (an account switch overtakes older ones).
const latestRequest: Record<TradeList, number> = { positions: 0, settles: 0, pendings: 0, logs: 0 };
// The request of a paged list that is on its way (0: none).
const inFlight: Record<PagedList, number> = { settles: 0, logs: 0 };
// How many of the newest rows of a paged list the table on screen shows (its pages so far).
const wanted: Record<PagedList, number> = { settles: TRADE_PAGE_SIZE, logs: TRADE_PAGE_SIZE };

/**
 * Loads one list of the current account: a whole list, or the rows of a paged list that
 * the table shows (a refresh reloads them from the newest, so rows changed or added since
 * keep their order). Without an account the list is empty and nothing is asked (spec
 * section 6). A failure shows its message and keeps the rows.
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
      // rows of another account never show under this one
      ...(s[list].account === trader.uuid ? s[list] : { ...empty(), account: trader.uuid }),
      loading: true,
    },
  }));
  if (isPaged(list)) {
    await loadPages(list, trader, request, { rows: [], next: -1 }, options);
    return;
  }
  const result = await WHOLE_FETCHERS[list](trader);
  if (request !== latestRequest[list]) return;
  if (result.success) {
    const rows = result.data;
    useTradeDataStore.setState({
      [list]: { rows, loading: false, account: trader.uuid, total: rows.length, next: -1 },
    });
  } else {
    useTradeDataStore.setState((s) => ({ [list]: { ...s[list], loading: false } }));
    if (!options.quiet) notify.error(result.message);
  }
}

/**
 * Asks the server for pages older than `from.next` (the newest with -1) until `wanted`
 * rows are there or none are left, then writes them after `from.rows`.
 */
async function loadPages<K extends PagedList>(
  list: K,
  trader: Trader,
  request: number,
  from: { rows: Rows[K][number][]; next: number },
  options: { quiet?: boolean },
): Promise<void> {
  inFlight[list] = request;
  let { rows, next } = from;
  let total: number;
  try {
    do {
      const limit = Math.min(TRADING_PAGE_MAX, Math.max(1, wanted[list] - rows.length));
      const result = await PAGE_FETCHERS[list](trader, { lastSortId: next, limit });
      if (request !== latestRequest[list]) return;
      if (!result.success) {
        useTradeDataStore.setState((s) => ({ [list]: { ...s[list], loading: false } }));
        if (!options.quiet) notify.error(result.message);
        return;
      }
      rows = [...rows, ...result.data.rows];
      next = result.data.lastSortId;
      total = result.data.total;
      // `wanted` is read again after each page: the table may have asked for more meanwhile
    } while (next !== -1 && rows.length < wanted[list]);
    useTradeDataStore.setState({
      [list]: { rows, loading: false, account: trader.uuid, total, next },
    });
  } finally {
    if (inFlight[list] === request) inFlight[list] = 0;
  }
}

/**
 * The table of a paged list shows the `count` newest rows (all its pages so far): loads the
 * missing ones from the end of those it has. Refreshes keep that many loaded.
 */
export function showRows(list: PagedList, count: number): void {
  wanted[list] = Math.max(1, count);
  const trader = currentTrader();
  const state = useTradeDataStore.getState()[list];
  // a request on its way reads `wanted` before it finishes; another account's rows reload
  if (!trader || inFlight[list] !== 0 || state.account !== trader.uuid) return;
  if (state.next === -1 || state.rows.length >= count) return;
  const request = ++latestRequest[list];
  useTradeDataStore.setState((s) => ({ [list]: { ...s[list], loading: true } }));
  void loadPages(list, trader, request, { rows: state.rows, next: state.next }, {});
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

export type PagedListState<T> = ListState<T> & {
  /** The page on screen (1-based); a phone shows pages 1 to `page` one under the other. */
  page: number;
  setPage: (page: number) => void;
};

/**
 * A paged list for a table: `page` starts at 1, again on an account change, and the rows
 * of pages 1 to `page` are loaded (a live refresh reloads them, so the page stays put).
 */
export function usePagedTradeList<K extends PagedList>(
  list: K,
  active = true,
): PagedListState<Rows[K][number]> {
  const account = useAuthStore((s) => s.currentTrader?.uuid ?? null);
  const [view, setView] = useState({ account, page: 1 });
  const page = view.account === account ? view.page : 1;
  // Declared before useTradeList's effect, so a refresh already loads this many rows.
  useEffect(() => {
    if (active) showRows(list, page * TRADE_PAGE_SIZE);
  }, [list, active, page, account]);
  const state = useTradeList(list, active);
  return { ...state, page, setPage: (next) => setView({ account, page: Math.max(1, next) }) };
}

/** Test helper: forgets every list. */
export function resetTradeData(): void {
  for (const list of TRADE_LISTS) {
    latestRequest[list] += 1;
    watched[list] = 0;
  }
  inFlight.settles = inFlight.logs = 0;
  wanted.settles = wanted.logs = TRADE_PAGE_SIZE;
  useTradeDataStore.setState({
    positions: empty(),
    settles: empty(),
    pendings: empty(),
    logs: empty(),
  });
}
