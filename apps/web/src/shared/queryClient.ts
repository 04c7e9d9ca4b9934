import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of server state in the browser (TanStack Query). Components read it with
 * hooks; plain actions and live events (outside React) write and invalidate it through this
 * instance, by query key. Live quotes and ticks are not server state here: they stay in
 * their own stores (`market/quotes`), fed by the live connection.
 *
 * Defaults: nothing refetches on window focus or reconnect by itself (the live account
 * channel says what changed, and resubscribing invalidates), and a failed request is not
 * retried silently: its message reaches the user once.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      staleTime: Number.POSITIVE_INFINITY,
    },
    mutations: { retry: false },
  },
});

/** Test helper: forgets every query and mutation. */
export function resetQueryClient(): void {
  queryClient.clear();
}
