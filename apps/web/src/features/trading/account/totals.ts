import {
  ACCOUNT_CURRENCY,
  exposureOfPositions,
  floatingPnlOf,
  openVolumeBySide,
  roundMoney,
  sideOfCmd,
  toAccountCurrency,
  type ConversionQuotes,
  type ExposureTerms,
  type PositionView,
} from '@ct/domain';
import { useShallow } from 'zustand/react/shallow';
import { useInstrumentStore } from '../../../market/instruments';
import { usePositionQuoteStore } from '../positionQuotes';
import type { LiveQuotes } from './liveFigures';
import { useAccountSummary } from './summary';

/** The totals of the open positions: lots by side and the floating P&L in USD. */
export type PositionTotals = { buy: number; sell: number; floatingPnl: number; currency: string };

/**
 * Totals of the positions on screen. With every symbol's terms and live quote, the floating
 * P&L is the account figures' (floatingPnlOf: the bar's rule, so both show one number);
 * until then it is the sum of the rows' own P&L as the server valued them, converted to USD.
 * Conversion rates: live mids, else the ones of the account's last summary, else the fixed
 * table.
 */
export function positionTotals(
  rows: readonly PositionView[],
  terms: Readonly<Record<string, ExposureTerms | undefined>>,
  quotes: LiveQuotes,
  conversion: ConversionQuotes,
): PositionTotals {
  const positions = rows.map((row) => ({ ...row, side: sideOfCmd(row.cmd) }));
  const volumes = openVolumeBySide(positions);
  const live = (symbol: string) => {
    const q = quotes[symbol];
    return q && q.bid !== null && q.ask !== null ? { bid: q.bid, ask: q.ask } : null;
  };
  const complete = rows.every((row) => terms[row.symbol] && live(row.symbol));
  const floatingPnl = complete
    ? floatingPnlOf(exposureOfPositions(positions), {
        terms: (symbol) => terms[symbol],
        quote: live,
        conversion,
      })
    : roundMoney(
        rows.reduce(
          (sum, row) => sum + toAccountCurrency(row.floatProfit, row.currency, conversion),
          0,
        ),
      );
  return { ...volumes, floatingPnl, currency: ACCOUNT_CURRENCY };
}

function mid(quote: LiveQuotes[string]): number | null {
  return quote && quote.bid !== null && quote.ask !== null ? (quote.bid + quote.ask) / 2 : null;
}

/** The totals of `rows` following the live quotes (the position rows' debounced copy). */
export function usePositionTotals(rows: readonly PositionView[]): PositionTotals {
  const symbols = [...new Set([...rows.map((row) => row.symbol), 'USDJPY', 'EURUSD'])];
  const quoteList = usePositionQuoteStore(useShallow((s) => symbols.map((sym) => s.quotes[sym])));
  const catalogue = useInstrumentStore((s) => s.symbols);
  // the account's summary: the same cached query the account bar shows
  const { summary } = useAccountSummary();
  const quotes = Object.fromEntries(symbols.map((symbol, i) => [symbol, quoteList[i]]));
  const conversion: ConversionQuotes = {
    USDJPY: mid(quotes.USDJPY) ?? summary?.conversion.USDJPY ?? null,
    EURUSD: mid(quotes.EURUSD) ?? summary?.conversion.EURUSD ?? null,
  };
  return positionTotals(rows, catalogue ?? {}, quotes, conversion);
}
