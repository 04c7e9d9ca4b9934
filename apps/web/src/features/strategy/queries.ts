import type { SavedStrategyAnswer } from '@ct/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { strategy as messages } from '../../i18n/defaults/strategy';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import {
  fetchAllResultDeals,
  fetchResultDetail,
  fetchResults,
  fetchStrategies,
  fetchStrategyTemplate,
  fetchVersion,
  fetchVersions,
  type ResultsQuery,
  type SavedStrategy,
  type StrategyResult,
  type StrategyResultSummary,
  type StrategyResultSummaryPage,
} from './api';

/*
 * The workbench's server state, in the one TanStack Query cache under keys named by what
 * they hold. Components read it with the hooks below; the actions (outside React) read and
 * write it through `queryClient`: a save's answer is put into the list, and only the queries
 * a change touches are invalidated.
 */

const m = messages.strategy;

export const strategyKeys = {
  /** The user's saved strategies, name order (`SavedStrategy[]`): the codes the server holds. */
  list: ['strategies'] as const,
  /** The built-in Default strategy's code (the template). */
  template: ['strategyTemplate'] as const,
  /** Every strategy's kept versions (prefix). */
  allVersions: ['strategyVersions'] as const,
  /** A strategy's kept earlier codes, newest first, without their code. */
  versions: (name: string) => ['strategyVersions', name] as const,
  /** One kept version with its code (never changes). */
  version: (name: string, id: number) => ['strategyVersion', name, id] as const,
  /** Every page of a strategy's saved results (prefix). */
  results: (name: string) => ['strategyResults', name] as const,
  /** One page of a strategy's saved results and their total. */
  resultsPage: (name: string, page: ResultsQuery) => ['strategyResults', name, page] as const,
};

export const strategiesQuery = queryOptions({
  queryKey: strategyKeys.list,
  queryFn: fetchStrategies,
});

export const templateQuery = queryOptions({
  queryKey: strategyKeys.template,
  queryFn: fetchStrategyTemplate,
});

export const versionsQuery = (name: string) =>
  queryOptions({ queryKey: strategyKeys.versions(name), queryFn: () => fetchVersions(name) });

export const versionQuery = (name: string, id: number) =>
  queryOptions({
    queryKey: strategyKeys.version(name, id),
    queryFn: () =>
      fetchVersion(name, id).catch((error: unknown) => {
        notify.error(m.versionsFailed);
        throw error;
      }),
  });

export const resultsPageQuery = (name: string, page: ResultsQuery) =>
  queryOptions({
    queryKey: strategyKeys.resultsPage(name, page),
    queryFn: () =>
      fetchResults(name, page).catch((error: unknown) => {
        notify.error(m.historyFailed);
        throw error;
      }),
  });

// ---- Hooks ----

/** The saved strategies as last fetched or saved (empty until the list is known). */
export function useStrategies(): SavedStrategy[] {
  return useQuery({ ...strategiesQuery, enabled: false }).data ?? EMPTY;
}
const EMPTY: SavedStrategy[] = [];

/** The template code once known (loading it is `loadStrategyTemplate`'s job), else null. */
export function useTemplateCode(): string | null {
  return useQuery({ ...templateQuery, enabled: false }).data ?? null;
}

/**
 * A saved strategy's kept versions while `enabled`; during a refetch (after a save) the last
 * answer stands; a failed fetch reads as no versions.
 */
export function useStrategyVersions(name: string | null, enabled: boolean) {
  const query = useQuery({ ...versionsQuery(name ?? ''), enabled: enabled && name !== null });
  return {
    versions: enabled && !query.isError ? (query.data ?? []) : [],
    loading: enabled && query.isFetching,
  };
}

