/*
 * SQL of the trading venue, one module per aggregate (accounts, positions, pending orders,
 * history). Every function takes a database or a transaction; the use cases run their
 * changes in one transaction that starts by locking the account row (lockAccount), so
 * changes of one account never interleave, on PGlite and PostgreSQL alike. Status changes
 * are conditional updates (`… WHERE status = 'open' AND version = v`) as a second guard.
 * Numeric columns arrive as strings and leave here as numbers.
 */

/** A numeric column's text as a number (null: 0). */
export const num = (value: string | null): number => (value === null ? 0 : Number(value));
/** Numbers go into numeric columns as text, so nothing is lost on the way. */
export const dec = (value: number): string => String(value);

/**
 * Row ids as one PostgreSQL array literal (`{1,2,3}`), for `= any($n::bigint[])`: one
 * parameter, so the statement's text is the same however many ids it reads.
 */
export function idArray(ids: readonly number[]): string {
  return `{${ids.map((id) => String(Math.trunc(id))).join(',')}}`;
}
