import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { messages } from '../../i18n/messages';
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
import { anyRunning, LIVE_RUN_POLL_MS } from './logic';

/*
 * The live runs' server state in the one TanStack Query cache, under keys named by what they
 * hold. The list is asked again every 5 s while one of its runs is running and the panel
 * shows it; a run whose evaluations, orders or status moved since the last answer has its
 * evaluations and comparison fetched again ("the list notices, the query fetches"), so
 * neither polls on its own.
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
    if (old && progressOf(old) !== progressOf(run)) {
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

/** The user's runs, fetched afresh when shown and every 5 s while one is running. */
export function useLiveRuns(enabled = true) {
  return useQuery(
    {
      ...liveRunsQuery,
      enabled,
      refetchOnMount: 'always',
      refetchInterval: (query) => (anyRunning(query.state.data?.runs) ? LIVE_RUN_POLL_MS : false),
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