/** One page of a strategy's saved results, fetched again at each opening of the history. */
export function useResultsPage(name: string, page: ResultsQuery) {
  return useQuery({
    ...resultsPageQuery(name, page),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

// ---- Cache reads and writes (actions) ----

/** The code the server holds for `name`, as far as the cache knows it. */
export function cachedCode(name: string): string | undefined {
  return queryClient.getQueryData(strategiesQuery.queryKey)?.find((s) => s.name === name)?.code;
}

/** The template code, once known. */
export function cachedTemplate(): string | null {
  return queryClient.getQueryData(templateQuery.queryKey) ?? null;
}

/** Whether the strategy list is in the cache. */
export function strategyListKnown(): boolean {
  return queryClient.getQueryData(strategiesQuery.queryKey) !== undefined;
}

/**
 * A save's answer into the list (its code and times; a new strategy joins in name order),
 * and its versions refetched: a save that changed the code may have kept a version.
 */
export function putSavedStrategy(answer: SavedStrategyAnswer): void {
  const row: SavedStrategy = {
    name: answer.name,
    code: answer.code,
    created_at: answer.created_at,
    updated_at: answer.updated_at,
  };
  queryClient.setQueryData(strategiesQuery.queryKey, (list) => {
    if (!list) return list;
    if (list.some((s) => s.name === row.name)) {
      return list.map((s) => (s.name === row.name ? { ...s, ...row } : s));
    }
    return [...list, row].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  });
  void queryClient.invalidateQueries({ queryKey: strategyKeys.versions(row.name) });
}

/** A deleted strategy leaves the list; its versions and saved results leave the cache. */
export function forgetStrategy(name: string): void {
  queryClient.setQueryData(strategiesQuery.queryKey, (list) =>
    list?.filter((s) => s.name !== name),
  );
  queryClient.removeQueries({ queryKey: strategyKeys.versions(name) });
  queryClient.removeQueries({ queryKey: ['strategyVersion', name] });
  queryClient.removeQueries({ queryKey: strategyKeys.results(name) });
}

/** Fetches the strategy list afresh (each opening of the workbench). */
export function refetchStrategies(): Promise<SavedStrategy[]> {
  return queryClient.fetchQuery({ ...strategiesQuery, staleTime: 0 });
}

/**
 * A saved result joins the top of the first page of its strategy's history (newest first),
 * or replaces its row there when it was kept by itself already; the later pages are fetched
 * again when shown (they shift by one, or hold the row).
 */
export function putSavedResult(result: StrategyResultSummary): void {
  const name = result.strategy_name;
  for (const [key] of queryClient.getQueriesData<StrategyResultSummaryPage>({
    queryKey: strategyKeys.results(name),
  })) {
    const page = key[2];
    if (!isFirstPage(page)) continue;
    queryClient.setQueryData<StrategyResultSummaryPage>(key, (old) => {
      if (!old) return old;
      // a run kept by itself and now saved stays in its place, marked saved
      if (old.results.some((r) => r.id === result.id)) {
        return { ...old, results: old.results.map((r) => (r.id === result.id ? result : r)) };
      }
      return { results: [result, ...old.results].slice(0, page.limit), total: old.total + 1 };
    });
  }
  void queryClient.invalidateQueries({
    queryKey: strategyKeys.results(name),
    predicate: (query) => !isFirstPage(query.queryKey[2]),
  });
}

/** A run of `name` finished: the server keeps it in the history by itself, shown when next asked. */
export function refreshResults(name: string): void {
  void queryClient.invalidateQueries({ queryKey: strategyKeys.results(name) });
}

/**
 * A listed result with what its listing leaves out, for its details and Show on Chart: the
 * full figures (equity curve) and every deal, fetched page by page. Not cached: a result can
 * hold 100,000 deals, kept only while it is shown.
 */
export async function loadSavedResult(summary: StrategyResultSummary): Promise<StrategyResult> {
  const [detail, deals] = await Promise.all([
    fetchResultDetail(summary.strategy_name, summary.id),
    fetchAllResultDeals(summary.strategy_name, summary.id),
  ]);
  return {
    id: detail.id,
    strategy_name: detail.strategy_name,
    symbol_id: detail.symbol_id,
    deals,
    performance: detail.performance,
    error: detail.error,
    run_id: detail.run_id,
    has_logs: detail.has_logs,
    created_at: detail.created_at,
    ...(detail.feeds ? { feeds: detail.feeds, per_symbol: detail.per_symbol ?? {} } : {}),
  };
}

function isFirstPage(page: unknown): page is { skip: number; limit: number } {
  return (
    typeof page === 'object' &&
    page !== null &&
    'skip' in page &&
    page.skip === 0 &&
    'limit' in page &&
    typeof page.limit === 'number'
  );
}
