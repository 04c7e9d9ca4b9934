import { PERCENT_DECIMALS, roundTo } from '../market/price.ts';
import { roundLots, roundMoney } from '../values/units.ts';
import { toAccountCurrency, type ConversionQuotes } from './currency.ts';
import type { Side } from './price-rules.ts';
import {
  availableVolume,
  closingPrice,
  profitLoss,
  requiredMargin,
  type ContractTerms,
} from './values.ts';

/*
 * The account's money: balance, equity, used and free margin, margin level and the total
 * floating P&L. One rule for the server's margin check, its account summary and the
 * browser, which recomputes the same figures from live quotes between server updates.
 */

/**
 * An account's open positions of one instrument and side, summed: open lots and
 * Σ lots × open price (so the average open price is notional / volume).
 */
export type ExposureLine = { symbol: string; side: Side; volume: number; notional: number };

/** Contract terms of an instrument and the currency its prices and P&L are in. */
export type ExposureTerms = ContractTerms & { currency: string };

/** What the figures need of the market: terms and a quote per symbol, conversion rates. */
export type FiguresMarket = {
  /** The instrument's terms; a symbol without terms counts for nothing. */
  terms(symbol: string): ExposureTerms | null | undefined;
  /** The quote positions are valued at; without one a line adds margin but no P&L. */
  quote(symbol: string): { bid: number; ask: number } | null | undefined;
  /** Mid prices converting instrument currencies to USD (fixed rates where missing). */
  conversion: ConversionQuotes;
};

/** The account's money in its currency (USD), 2 decimals; margin level in percent. */
export type AccountFigures = {
  balance: number;
  /** Total floating (unrealized) P&L of the open positions. */
  unrealizedPnl: number;
  /** Margin of the open positions at their open prices. */
  usedMargin: number;
  /** Balance + floating P&L. */
  equity: number;
  /** Equity − used margin (negative when the losses exceed it). */
  freeMargin: number;
  /** Equity / used margin × 100, 4 decimals; null without used margin. */
  marginLevel: number | null;
};

/** Margin and floating P&L of the lines, summed in USD before the final rounding. */
function sumLines(
  exposure: readonly ExposureLine[],
  market: FiguresMarket,
): { used: number; unrealized: number } {
  let used = 0;
  let unrealized = 0;
  for (const line of exposure) {
    const terms = market.terms(line.symbol);
    if (!terms || !(line.volume > 0)) continue;
    const averagePrice = line.notional / line.volume;
    const margin = requiredMargin(averagePrice, line.volume, terms);
    used += toAccountCurrency(margin, terms.currency, market.conversion);
    const quote = market.quote(line.symbol);
    if (!quote) continue;
    const close = closingPrice(line.side, quote);
    const pnl = profitLoss(line.side, averagePrice, close, line.volume, terms);
    unrealized += toAccountCurrency(pnl, terms.currency, market.conversion);
  }
  return { used, unrealized };
}

/**
 * The account's figures from its balance (USD) and open exposure: each line's margin at
 * its average open price and P&L at the quote's closing side (a buy at the bid, a sell at
 * the ask), each in its currency to 2 decimals, converted to USD to 2 decimals, then
 * summed. Lines without terms or volume count for nothing.
 */
export function accountFigures(
  balance: number,
  exposure: readonly ExposureLine[],
  market: FiguresMarket,
): AccountFigures {
  const { used, unrealized } = sumLines(exposure, market);
  const unrealizedPnl = roundMoney(unrealized);
  const usedMargin = roundMoney(used);
  const equity = roundMoney(balance + unrealizedPnl);
  return {
    balance,
    unrealizedPnl,
    usedMargin,
    equity,
    freeMargin: roundMoney(equity - usedMargin),
    marginLevel: marginLevelOf(equity, usedMargin),
  };
}

/** Total floating P&L of the exposure in USD, 2 decimals (accountFigures' unrealizedPnl). */
export function floatingPnlOf(exposure: readonly ExposureLine[], market: FiguresMarket): number {
  return roundMoney(sumLines(exposure, market).unrealized);
}

/** Equity / used margin × 100 in percent, 4 decimals; null when no margin is used. */
export function marginLevelOf(equity: number, usedMargin: number): number | null {
  return usedMargin > 0 ? roundTo((equity / usedMargin) * 100, PERCENT_DECIMALS) : null;
}

/** Whether a margin level (percent) is below the warning level; never without margin. */
export function isMarginLevelLow(level: number | null, warningLevel: number): boolean {
  return level !== null && level < warningLevel;
}

/** An open position as the exposure needs it. */
type OpenPosition = {
  symbol: string;
  side: Side;
  price: number;
  volume: number;
  settledVol: number;
};

/**
 * Open positions summed per symbol and side, in order of first appearance: lots not yet
 * closed (volume − settledVol) and those lots × open price. Fully closed positions add
 * nothing.
 */
export function exposureOfPositions(positions: readonly OpenPosition[]): ExposureLine[] {
  const lines = new Map<string, ExposureLine>();
  for (const position of positions) {
    const open = availableVolume(position);
    if (!(open > 0)) continue;
    const key = `${position.side}:${position.symbol}`;
    const line = lines.get(key) ?? {
      symbol: position.symbol,
      side: position.side,
      volume: 0,
      notional: 0,
    };
    line.volume = roundLots(line.volume + open);
    line.notional += open * position.price;
    lines.set(key, line);
  }
  return [...lines.values()];
}

/**
 * The exposure once a new position of `volume` lots at `price` is open: its line grows as
 * exposureOfPositions adds a position (a new line when the account had none of that symbol
 * and side). A batch of orders checks each order's margin against what the ones before it
 * opened.
 */
export function exposureWithPosition(
  exposure: readonly ExposureLine[],
  position: { symbol: string; side: Side; price: number; volume: number },
): ExposureLine[] {
  if (!(position.volume > 0)) return [...exposure];
  const added = (line: ExposureLine): ExposureLine => ({
    ...line,
    volume: roundLots(line.volume + position.volume),
    notional: line.notional + position.volume * position.price,
  });
  const at = exposure.findIndex((l) => l.symbol === position.symbol && l.side === position.side);
  if (at < 0) {
    return [
      ...exposure,
      added({ symbol: position.symbol, side: position.side, volume: 0, notional: 0 }),
    ];
  }
  return exposure.map((line, i) => (i === at ? added(line) : line));
}

/** Open lots of the positions by side (volume − settledVol), without float noise. */
export function openVolumeBySide(positions: readonly Omit<OpenPosition, 'symbol' | 'price'>[]): {
  buy: number;
  sell: number;
} {
  let buy = 0;
  let sell = 0;
  for (const position of positions) {
    const open = availableVolume(position);
    if (position.side === 'buy') buy += open;
    else sell += open;
  }
  return { buy: roundLots(buy), sell: roundLots(sell) };
}
