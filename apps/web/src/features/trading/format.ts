import {
  DEFAULT_TICK,
  formatEpochSeconds,
  PNL_DECIMALS,
  PRICE_DECIMALS,
  roundTo,
  tickDecimals,
  type SymbolInfo,
} from '@ct/domain';

/** Tick size of an instrument (spec default 0.01 when unknown). */
export function tickOfInfo(info: SymbolInfo | undefined): number {
  return info && info.min_price_tick > 0 ? info.min_price_tick : DEFAULT_TICK;
}

/** Decimals a price is shown with: the tick's, at most 4 (spec section 9). */
export function priceDecimals(tick: number): number {
  return Math.min(tickDecimals(tick), PRICE_DECIMALS);
}

/** A price with the instrument's decimals; '—' for a missing price. */
export function formatPriceOf(value: number | null | undefined, tick: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toFixed(priceDecimals(tick));
}

/** A TP or SL level: '—' when not set (0 or less). */
export function formatLevel(value: number, tick: number): string {
  return value > 0 ? formatPriceOf(value, tick) : '—';
}

/** A quantity without float noise (0.1 + 0.2 shows 0.3). */
export function formatQuantity(value: number): string {
  return String(roundTo(value, 8));
}

/** Money (P&L, commission) with 2 decimals (spec section 9). */
export function formatMoney(value: number): string {
  return roundTo(value, PNL_DECIMALS).toFixed(PNL_DECIMALS);
}

/** P&L with its sign, 2 decimals: '+12.30', '-4.00', '0.00'. */
export function formatPnl(value: number): string {
  const text = formatMoney(value);
  return value > 0 && text !== '0.00' ? `+${text}` : text;
}

/** Epoch seconds as local date and time. */
export function formatTime(seconds: number): string {
  return formatEpochSeconds(seconds);
}
