import { hashKey } from '@tanstack/react-query';
import { create } from 'zustand';
import { queryClient } from '../../shared/queryClient';
import { cachedTemplate, templateQuery } from './queries';

/*
 * The strategy template code of the chart page (the built-in Default strategy's code) lives
 * in the query cache under `['strategyTemplate']`. `useStrategyTemplateStore` is a read-only
 * view of that entry for the chart page and the assistant, which read it as a store.
 */

/** The cached template code, or null; follows the query cache, never written by callers. */
export const useStrategyTemplateStore = create<{ code: string | null }>(() => ({
  code: cachedTemplate(),
}));

const templateHash = hashKey(templateQuery.queryKey);
queryClient.getQueryCache().subscribe((event) => {
  if (event.query.queryHash !== templateHash) return;
  const code = cachedTemplate();
  if (useStrategyTemplateStore.getState().code !== code)
    useStrategyTemplateStore.setState({ code });
});

/** Loads the template once; concurrent callers share the request, a failure is retried. */
export function loadStrategyTemplate(): Promise<string> {
  return queryClient.fetchQuery(templateQuery);
}
