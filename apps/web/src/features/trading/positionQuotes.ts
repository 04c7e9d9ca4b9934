import { useEffect } from 'react';
import { create } from 'zustand';
import { useQuoteStore, type PriceQuote } from '../../realtime/quotes';
import { watchSymbol } from '../../realtime/live';

/** Position prices follow the quotes at most this often (spec section 9). */
export const POSITION_PRICE_DEBOUNCE_MS = 100;

/**
 * The quotes the position rows show: a copy of the live quote store written at most every
 * 100 ms. Rows read it by symbol, so a row re-renders when its own instrument's price
 * changed, and the table itself never does for a tick.
 */
export const usePositionQuoteStore = create<{ quotes: Record<string, PriceQuote> }>(() => ({
  quotes: useQuoteStore.getState().quotes,
}));

let followers = 0;
let stopFollowing: (() => void) | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

function flush(): void {
  timer = null;
  usePositionQuoteStore.setState({ quotes: useQuoteStore.getState().quotes });
}

function follow(): () => void {
  followers += 1;
  if (followers === 1) {
    flush();
    stopFollowing = useQuoteStore.subscribe(() => {
      timer ??= setTimeout(flush, POSITION_PRICE_DEBOUNCE_MS);
    });
  }
  return () => {
    followers -= 1;
    if (followers > 0) return;
    stopFollowing?.();
    stopFollowing = null;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
}

/** Keeps the position quotes following the live quotes while mounted. */
export function useFollowPositionQuotes(): void {
  useEffect(() => follow(), []);
}

/** The debounced quote of one symbol. */
export function usePositionQuote(symbol: string): PriceQuote | undefined {
  return usePositionQuoteStore((s) => s.quotes[symbol]);
}

/**
 * Watches the live prices of these symbols while mounted (reference-counted per symbol,
 * so instruments shared with a chart are not subscribed twice).
 */
export function useWatchSymbols(symbols: readonly string[]): void {
  const key = [...new Set(symbols)].sort().join(',');
  useEffect(() => {
    if (!key) return;
    const releases = key.split(',').map((symbol) => watchSymbol(symbol));
    return () => {
      for (const release of releases) release();
    };
  }, [key]);
}
