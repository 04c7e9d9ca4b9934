import type { AccountSummary } from '@ct/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useConnectionStore } from '../../../realtime/connection';
import { queryClient } from '../../../shared/queryClient';
import { useAuthStore } from '../../auth';
import { onAccountEvent } from '../accountLive';
import { fetchAccountSummary } from '../api';
import { REFRESH_COALESCE_MS } from '../refresh';
import { tradingKeys } from '../queries';

/*
 * The account's money is server state: the summary lives in the query cache under
 * ['trading', uuid, 'summary']. Every event of the account's private channel may have
 * changed it (a fill's commission, a close's profit, a TP/SL hit, a new position's margin),
 * so each refreshes it, a burst of events once; a reconnect refreshes it too (events may
 * have been missed). Between answers the bar recomputes the live figures from quotes
 * (liveFigures.ts).
 */

const due = new Set<string>();
let timer: ReturnType<typeof setTimeout> | null = null;

function flush(): void {
  timer = null;
  const accounts = [...due];
  due.clear();
  for (const uuid of accounts) {
    void queryClient.invalidateQueries({ queryKey: tradingKeys.summary(uuid), exact: true });
  }
}

/** Refreshes the summary of account `uuid` at the end of the current burst of changes. */
export function refreshSummary(uuid: string): void {
  due.add(uuid);
  timer ??= setTimeout(flush, REFRESH_COALESCE_MS);
}

let followers = 0;
let stopFollowing: (() => void) | null = null;

function follow(): () => void {
  followers += 1;
  if (followers === 1) {
    // a live run's evaluation changes no money by itself: its orders have their own events
    const stopEvents = onAccountEvent((event) => {
      if (event.type !== 'live_run_evaluated') refreshSummary(event.uuid);
    });
    const stopConnection = useConnectionStore.subscribe((state, previous) => {
      const uuid = useAuthStore.getState().currentTrader?.uuid;
      // back after a drop: what happened meanwhile came with no event
      if (uuid && state.status === 'connected' && previous.status !== 'connected') {
        if (previous.connectedOnce) refreshSummary(uuid);
      }
    });
    stopFollowing = () => {
      stopEvents();
      stopConnection();
    };
  }
  return () => {
    followers -= 1;
    if (followers > 0) return;
    stopFollowing?.();
    stopFollowing = null;
  };
}

export type SummaryState = {
  summary: AccountSummary | undefined;
  /** The first load's failure message (a refresh that fails keeps the figures shown). */
  error: string | null;
};

/**
 * The current account's summary, loaded when shown and refreshed by its account's events
 * while mounted. Without an account nothing is asked.
 */
export function useAccountSummary(): SummaryState {
  const uuid = useAuthStore((s) => s.currentTrader?.uuid ?? null);
  useEffect(() => follow(), []);
  const query = useQuery(
    {
      queryKey: tradingKeys.summary(uuid ?? ''),
      queryFn: async () => {
        const trader = useAuthStore.getState().currentTrader;
        const result = await fetchAccountSummary(trader?.uuid === uuid ? trader : null);
        if (!result.success) throw new Error(result.message);
        return result.data;
      },
      enabled: uuid !== null,
    },
    queryClient,
  );
  if (uuid === null) return { summary: undefined, error: null };
  return {
    summary: query.data,
    error: query.data === undefined && query.error ? query.error.message : null,
  };
}
