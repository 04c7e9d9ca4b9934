import { type InstrumentGroup, type SymbolInfo } from '@ct/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { queryClient } from '../shared/queryClient';
import { fetchInstrumentGroups, fetchSymbolList } from './api';

/*
 * The instrument catalogue is server state: two queries of the one TanStack Query cache,
 * the instrument groups (loaded once) and the full instruments by symbol (refreshed while a
 * chart is on screen, since markets open and close).
 */

/** How often the trading state (`is_trading`) of instruments is refreshed. */
export const SYMBOL_LIST_REFRESH_MS = 60_000;

/** The query keys of the catalogue. */
export const instrumentKeys = {
  groups: ['instruments', 'groups'] as const,
  symbols: ['instruments', 'symbols'] as const,
};

type Symbols = Record<string, SymbolInfo>;

const groupsQuery = queryOptions({
  queryKey: instrumentKeys.groups,
  queryFn: async (): Promise<InstrumentGroup[]> => {
    try {
      return await fetchInstrumentGroups();
    } catch (error) {
      console.error('Loading the instrument groups failed', error);
      throw error;
    }
  },
});

const symbolsQuery = queryOptions({
  queryKey: instrumentKeys.symbols,
  queryFn: async (): Promise<Symbols> => {
    try {
      const symbols: Symbols = {};
      for (const market of await fetchSymbolList()) {
        for (const s of market.lists) symbols[s.symbol] = s;
      }
      return symbols;
    } catch (error) {
      console.error('Loading the instrument list failed', error);
      throw error;
    }
  },
  // a chart shown again within the minute uses the list it has
  staleTime: SYMBOL_LIST_REFRESH_MS,
});

/** Loads the instrument groups once; concurrent callers share the request. */
export function loadInstrumentGroups(): Promise<InstrumentGroup[]> {
  return queryClient.ensureQueryData(groupsQuery);
}

/** Loads (or refreshes) the full instruments. */
export async function loadSymbolList(): Promise<void> {
  await queryClient.fetchQuery({ ...symbolsQuery, staleTime: 0 });
}

/**
 * Keeps the catalogue loaded while a chart is on screen: groups once, full instruments
 * when missing or older than a minute, and every minute while shown. Failures are logged,
 * the charts go on.
 */
export function useInstrumentCatalogue(): void {
  useQuery(groupsQuery, queryClient);
  useQuery(
    { ...symbolsQuery, refetchInterval: SYMBOL_LIST_REFRESH_MS, refetchIntervalInBackground: true },
    queryClient,
  );
}

export type CatalogueState = {
  /** Instrument groups for the selectors; null until loaded. */
  groups: InstrumentGroup[] | null;
  /** Full instruments by symbol (trading session, tick size). */
  symbols: Symbols;
};

const NO_SYMBOLS: Symbols = {};

function readCatalogue(): CatalogueState {
  return {
    groups: queryClient.getQueryData(groupsQuery.queryKey) ?? null,
    symbols: queryClient.getQueryData(symbolsQuery.queryKey) ?? NO_SYMBOLS,
  };
}

/**
 * Writes the catalogue into the cache (tests); null groups and no symbols are forgotten
 * (not loaded: the next chart loads them).
 */
function writeCatalogue(
  change: Partial<CatalogueState> | ((state: CatalogueState) => Partial<CatalogueState>),
): void {
  const next = typeof change === 'function' ? change(readCatalogue()) : change;
  if (next.groups === null) queryClient.removeQueries({ queryKey: instrumentKeys.groups });
  else if (next.groups) queryClient.setQueryData(groupsQuery.queryKey, next.groups);
  if (next.symbols && Object.keys(next.symbols).length === 0) {
    queryClient.removeQueries({ queryKey: instrumentKeys.symbols });
  } else if (next.symbols) queryClient.setQueryData(symbolsQuery.queryKey, next.symbols);
}

function subscribeCatalogue(listener: () => void): () => void {
  return queryClient.getQueryCache().subscribe(listener);
}

/**
 * The catalogue as the cache holds it, read by selector (a component re-renders when its
 * selection changes). It does not load anything: `useInstrumentCatalogue` does.
 * `getState` and `setState` read and write the same cache outside React (actions, tests).
 */
export const useInstrumentStore = Object.assign(
  function useInstrumentStore<T>(selector: (state: CatalogueState) => T): T {
    return useSyncExternalStore(subscribeCatalogue, () => selector(readCatalogue()));
  },
  { getState: readCatalogue, setState: writeCatalogue },
);

/** The full instrument of a symbol, if the instrument list has it. */
export function useSymbolInfo(symbol: string | null): SymbolInfo | undefined {
  return useInstrumentStore((s) => (symbol ? s.symbols[symbol] : undefined));
}

/** The display name of a symbol from the groups (e.g. 'Bitcoin / Tether'). */
export function useInstrumentName(symbol: string | null): string | undefined {
  return useInstrumentStore((s) => {
    if (!symbol || !s.groups) return undefined;
    for (const group of s.groups) {
      const found = group.children.find((c) => c.id === symbol);
      if (found) return found.name;
    }
    return undefined;
  });
}
