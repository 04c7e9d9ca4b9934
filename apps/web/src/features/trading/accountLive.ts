import { accountEventSchema, type AccountEvent, type Trader } from '@ct/domain';
import { useEffect } from 'react';
import { isChildFrame } from '../../realtime/connection';
import { sharedPrivateChannel } from '../../realtime/privateChannel';
import { useAuthStore } from '../auth';
import { fetchLiveToken } from './api';
import { changeIds, refreshLists } from './refresh';
import { TRADE_LISTS, tradingKeys, type TradeList } from './queries';

/** The tables an account event changes. */
export function listsChangedBy(event: AccountEvent): TradeList[] {
  switch (event.type) {
    case 'position_opened':
      // a market order opens a position without a pending order
      return event.pId === null ? ['positions', 'logs'] : ['positions', 'pendings', 'logs'];
    case 'pending_filled':
      return ['positions', 'pendings', 'logs'];
    case 'position_closed':
      return ['positions', 'settles', 'logs'];
    case 'tpsl_changed':
      return ['positions', 'logs'];
    case 'pending_added':
    case 'pending_modified':
    case 'pending_canceled':
    case 'pending_expired':
    case 'pending_rejected':
      return ['pendings', 'logs'];
    case 'live_run_evaluated':
      // the orders the run sent have their own events
      return [];
  }
}

/** The query keys of the account's lists an event changes. */
export function keysChangedBy(event: AccountEvent): (readonly string[])[] {
  return listsChangedBy(event).map((list) => tradingKeys.list(event.uuid, list));
}

/**
 * What an event changed, named as the answer of the action that made the change names it
 * (actions.ts), so the two refresh each list once.
 */
export function changeOf(event: AccountEvent): string {
  switch (event.type) {
    case 'position_opened':
      return changeIds.opened(event.orderId);
    case 'position_closed':
      return changeIds.closed(event.tradeId);
    case 'tpsl_changed':
      return changeIds.tpsl(event.orderId, event.tp, event.sl);
    case 'pending_added':
      return changeIds.pendingAdded(event.pId);
    case 'pending_filled':
      return changeIds.pendingFilled(event.pId);
    case 'pending_canceled':
      return changeIds.pendingCanceled(event.pId);
    case 'pending_modified':
      return changeIds.pendingModified(event.pId, event.pendPrice, event.tp, event.sl);
    case 'pending_expired':
      return changeIds.pendingExpired(event.pId);
    case 'pending_rejected':
      return changeIds.pendingRejected(event.pId);
    case 'live_run_evaluated':
      return `evaluated:${event.runId}:${event.evaluations}`;
  }
}

const eventListeners = new Set<(event: AccountEvent) => void>();

/** Follows the events of the current account's private channel (tests, notifications). */
export function onAccountEvent(listener: (event: AccountEvent) => void): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

/**
 * Takes one publication of the account channel: the lists it changed are refreshed (a burst
 * of events once; not again for a change an action's answer already refreshed them for).
 */
export function handleAccountPublication(data: unknown): void {
  const parsed = accountEventSchema.safeParse(data);
  if (!parsed.success) return;
  const event = parsed.data;
  for (const listener of eventListeners) listener(event);
  refreshLists(event.uuid, listsChangedBy(event), changeOf(event));
}

// One join per account, however many components ask for it.
const joinAccount = sharedPrivateChannel();

/**
 * Joins `account:{uuid}` on the main window's live connection with tokens of
 * GET /api/live/token. On every (re)subscription the account's lists reload, since events
 * may have been missed meanwhile. Returns the release.
 */
function acquire(userId: string, account: Trader): () => void {
  return joinAccount(`${userId}|${account.uuid}|${account.token}`, {
    userId,
    channel: `account:${account.uuid}`,
    fetchTokens: () => fetchLiveToken(account),
    onPublication: handleAccountPublication,
    onSubscribed: () => refreshLists(account.uuid, TRADE_LISTS),
    errorMessage: 'Account channel error',
  });
}

/**
 * Keeps the current account's private channel joined while mounted, so changes made by
 * the engine (a pending order filled, a TP/SL hit, an expiry) show without a refresh.
 * Child frames have no connection of their own and skip it.
 */
export function useAccountLiveUpdates(): void {
  const userId = useAuthStore((s) => s.userId);
  const trader = useAuthStore((s) => s.currentTrader);
  const uuid = trader?.uuid ?? null;
  const token = trader?.token ?? null;
  useEffect(() => {
    if (!userId || !uuid || !token || isChildFrame()) return;
    const account = useAuthStore.getState().currentTrader;
    if (!account) return;
    return acquire(userId, account);
  }, [userId, uuid, token]);
}
