import { type InstrumentGroup, type SymbolInfo } from '@ct/domain';
import { useEffect } from 'react';
import { create } from 'zustand';
import { fetchInstrumentGroups, fetchSymbolList } from './api';

type CatalogueState = {
  /** Instrument groups for the selectors; null until loaded. */
  groups: InstrumentGroup[] | null;
  /** Full instruments by symbol (trading session, tick size). */
  symbols: Record<string, SymbolInfo>;
};

export const useInstrumentStore = create<CatalogueState>(() => ({ groups: null, symbols: {} }));

/** How often the trading state (`is_trading`) of instruments is refreshed. */
export const SYMBOL_LIST_REFRESH_MS = 60_000;

let groupsRequest: Promise<InstrumentGroup[]> | null = null;
let listRequest: Promise<void> | null = null;

/** Loads the instrument groups once; concurrent callers share the request. */
export function loadInstrumentGroups(): Promise<InstrumentGroup[]> {
  const known = useInstrumentStore.getState().groups;
  if (known) return Promise.resolve(known);
  groupsRequest ??= fetchInstrumentGroups()
    .then((groups) => {
      useInstrumentStore.setState({ groups });
      return groups;
    })
    .finally(() => {
      groupsRequest = null;
    });
  return groupsRequest;
}

/** Loads (or refreshes) the full instruments. */
export function loadSymbolList(): Promise<void> {
  listRequest ??= fetchSymbolList()
    .then((markets) => {
      const symbols: Record<string, SymbolInfo> = {};
      for (const market of markets) for (const s of market.lists) symbols[s.symbol] = s;
      useInstrumentStore.setState({ symbols });
    })
    .finally(() => {
      listRequest = null;
    });
  return listRequest;
}

let users = 0;
let refreshTimer: ReturnType<typeof setInterval> | null = null;

/**
 * Keeps the catalogue loaded while a chart is on screen: groups once, full instruments
 * now and every minute (markets open and close). Failures are logged, the charts go on.
 */
export function useInstrumentCatalogue(): void {
  useEffect(() => {
    users += 1;
    loadInstrumentGroups().catch((error: unknown) =>
      console.error('Loading the instrument groups failed', error),
    );
    const refresh = () =>
      loadSymbolList().catch((error: unknown) =>
        console.error('Loading the instrument list failed', error),
      );
    if (users === 1) {
      void refresh();
      refreshTimer = setInterval(refresh, SYMBOL_LIST_REFRESH_MS);
    }
    return () => {
      users -= 1;
      if (users === 0 && refreshTimer !== null) {
        clearInterval(refreshTimer);
        refreshTimer = null;
      }
    };
  }, []);
}

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
