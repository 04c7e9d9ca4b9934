import type { OptimizationStatus } from '@ct/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchOptimization, fetchOptimizations } from './api';

/*
 * The optimiser's server state in the query cache. An optimisation still running is polled
 * (its progress, one trial); once it ends its trials are fetched whole (at most the server's
 * 1000) for the table and the heatmap.
 */

export const optimizationKeys = {
  all: ['optimizations'] as const,
  /** The user's optimisations of one strategy, newest first. */
  list: (strategy: string) => ['optimizations', 'list', strategy] as const,
  /** One optimisation's progress (polled while it runs). */
  progress: (id: string) => ['optimizations', 'progress', id] as const,
  /** One finished optimisation with every trial. */
  detail: (id: string) => ['optimizations', 'detail', id] as const,
};

/** Every trial of an optimisation (the server's most per optimisation). */
export const ALL_TRIALS = 1000;
/** How often a running optimisation's progress is asked, in ms. */
export const PROGRESS_POLL_MS = 1000;

export const isRunning = (status: OptimizationStatus | undefined) =>
  status === 'PENDING' || status === 'PROCESSING';

export const progressQuery = (id: string) =>
  queryOptions({
    queryKey: optimizationKeys.progress(id),
    queryFn: () => fetchOptimization(id, 1),
    refetchInterval: (query) =>
      query.state.data === undefined || isRunning(query.state.data.status)
        ? PROGRESS_POLL_MS
        : false,
  });

export const detailQuery = (id: string) =>
  queryOptions({
    queryKey: optimizationKeys.detail(id),
    queryFn: () => fetchOptimization(id, ALL_TRIALS),
  });

export const listQuery = (strategy: string) =>
  queryOptions({
    queryKey: optimizationKeys.list(strategy),
    queryFn: () => fetchOptimizations(strategy),
  });

/** The optimisation's progress, polled while it runs. */
export function useProgress(id: string | null) {
  return useQuery({ ...progressQuery(id ?? ''), enabled: id !== null });
}

/** The optimisation with all its trials, once it ended (`ended`). */
export function useDetail(id: string | null, ended: boolean) {
  return useQuery({ ...detailQuery(id ?? ''), enabled: id !== null && ended });
}

export function useOptimizationList(strategy: string | null) {
  return useQuery({ ...listQuery(strategy ?? ''), enabled: strategy !== null });
}
