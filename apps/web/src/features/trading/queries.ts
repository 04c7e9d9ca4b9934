import {
  TRADING_PAGE_MAX,
  type OrderLogView,
  type PendingView,
  type PositionView,
  type SettleView,
  type Trader,
} from '@ct/domain';
import {
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type QueryKey,
} from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { trading as messages } from '../../i18n/defaults/trading';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import { useAuthStore } from '../auth';
import {
  fetchOrderLogs,
  fetchPendings,
  fetchPositions,
  fetchSettles,
  type ListPage,
  type PageRequest,
  type TradingResult,
} from './api';

/*
 * The trading lists of an account are server state: they live in the one TanStack Query
 * cache under keys that carry the account, so an answer for one account can never show
 * under another. Tables read them with the hooks below; actions write their answers in
 * (`cache.ts`) and live events invalidate what they changed (`refresh.ts`).
 */

/** The four lists of the Trade tab. */
export const TRADE_LISTS = ['positions', 'settles', 'pendings', 'logs'] as const;
export type TradeList = (typeof TRADE_LISTS)[number];

/** The lists the server pages (settlements and order log, newest first). */
export type PagedList = Extract<TradeList, 'settles' | 'logs'>;
/** The lists the server answers whole (positions and pending orders). */
export type WholeList = Exclude<TradeList, PagedList>;

/** Rows of one page of the settlements and order log tables. */
export const TRADE_PAGE_SIZE = 50;

export type Rows = {
  positions: PositionView[];
  settles: SettleView[];
  pendings: PendingView[];
  logs: OrderLogView[];
};

/** The query keys of the trading lists, in one place. */
export const tradingKeys = {
  /** Every list of an account (a resubscription invalidates them all). */
  account: (uuid: string) => ['trading', uuid] as const,
  /** One list of an account: ['trading', uuid, 'positions'] and so on. */
  list: (uuid: string, list: TradeList) => ['trading', uuid, list] as const,
  /** The account's money (GET /trading/account/summary). */
  summary: (uuid: string) => ['trading', uuid, 'summary'] as const,
};

// An account that is not the current one gets no live events (its channel is left): its
// cached lists are refetched when it is shown again.
useAuthStore.subscribe((state, previous) => {
  const left = previous.currentTrader?.uuid;
  if (!left || left === state.currentTrader?.uuid) return;
  void queryClient.invalidateQueries({ queryKey: tradingKeys.account(left), refetchType: 'none' });
});

/**
 * A request of a paged list: older than `lastSortId` (-1: the newest). The newest page has
 * no limit of its own: it asks for as many rows as the table shows (a refresh reloads them
 * from the newest in one request, so the page on screen stays put).
 */
export type PageParam = { lastSortId: number; limit?: number };

/** The cached pages of a paged list: the server's answers in order, newest first. */
export type PagedData<T> = InfiniteData<ListPage<T>, PageParam>;

const NEWEST: PageParam = { lastSortId: -1 };

