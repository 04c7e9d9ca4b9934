import { formatEpochSeconds, formatPrice, PNL_DECIMALS, roundTo } from '@ct/domain';

/** A TP or SL level with its instrument's decimals (see formatPrice): '—' when not set (0 or less). */
export function formatLevel(value: number, tick: number | null | undefined): string {
  return value > 0 ? formatPrice(value, tick) : '—';
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
