import { LOT_DECIMALS, PNL_DECIMALS, roundTo } from '../market/price.ts';

/*
 * Branded numbers: a price, a quantity in lots, an amount of money and the two clocks the
 * product speaks (epoch milliseconds inside, epoch seconds in answers and the spec's
 * fields) are all `number` at run time, and one passed for the other type-checks silently.
 * A brand makes the type say which it is where a mix-up is possible; it costs nothing at run
 * time. A plain number is still accepted where a value is made (`toEpochSec(Date.now())`).
 */

declare const unit: unique symbol;

/** A number that says what it measures; still a number for arithmetic and display. */
export type Branded<U extends string> = number & { readonly [unit]: U };

/** A price on an instrument's tick grid, in its quote currency. */
export type Price = Branded<'Price'>;
/** A quantity in lots (standard lots), on its step, at most 8 decimals. */
export type Lots = Branded<'Lots'>;
/** An amount of money, 2 decimals. */
export type Money = Branded<'Money'>;
/** A moment as milliseconds since 1970-01-01 UTC: the server's clock, stored times, bars. */
export type EpochMs = Branded<'EpochMs'>;
/** A moment as whole seconds since 1970-01-01 UTC: the times of answers and the spec. */
export type EpochSec = Branded<'EpochSec'>;

/** A number that says no unit: what a plain `number` is (a request's field, a stored column). */
type Unbranded = number & { readonly [unit]?: undefined };

/**
 * A `B`, or a plain number, but never a number branded as another unit: the parameter type of
 * rules that take a price, lots or money (`profitLoss(side, open, close, lots, terms)` refuses
 * lots where a price goes), while callers holding plain numbers pass them as they are.
 */
export type Of<B extends Branded<string>> = B | Unbranded;

/** Lots without float residue, at most LOT_DECIMALS decimals (0.1 + 0.2 lots is 0.3 lots). */
export function roundLots(lots: Of<Lots>): Lots {
  return roundTo(lots, LOT_DECIMALS) as Lots;
}

/** Money rounded to PNL_DECIMALS (2) decimals, half away from zero. */
export function roundMoney(amount: Of<Money>): Money {
  return roundTo(amount, PNL_DECIMALS) as Money;
}

/** A number read as a price (a quote's bid or ask, a request's or a stored price); unchanged. */
export function asPrice(price: Of<Price>): Price {
  return price as Price;
}

/** A number read as lots (a quantity already on its step); unchanged. */
export function asLots(lots: Of<Lots>): Lots {
  return lots as Lots;
}

/** `T`, unless it is already known to be `B`: the conversions refuse what is in the other unit. */
type Not<T, B> = T extends B ? never : T;

/** Epoch milliseconds as whole epoch seconds (rounded down). Refuses a value already in seconds. */
export function toEpochSec<T extends number>(ms: Not<T, EpochSec>): EpochSec {
  return Math.floor(ms / 1000) as EpochSec;
}

/** Epoch seconds as epoch milliseconds. Refuses a value already in milliseconds. */
export function toEpochMs<T extends number>(seconds: Not<T, EpochMs>): EpochMs {
  return (seconds * 1000) as EpochMs;
}