const WHOLE_FETCHERS: {
  [K in WholeList]: (trader: Trader) => Promise<TradingResult<Rows[K]>>;
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

/** The trader of an account of the signed-in user (the current one, or another of theirs). */
function traderOf(uuid: string): Trader | null {
  const { currentTrader, user } = useAuthStore.getState();
  if (currentTrader?.uuid === uuid) return currentTrader;
  return user?.traders.find((trader) => trader.uuid === uuid) ?? null;
}

/**
 * The answer of a list request, or its failure thrown (the cache keeps the rows it has).
 * The message shows once when the table has nothing yet (a first load, an account change);
 * a refresh of rows on screen (an event, an action, a resubscription) fails quietly.
 */
function unwrap<T>(result: TradingResult<T>, queryKey: QueryKey): T {
  if (result.success) return result.data;
  if (queryClient.getQueryData(queryKey) === undefined) notify.error(result.message);
  throw new Error(result.message);
}

const clampLimit = (rows: number) => Math.min(TRADING_PAGE_MAX, Math.max(1, rows));

export type ListState<T> = {
  rows: T[];
  /** True while a request of the current account is on its way. */
  loading: boolean;
};

/**
 * The rows of a whole list of the current account for a table: loaded when the table is
 * shown (`active`) and the cache has none or they were invalidated; another account's rows
 * are under another key. Without an account the list is empty and nothing is asked (spec
 * section 6).
 */
export function useTradeList<K extends WholeList>(
  list: K,
  active = true,
): ListState<Rows[K][number]> {
  const uuid = useAuthStore((s) => s.currentTrader?.uuid ?? null);
  const query = useQuery(
    {
      queryKey: tradingKeys.list(uuid ?? '', list),
      queryFn: async ({ queryKey }): Promise<Rows[K]> => {
        const trader = uuid ? traderOf(uuid) : null;
        if (!trader) throw new Error(messages.trading.noCurrentTrader);
        return unwrap(await WHOLE_FETCHERS[list](trader), queryKey);
      },
      enabled: active && uuid !== null,
    },
    queryClient,
  );
  const rows = (uuid !== null && query.data) || [];
  return { rows, loading: uuid !== null && query.isFetching };
}

export type PagedListState<T> = ListState<T> & {
  /** Rows of the account on the server; fewer of them may be loaded. */
  total: number;
  /** The page on screen (1-based); a phone shows pages 1 to `page` one under the other. */
  page: number;
  setPage: (page: number) => void;
};

/**
 * A paged list for a table: `page` starts at 1, again on an account change, and the rows
 * of pages 1 to `page` are loaded: a page the table lacks asks the server for the rows it
 * lacks from the cursor of the last loaded ones, in one request. A refresh reloads the rows
 * shown from the newest, so the page stays put.
 */
export function usePagedTradeList<K extends PagedList>(
  list: K,
  active = true,
): PagedListState<Rows[K][number]> {
  type Row = Rows[K][number];
  const uuid = useAuthStore((s) => s.currentTrader?.uuid ?? null);
  const [view, setView] = useState({ account: uuid, page: 1 });
  const page = view.account === uuid ? view.page : 1;
  const wanted = page * TRADE_PAGE_SIZE;
  const enabled = active && uuid !== null;

  const query = useInfiniteQuery(
    {
      queryKey: tradingKeys.list(uuid ?? '', list),
      initialPageParam: NEWEST,
      queryFn: async ({ pageParam, queryKey }): Promise<ListPage<Row>> => {
        const trader = uuid ? traderOf(uuid) : null;
        if (!trader) throw new Error(messages.trading.noCurrentTrader);
        const request = {
          lastSortId: pageParam.lastSortId,
          limit: pageParam.limit ?? clampLimit(wanted),
        };
        return unwrap(await PAGE_FETCHERS[list](trader, request), queryKey);
      },
      // The next request asks for the rows the table still lacks; none once it has them.
      getNextPageParam: (last, pages): PageParam | undefined => {
        const loaded = pages.reduce((sum, p) => sum + p.rows.length, 0);
        if (last.lastSortId === -1 || loaded >= wanted) return undefined;
        return { lastSortId: last.lastSortId, limit: clampLimit(wanted - loaded) };
      },
      enabled,
    },
    queryClient,
  );

  const { data, isFetching, fetchNextPage, dataUpdatedAt } = query;
  const rows = useMemo(() => data?.pages.flatMap((p) => p.rows) ?? [], [data]);
  const last = data?.pages.at(-1);
  const lacking = enabled && last !== undefined && last.lastSortId !== -1 && rows.length < wanted;
  // A failed page is not asked again and again: only after the page or the rows change.
  const attempt = `${uuid}|${wanted}|${dataUpdatedAt}`;
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!lacking || isFetching || failed === attempt) return;
    void fetchNextPage({ cancelRefetch: false }).then((result) => {
      if (!result.isFetchNextPageError) return;
      setFailed(attempt);
      notify.error(result.error.message);
    });
  }, [lacking, isFetching, failed, attempt, fetchNextPage]);

  return {
    rows: uuid !== null ? rows : [],
    loading: uuid !== null && isFetching,
    total: uuid !== null ? (last?.total ?? 0) : 0,
    page,
    setPage: (next) => setView({ account: uuid, page: Math.max(1, next) }),
  };
}
