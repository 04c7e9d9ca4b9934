import { formatPrice } from '@ct/domain';

/** A TP or SL level with its instrument's decimals (see formatPrice): '—' when not set (0 or less). */
export function formatTriggerLevel(value: number, tick: number | null | undefined): string {
  return value > 0 ? formatPrice(value, tick) : '—';
}
