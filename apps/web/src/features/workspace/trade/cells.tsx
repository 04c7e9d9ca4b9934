import { closingPrice, floatingProfit, formatMoney, formatPrice, sideOfCmd } from '@ct/domain';
import { useState } from 'react';
import { useSymbolInfo } from '../../../market/instruments';
import { SideText, formatTriggerLevel, isTargetAccount, usePositionQuote } from '../../trading';
import type { PositionRow } from './types';

/* The cells of the trade tables that do more than format a value. */

/** A row's side, in the chosen language. */
export const SideCell = SideText;

export function PnlText({ value }: { value: number }) {
  return (
    <span className={value >= 0 ? 'num pnl-up' : 'num pnl-down'}>
      {formatMoney(value, { signed: true })}
    </span>
  );
}

/** The tick a price of `symbol` is shown with; undefined (4 decimals) while it is unknown. */
function usePriceTick(symbol: string): number | undefined {
  return useSymbolInfo(symbol)?.min_price_tick;
}

/** A price with its instrument's decimals. */
export function PriceCell({ symbol, value }: { symbol: string; value: number }) {
  return <span className="num">{formatPrice(value, usePriceTick(symbol))}</span>;
}

/** A TP or SL level, '—' when not set. */
export function LevelCell({ symbol, value }: { symbol: string; value: number }) {
  return <span className="num">{formatTriggerLevel(value, usePriceTick(symbol))}</span>;
}

/** Flashes a changed value in its direction (background only: the row never moves). */
function useFlash(value: number): 'up' | 'down' | null {
  const [previous, setPrevious] = useState(value);
  const [direction, setDirection] = useState<'up' | 'down' | null>(null);
  if (value !== previous) {
    setPrevious(value);
    setDirection(value > previous ? 'up' : 'down');
  }
  return direction;
}

/** The live figures of a position row: market price (closing side) and unrealized P&L. */
function useLivePosition(row: PositionRow) {
  const info = useSymbolInfo(row.symbol);
  const quote = usePositionQuote(row.symbol);
  const side = sideOfCmd(row.cmd);
  // a replay's row carries the replay's own figures: live quotes are not its prices
  if (isTargetAccount(row.uuid) || !quote || quote.bid === null || quote.ask === null) {
    return { tick: info?.min_price_tick, market: row.marketPrice, profit: row.floatProfit };
  }
  const live = { bid: quote.bid, ask: quote.ask };
  const profit = info
    ? floatingProfit(
        { side, price: row.price, volume: row.volume, settledVol: row.settledVol },
        live,
        info,
      )
    : row.floatProfit;
  return { tick: info?.min_price_tick, market: closingPrice(side, live), profit };
}

export function MarketPriceCell({ row }: { row: PositionRow }) {
  const { tick, market } = useLivePosition(row);
  const flash = useFlash(market);
  return (
    <span key={market} className={`num live-price${flash ? ` flash-${flash}` : ''}`}>
      {formatPrice(market, tick)}
    </span>
  );
}

export function FloatingPnlCell({ row }: { row: PositionRow }) {
  const { profit } = useLivePosition(row);
  return <PnlText value={profit} />;
}
