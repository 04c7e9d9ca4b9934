import { roundMoney } from '../values/units.ts';

/** Every trading account keeps its balance in US dollars. */
export const ACCOUNT_CURRENCY = 'USD';

/**
 * Starting balance of a paper account by account level (1, 2, 3 and above), in USD.
 */
export const STARTING_BALANCE_BY_LEVEL: readonly number[] = [100_000, 250_000, 1_000_000];

/** The starting balance of an account of `level` (levels below 1 count as 1). */
export function startingBalance(level: number): number {
  const index = Math.min(STARTING_BALANCE_BY_LEVEL.length, Math.max(1, Math.trunc(level))) - 1;
  return STARTING_BALANCE_BY_LEVEL[index] ?? 100_000;
}

/**
 * USD per unit of a currency when no live quote gives it. CNY has no quoted pair in the
 * catalogue and always uses this table; JPY and EUR use it only before their pair
 * (USDJPY, EURUSD) has ever quoted.
 */
export const FIXED_USD_RATES: Readonly<Record<string, number>> = {
  USD: 1,
  JPY: 1 / 150,
  EUR: 1.08,
  CNY: 1 / 7.2,
};

/** Mid prices of the pairs that convert instrument currencies to USD, when known. */
export type ConversionQuotes = { USDJPY?: number | null; EURUSD?: number | null };

/** The pair whose quote converts `currency` to USD, if the catalogue has one. */
export const CONVERSION_PAIRS: Readonly<Record<string, keyof ConversionQuotes>> = {
  JPY: 'USDJPY',
  EUR: 'EURUSD',
};

/**
 * USD per one unit of `currency`: 1 for USD, 1 / USDJPY for JPY, EURUSD for EUR (mid
 * prices), the fixed table otherwise. Throws for a currency with no rate at all.
 */
export function usdPerUnit(currency: string, quotes: ConversionQuotes = {}): number {
  if (currency === 'USD') return 1;
  if (currency === 'JPY' && quotes.USDJPY && quotes.USDJPY > 0) return 1 / quotes.USDJPY;
  if (currency === 'EUR' && quotes.EURUSD && quotes.EURUSD > 0) return quotes.EURUSD;
  const fixed = FIXED_USD_RATES[currency];
  if (fixed === undefined) throw new Error(`No conversion rate for ${currency}`);
  return fixed;
}

/** An amount of `currency` in the account currency (USD), 2 decimals. */
export function toAccountCurrency(
  amount: number,
  currency: string,
  quotes: ConversionQuotes = {},
): number {
  return roundMoney(amount * usdPerUnit(currency, quotes));
}
