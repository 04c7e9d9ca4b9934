import { formatPercent } from '@ct/domain';

/** A volume kept short: 950, 12.5K, 3.2M, 1.1B. */
export function formatVolume(value: number): string {
  const abs = Math.abs(value);
  const short = (n: number, unit: string) => `${Number(n.toFixed(n < 10 ? 2 : 1))}${unit}`;
  if (abs >= 1e9) return short(value / 1e9, 'B');
  if (abs >= 1e6) return short(value / 1e6, 'M');
  if (abs >= 1e4) return short(value / 1e3, 'K');
  return String(Number(value.toFixed(abs >= 100 ? 0 : 2)));
}

/** Change from the previous close in percent with a sign, e.g. '+0.42%'; '' without one. */
export function formatChange(close: number, previousClose: number | null): string {
  if (previousClose === null || previousClose === 0) return '';
  // a change that rounds to zero has no sign ('−0.00%' reads as a fall); a fall shows '−'
  return formatPercent((close - previousClose) / previousClose, 'fraction', {
    signed: true,
  }).replace('-', '−');
}
