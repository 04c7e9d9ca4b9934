import {
  envelopeSchema,
  symbolCacheEntrySchema,
  symbolsToFetch,
  type PriceData,
  type SymbolCacheEntry,
} from '@ct/domain';
import { z } from 'zod';
import { create } from 'zustand';
import { http } from '../api/client';

/** A price quote (spec section 3): from the live feed or from the quote cache call. */
export type PriceQuote = {
  bid: number | null;
  ask: number | null;
  /** The latest single price; null for a quote of the cache, which has none. */
  last: number | null;
  /** Epoch ms: the message's time, or when the cache answered. */
  timestamp: number;
  source: 'realtime' | 'cache';
};

/** A symbol cache entry as the client keeps it: with a timestamp and the original record. */
export type SymbolCacheRecord = SymbolCacheEntry & { timestamp: number; raw: unknown };

type QuoteState = { quotes: Record<string, PriceQuote> };

/**
 * Quotes by symbol. Written at most every `priceUpdateDelay` ms for all symbols at once;
 * read it with a selector (`useQuote`) so a component re-renders for its own symbol only.
 */
export const useQuoteStore = create<QuoteState>(() => ({ quotes: {} }));

/** The quote of one symbol (undefined until a live message or the cache gave one). */
export function useQuote(symbol: string | null | undefined): PriceQuote | undefined {
  return useQuoteStore((s) => (symbol ? s.quotes[symbol] : undefined));
}

export function getQuote(symbol: string): PriceQuote | undefined {
  return useQuoteStore.getState().quotes[symbol];
}

// How many live writes each symbol's quote has had: a cache answer asked for after a
// subscription began is kept only if no live quote came meanwhile (see refreshQuoteCache).
const liveWrites = new Map<string, number>();

/** Writes the newest live price data of several symbols in one store update. */
export function applyRealtimeQuotes(updates: ReadonlyMap<string, PriceData>): void {
  if (updates.size === 0) return;
  for (const symbol of updates.keys()) liveWrites.set(symbol, (liveWrites.get(symbol) ?? 0) + 1);
  useQuoteStore.setState((s) => {
    const quotes = { ...s.quotes };
    for (const [symbol, price] of updates) {
      quotes[symbol] = {
        bid: price.bid,
        ask: price.ask,
        last: price.last,
        timestamp: price.timestamp,
        source: 'realtime',
      };
    }
    return { quotes };
  });
}

const symbolCache = new Map<string, SymbolCacheRecord>();
const inFlight = new Set<string>();
// Symbols (re)subscribed while a cache call for them was out: that call's answer may predate
// the subscription, so they are asked again once it ends.
const refreshAfter = new Set<string>();

/** The cached record of a symbol, if the quote cache answered for it. */
export function getSymbolCacheRecord(symbol: string): SymbolCacheRecord | undefined {
  return symbolCache.get(symbol);
}

const cacheAnswerSchema = envelopeSchema(z.object({ caches: z.array(z.unknown()) }).loose());

/**
 * Fetches bid and ask of symbols without a live quote (POST /trading/symbol/cache,
 * comma-joined), skipping symbols already cached or being fetched. A symbol that got a
 * live quote meanwhile keeps it. Failures are logged: live messages fill the quote later.
 */
export async function fetchQuoteCache(
  requested: readonly string[],
  now: () => number = Date.now,
): Promise<void> {
  const symbols = symbolsToFetch(requested, new Set(symbolCache.keys()), inFlight);
  await askQuoteCache(symbols, now, (symbol, quotes) => quotes[symbol]?.source !== 'realtime');
}

/**
 * Asks the quote cache again for symbols whose live channel has just been (re)subscribed:
 * a quote published before the subscription began and after the first cache answer (while
 * the connection was still opening, or between a reconnect's two connections) reaches this
 * page through no channel, and a market that does not move again would keep showing the
 * older price. The answer replaces a live quote unless another live quote came since the
 * call was made (that one is at least as new).
 */
export async function refreshQuoteCache(
  requested: readonly string[],
  now: () => number = Date.now,
): Promise<void> {
  for (const symbol of requested) if (inFlight.has(symbol)) refreshAfter.add(symbol);
  const symbols = requested.filter((symbol) => !inFlight.has(symbol));
  const writesBefore = new Map(symbols.map((symbol) => [symbol, liveWrites.get(symbol) ?? 0]));
  await askQuoteCache(
    symbols,
    now,
    (symbol) => (liveWrites.get(symbol) ?? 0) === writesBefore.get(symbol),
  );
}

async function askQuoteCache(
  symbols: readonly string[],
  now: () => number,
  keep: (symbol: string, quotes: Record<string, PriceQuote>) => boolean,
): Promise<void> {
  if (symbols.length === 0) return;
  for (const symbol of symbols) inFlight.add(symbol);
  try {
    const answer = await http.post(
      '/trading/symbol/cache',
      { channel: 1, device: 1, symbols: symbols.join(',') },
      { schema: cacheAnswerSchema },
    );
    if (answer.code !== 0) throw new Error(answer.msg);
    const timestamp = now();
    const fresh: Record<string, PriceQuote> = {};
    for (const raw of answer.data.caches) {
      const parsed = symbolCacheEntrySchema.safeParse(raw);
      if (!parsed.success || !inFlight.has(parsed.data.symbol)) continue;
      symbolCache.set(parsed.data.symbol, { ...parsed.data, timestamp, raw });
      fresh[parsed.data.symbol] = {
        bid: parsed.data.bid,
        ask: parsed.data.ask,
        last: null,
        timestamp,
        source: 'cache',
      };
    }
    useQuoteStore.setState((s) => {
      const quotes = { ...s.quotes };
      for (const [symbol, quote] of Object.entries(fresh)) {
        if (keep(symbol, quotes)) quotes[symbol] = quote;
      }
      return { quotes };
    });
  } catch (error) {
    console.warn('Quote cache request failed', error);
  } finally {
    for (const symbol of symbols) inFlight.delete(symbol);
    const again = symbols.filter((symbol) => refreshAfter.delete(symbol));
    if (again.length > 0) void refreshQuoteCache(again, now);
  }
}

/** Forgets everything known about a symbol's price (its last live holder left). */
export function clearQuote(symbol: string): void {
  symbolCache.delete(symbol);
  inFlight.delete(symbol);
  refreshAfter.delete(symbol);
  liveWrites.delete(symbol);
  if (!(symbol in useQuoteStore.getState().quotes)) return;
  useQuoteStore.setState((s) => {
    const { [symbol]: _removed, ...quotes } = s.quotes;
    return { quotes };
  });
}

/** Test helper: forgets every quote and cache record. */
export function resetQuotes(): void {
  symbolCache.clear();
  inFlight.clear();
  refreshAfter.clear();
  liveWrites.clear();
  useQuoteStore.setState({ quotes: {} });
}
