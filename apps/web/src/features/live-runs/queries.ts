import type { AccountEvent } from '@ct/domain';
import { keepPreviousData, queryOptions, useQuery, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import {
  fetchComparison,
  fetchEvaluations,
  fetchLiveRuns,
  type EvaluationPage,
  type LiveRunList,
  type LiveRunStarted,
} from './api';
import { useConnectionStore } from '../../realtime/connection';
import { useAuthStore } from '../auth';
import { onAccountEvent, useAccountLiveUpdates } from '../trading';
import { anyRunning, LIVE_RUN_POLL_MS } from './logic';

/*
 * The live runs' server state in the one TanStack Query cache, under keys named by what they
 * hold. While the panel is open it follows the account channel's events ("sockets notify,
 * the query fetches"): a run's evaluation refetches the list, that run's evaluations and
 * its comparison; a position opened or closed refetches the list (P&L, open positions).
 * Runs of accounts other than the current one have no channel joined: for them the list is
 * also asked again every 5 s while one of its runs is running and the panel shows it. A
 * run whose evaluations, orders or status moved since the last answer has its evaluations
 * and comparison fetched again ("the list notices, the query fetches"), so neither polls on
 * its own. Opening the panel asks for the list afresh (events may have come while closed).
 */

const m = messages.liveRuns;

export const liveRunKeys = {
  /** The user's runs, newest first. */
  list: ['liveRuns'] as const,
  /** Every page of a run's evaluations (prefix). */
  evaluations: (id: string) => ['liveRunEvaluations', id] as const,
  /** One page of a run's evaluations, newest first, and the total kept. */
  evaluationPage: (id: string, page: EvaluationPage) => ['liveRunEvaluations', id, page] as const,
  /** The run against a backtest of the same bars. */
  comparison: (id: string) => ['liveRunComparison', id] as const,
};

/** What of a run, when it moves, changes its evaluations and its comparison. */
const progressOf = (run: LiveRunList['runs'][number]) =>
  `${run.status}:${run.evaluations}:${run.orders}:${run.last_evaluation_at ?? ''}`;

function noticeChanges(list: LiveRunList): LiveRunList {
  const before = queryClient.getQueryData<LiveRunList>(liveRunKeys.list);
  for (const run of list.runs) {
    const old = before?.runs.find((r) => r.id === run.id);
    // an answer older than an event the cache already took (fewer evaluations) moves nothing
    if (old && progressOf(old) !== progressOf(run) && run.evaluations >= old.evaluations) {
      void queryClient.invalidateQueries({ queryKey: liveRunKeys.evaluations(run.id) });
      void queryClient.invalidateQueries({ queryKey: liveRunKeys.comparison(run.id) });
    }
  }
  return list;
}

export const liveRunsQuery = queryOptions({
  queryKey: liveRunKeys.list,
  queryFn: () =>
    fetchLiveRuns().then(noticeChanges, (error: unknown) => {
      notify.error(m.listFailed);
      throw error;
    }),
});

/**
 * The user's runs, fetched afresh when shown, on their events (useLiveRunEvents), and every
 * 5 s while a run of another account than the current one (whose events the page does not
 * hear) is running.
 */
export function useLiveRuns(enabled = true) {
  const followed = useAuthStore((s) => s.currentTrader?.uuid ?? null);
  return useQuery(
    {
      ...liveRunsQuery,
      enabled,
      refetchOnMount: 'always',
      refetchInterval: (query) =>
        anyRunning(query.state.data?.runs, followed) ? LIVE_RUN_POLL_MS : false,
    },
    queryClient,
  );
}

/** A page of a run's evaluations; while another page loads, the last stands. */
export function useEvaluations(id: string | null, page: EvaluationPage) {
  return useQuery(
    {
      queryKey: liveRunKeys.evaluationPage(id ?? '', page),
      queryFn: () =>
        fetchEvaluations(id!, page).catch((error: unknown) => {
          notify.error(m.evaluationsFailed);
          throw error;
        }),
      enabled: id !== null,
      placeholderData: keepPreviousData,
    },
    queryClient,
  );
}

/** The run's comparison with its backtest, fetched when shown and when the run moved. */
export function useComparison(id: string | null, enabled: boolean) {
  return useQuery(
    {
      queryKey: liveRunKeys.comparison(id ?? ''),
      queryFn: () =>
        fetchComparison(id!).catch((error: unknown) => {
          notify.error(m.comparisonFailed);
          throw error;
        }),
      enabled: enabled && id !== null,
    },
    queryClient,
  );
}

// ---- Cache writes (actions) ----

/** A started run: the list is fetched again (the new run leads it). */
export function refetchLiveRuns(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: liveRunKeys.list });
}

/** A stop's answer goes into the list at once; the list is then fetched again. */
export function putRunStatus(answer: LiveRunStarted): void {
  queryClient.setQueryData<LiveRunList>(liveRunKeys.list, (old) =>
    old
      ? {
          runs: old.runs.map((run) =>
            run.id === answer.id ? { ...run, status: answer.status } : run,
          ),
        }
      : old,
  );
  void refetchLiveRuns();
  void queryClient.invalidateQueries({ queryKey: liveRunKeys.evaluations(answer.id) });
}

// ---- Live events ----

/** The queries of the live runs an event of the account channel changes. */
export function liveRunKeysChangedBy(event: AccountEvent): QueryKey[] {
  switch (event.type) {
    case 'live_run_evaluated':
      return [
        liveRunKeys.list,
        liveRunKeys.evaluations(event.runId),
        liveRunKeys.comparison(event.runId),
      ];
    case 'position_opened':
    case 'position_closed':
    case 'pending_filled':
      // a run's P&L and open positions (its own orders, or the trader closing one by hand)
      return [liveRunKeys.list];
    default:
      return [];
  }
}

/**
 * Takes an account event: an evaluation's counters go into the listed run at once (so the
 * list's answer does not invalidate its evaluations a second time), then the queries it
 * changed are refetched.
 */
export function applyLiveRunEvent(event: AccountEvent): void {
  if (event.type === 'live_run_evaluated') {
    queryClient.setQueryData<LiveRunList>(liveRunKeys.list, (old) =>
      old
        ? {
            runs: old.runs.map((run) =>
              run.id === event.runId
                ? {
                    ...run,
                    status: event.status,
                    evaluations: event.evaluations,
                    orders: event.orders,
                    last_evaluation_at: Math.floor(event.at / 1000),
                  }
                : run,
            ),
          }
        : old,
    );
  }
  for (const queryKey of liveRunKeysChangedBy(event)) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

const refetchList = () =>
  // a fetch already under way (the opening's) is not asked twice
  queryClient.invalidateQueries({ queryKey: liveRunKeys.list }, { cancelRefetch: false });

/**
 * While `open`, the live runs' queries follow the current account's events (its channel is
 * held joined meanwhile); the list is asked afresh at the opening and after the live
 * connection came back, since events may have been missed then.
 */
export function useLiveRunEvents(open: boolean): void {
  useAccountLiveUpdates();
  useEffect(() => {
    if (!open) return;
    void refetchList();
    const stopEvents = onAccountEvent(applyLiveRunEvent);
    const stopConnection = useConnectionStore.subscribe((state, previous) => {
      if (state.status === 'connected' && previous.status !== 'connected') void refetchList();
    });
    return () => {
      stopEvents();
      stopConnection();
    };
  }, [open]);
}
