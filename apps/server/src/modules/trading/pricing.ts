import {
  CONVERSION_PAIRS,
  TRADING_MESSAGES,
  toAccountCurrency,
  type ConversionQuotes,
  type SimQuote,
} from '@ct/domain';
import { NotFoundError } from '../../http/errors.ts';
import type { CatalogueInstrument } from '../market/catalogue.ts';
import type { MarketData } from '../market/market-data.ts';
import type { TradingContext } from './context.ts';

/** The catalogue instrument of a symbol; an unknown symbol is a 404 with the rule's message. */
export function requireInstrument(market: MarketData, symbol: string): CatalogueInstrument {
  const instrument = market.instrument(symbol);
  if (!instrument) throw new NotFoundError(TRADING_MESSAGES.unknownSymbol(symbol));
  return instrument;
}

/**
 * The quote an order fills at (and a pending order's price is checked against): the one the
 * feed last published to clients, not the simulator's quote recomputed at `now`, so nobody
 * is filled at a price no screen showed. Null while the instrument's market is closed or
 * before its first published tick.
 */
export function liveQuote(ctx: TradingContext, symbol: string, now: number): SimQuote | null {
  return ctx.market.isTrading(symbol, now) ? ctx.feed.latestQuote(symbol) : null;
}

/** The price a position is valued at now: the live quote, or the last one while closed. */
export function markQuote(market: MarketData, symbol: string, now: number): SimQuote | null {
  return market.lastQuoteAt(symbol, now);
}

function mid(quote: SimQuote | null): number | null {
  return quote ? (quote.bid + quote.ask) / 2 : null;
}

/** Mid prices of the conversion pairs (USDJPY, EURUSD) at `now`, live or last. */
export function conversionQuotes(market: MarketData, now: number): ConversionQuotes {
  const quotes: ConversionQuotes = {};
  for (const pair of Object.values(CONVERSION_PAIRS)) {
    quotes[pair] = mid(market.lastQuoteAt(pair, now));
  }
  return quotes;
}

/** Converts an amount of an instrument currency to the account currency (USD), 2 decimals. */
export function toUsd(
  market: MarketData,
  now: number,
  amount: number,
  currency: string,
  quotes?: ConversionQuotes,
): number {
  if (currency === 'USD') return toAccountCurrency(amount, currency);
  return toAccountCurrency(amount, currency, quotes ?? conversionQuotes(market, now));
}
