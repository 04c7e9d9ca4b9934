import { PERCENT_DECIMALS, PNL_DECIMALS, roundTo } from '@ct/domain';

const money = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: PNL_DECIMALS,
  maximumFractionDigits: PNL_DECIMALS,
});

const percent = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: PERCENT_DECIMALS,
  maximumFractionDigits: PERCENT_DECIMALS,
});

/** An amount of the account with 2 decimals and thousands separators: '100,945.00'. */
export function formatAmount(value: number): string {
  // roundTo first: -0.001 shows 0.00, not -0.00
  return money.format(roundTo(value, PNL_DECIMALS) || 0);
}

/** A P&L amount with its sign: '+950.00', '-1,200.50', '0.00'. */
export function formatSignedAmount(value: number): string {
  const text = formatAmount(value);
  return value > 0 && text !== '0.00' ? `+${text}` : text;
}

/** A margin level in percent with the spec's 4 decimals, without the sign: '1,009.1977'. */
export function formatLevel(value: number): string {
  return percent.format(roundTo(value, PERCENT_DECIMALS) || 0);
}

/** A configured warning level as written: 100 → '100', 87.5 → '87.5'. */
export function formatWarningLevel(value: number): string {
  return String(roundTo(value, PERCENT_DECIMALS));
}
