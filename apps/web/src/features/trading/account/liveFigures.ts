import {
  accountFigures,
  CONVERSION_PAIRS,
  isMarginLevelLow,
  sideOfCmd,
  type AccountExposure,
  type AccountFigures,
  type AccountSummary,
  type ConversionQuotes,
  type FiguresMarket,
} from '@ct/domain';
import { useShallow } from 'zustand/react/shallow';
import type { PriceQuote } from '../../../realtime/quotes';
import { useFollowPositionQuotes, usePositionQuoteStore, useWatchSymbols } from '../positionQuotes';

/** Live quotes by symbol (bid and ask may be missing). */
export type LiveQuotes = Readonly<Record<string, PriceQuote | undefined>>;

/** A quote with both sides, or null. */
function twoSided(quote: PriceQuote | undefined): { bid: number; ask: number } | null {
  return quote && quote.bid !== null && quote.ask !== null
    ? { bid: quote.bid, ask: quote.ask }
    : null;
}

/** The conversion pairs the exposure's currencies need (USDJPY for yen, EURUSD for euros). */
export function conversionPairsOf(exposure: readonly AccountExposure[]): string[] {
  const pairs = new Set<string>();
  for (const line of exposure) {
    const pair = CONVERSION_PAIRS[line.currency];
    if (pair) pairs.add(pair);
  }
  return [...pairs];
}

/** The symbols whose quotes move the summary's figures: its instruments and conversion pairs. */
export function symbolsOf(summary: AccountSummary | undefined): string[] {
  if (!summary) return [];
  return [
    ...new Set([...summary.exposure.map((l) => l.symbol), ...conversionPairsOf(summary.exposure)]),
  ];
}

/**
 * The market of the summary with live quotes where the browser has them: an instrument's
 * live bid and ask, else the quote the server valued it at; a conversion pair's live mid,
 * else the rate the server used.
 */
export function liveMarket(summary: AccountSummary, quotes: LiveQuotes): FiguresMarket {
  const lines = new Map(summary.exposure.map((line) => [line.symbol, line]));
  const conversion: ConversionQuotes = {};
  for (const pair of ['USDJPY', 'EURUSD'] as const) {
    const live = twoSided(quotes[pair]);
    conversion[pair] = live ? (live.bid + live.ask) / 2 : summary.conversion[pair];
  }
  return {
    terms: (symbol) => lines.get(symbol),
    quote: (symbol) => {
      const live = twoSided(quotes[symbol]);
      if (live) return live;
      const line = lines.get(symbol);
      return line && line.bid !== null && line.ask !== null
        ? { bid: line.bid, ask: line.ask }
        : null;
    },
    conversion,
  };
}

/** The account's figures now: the summary's balance and exposure at the live quotes. */
export type LiveFigures = AccountFigures & {
  currency: string;
  marginWarningLevel: number;
  /** The margin level is below the configured warning level. */
  marginWarning: boolean;
};

/**
 * The summary's figures recomputed with live quotes, by the server's own rule
 * (accountFigures): the balance and used margin change only with a new answer; equity,
 * free margin, margin level and floating P&L follow the quotes.
 */
export function liveFigures(summary: AccountSummary, quotes: LiveQuotes): LiveFigures {
  const exposure = summary.exposure.map((line) => ({ ...line, side: sideOfCmd(line.cmd) }));
  const figures = accountFigures(summary.balance, exposure, liveMarket(summary, quotes));
  return {
    ...figures,
    currency: summary.currency,
    marginWarningLevel: summary.marginWarningLevel,
    marginWarning: isMarginLevelLow(figures.marginLevel, summary.marginWarningLevel),
  };
}

/**
 * The live figures of a summary while mounted: its instruments and conversion pairs are
 * watched, and the figures follow their quotes (at most every 100 ms, as position rows do).
 */
export function useLiveFigures(summary: AccountSummary | undefined): LiveFigures | null {
  const symbols = symbolsOf(summary);
  useWatchSymbols(symbols);
  useFollowPositionQuotes();
  const quotes = usePositionQuoteStore(useShallow((s) => symbols.map((sym) => s.quotes[sym])));
  if (!summary) return null;
  return liveFigures(summary, Object.fromEntries(symbols.map((symbol, i) => [symbol, quotes[i]])));
}
