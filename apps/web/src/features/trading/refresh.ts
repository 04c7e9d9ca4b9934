import type { PendingView, PositionView, SettleView } from '@ct/domain';
import type { Query } from '@tanstack/react-query';
import { queryClient } from '../../shared/queryClient';
import { tradingKeys, type PagedData, type TradeList, type WholeList, type Rows } from './queries';

/*
 * How the trading lists in the cache follow changes. An action's answer is written into
 * the lists it carries (a placed order's position, a close's settlement), then the lists it
 * changed are refreshed; an event of the account's live channel refreshes the lists it
 * names. An action and the event of the same change (the same order) refresh each list
 * once: both name the change, and a list is not refreshed again for a change that a
 * refresh already started after (the answer and the event both come after the commit).
 */

/** Bursts of changes (a fill and its log row, an answer and its event) refresh a list once. */
export const REFRESH_COALESCE_MS = 50;

/** How many changes per cached list are remembered as already refreshed for. */
const REMEMBERED_CHANGES = 100;

// Changes a refresh of a cached list was started for, by the cached query itself: a cleared
// cache (a new session, each test) starts with none.
const refreshedFor = new WeakMap<Query, Set<string>>();
// Lists due for a refresh at the end of the current burst, with the changes they will show.
const due = new Map<Query, Set<string>>();
let flushTimer: ReturnType<typeof setTimeout> | null = null;

// A list forgotten by the cache (a new session; each test clears it) is no longer due.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'removed' || !due.delete(event.query) || due.size > 0) return;
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
});

function cachedList(uuid: string, list: TradeList): Query | undefined {
  return queryClient.getQueryCache().find({ queryKey: tradingKeys.list(uuid, list), exact: true });
}

function flush(): void {
  flushTimer = null;
  const lists = [...due];
  due.clear();
  for (const [query, changes] of lists) {
    const known = refreshedFor.get(query) ?? new Set<string>();
    for (const change of changes) known.add(change);
    refreshedFor.set(query, new Set([...known].slice(-REMEMBERED_CHANGES)));
    // An active list refetches now (cancelling a request started before the change), an
    // inactive one when its table shows again.
    void queryClient.invalidateQueries({ predicate: (q) => q === query });
  }
}

/**
 * Refreshes `lists` of account `uuid` at the end of the current burst. With `change` (an id
 * of what changed, e.g. `opened:12`), a list already refreshed or due for that change is
 * left alone. Lists the cache does not hold yet load fresh when shown.
 */
export function refreshLists(uuid: string, lists: readonly TradeList[], change?: string): void {
  for (const list of lists) {
    const query = cachedList(uuid, list);
    if (!query) continue;
    if (change !== undefined && refreshedFor.get(query)?.has(change)) continue;
    const changes = due.get(query) ?? new Set<string>();
    if (change !== undefined) changes.add(change);
    due.set(query, changes);
  }
  if (due.size > 0) flushTimer ??= setTimeout(flush, REFRESH_COALESCE_MS);
}

/**
 * Names of changes, the same for an action's answer and the live event of the change (the
 * event's ids and levels are the answer's).
 */
export const changeIds = {
  opened: (orderId: string) => `opened:${orderId}`,
  closed: (tradeId: string) => `closed:${tradeId}`,
  tpsl: (orderId: string, tp: number, sl: number) => `tpsl:${orderId}:${tp}:${sl}`,
  pendingAdded: (pId: string) => `pending:${pId}`,
  pendingFilled: (pId: string) => `filled:${pId}`,
  pendingCanceled: (pId: string) => `canceled:${pId}`,
  pendingModified: (pId: string, price: number, tp: number, sl: number) =>
    `modified:${pId}:${price}:${tp}:${sl}`,
  pendingExpired: (pId: string) => `expired:${pId}`,
  pendingRejected: (pId: string) => `rejected:${pId}`,
};

// ---- Answers written into the cache ----

function updateWhole<K extends WholeList>(
  uuid: string,
  list: K,
  update: (rows: Rows[K]) => Rows[K],
): void {
  // a list not loaded yet stays so: it loads whole when shown
  queryClient.setQueryData<Rows[K]>(tradingKeys.list(uuid, list), (rows) =>
    rows ? update(rows) : rows,
  );
}

/** Puts `row` in place of the row with its id, or first (the lists are newest first). */
function upsert<T>(rows: T[], row: T, same: (a: T, b: T) => boolean): T[] {
  const at = rows.findIndex((r) => same(r, row));
  if (at === -1) return [row, ...rows];
  return rows.map((r, i) => (i === at ? row : r));
}

const samePosition = (a: PositionView, b: PositionView) => a.orderId === b.orderId;
const samePending = (a: PendingView, b: PendingView) => a.pId === b.pId;

/** A position as the server answered it (opened, TP/SL edited or partly closed). */
export function writePosition(uuid: string, position: PositionView): void {
  updateWhole(uuid, 'positions', (rows) =>
    position.status === 'open'
      ? upsert(rows, position, samePosition)
      : rows.filter((row) => !samePosition(row, position)),
  );
}

/** A pending order as the server answered it (added, or gone once canceled). */
export function writePending(uuid: string, pending: PendingView): void {
  updateWhole(uuid, 'pendings', (rows) =>
    pending.status === 'working'
      ? upsert(rows, pending, samePending)
      : rows.filter((row) => !samePending(row, pending)),
  );
}

/** A new settlement leads the loaded settlements. */
export function writeSettle(uuid: string, settle: SettleView): void {
  queryClient.setQueryData<PagedData<SettleView>>(tradingKeys.list(uuid, 'settles'), (data) => {
    const first = data?.pages[0];
    if (!data || !first || first.rows.some((row) => row.tradeId === settle.tradeId)) return data;
    const total = (page: typeof first) => ({ ...page, total: page.total + 1 });
    return {
      ...data,
      pages: [
        { ...total(first), rows: [settle, ...first.rows] },
        ...data.pages.slice(1).map(total),
      ],
    };
  });
}
