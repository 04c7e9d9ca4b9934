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
