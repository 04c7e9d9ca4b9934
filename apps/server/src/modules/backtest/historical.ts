import {
  barsFromHistorical,
  inferPeriod,
  type Bar,
  type HistoricalData,
  type Period,
} from '@ct/domain';

/*
 * A backtest body's `historical_data` (rows or columns) turned into bars. A large body's are
 * turned in its body worker (workers/body-worker.ts), next to its parsing and validation: the
 * body the route gets then holds, in place of each `historical_data`, an array of the same
 * length without rows, registered here with the worker's bars (or refusal) and the period
 * they suggest. Callers ask `historicalBarsOf` either way and get exactly what
 * `barsFromHistorical` answers, in the same order of checks as before.
 */

export type ConvertedRows = ReturnType<typeof barsFromHistorical>;

type Prepared = { converted: ConvertedRows; period: Period | null };

const prepared = new WeakMap<HistoricalData, Prepared>();

/** The bars of `rows` (barsFromHistorical), or what a body worker already made of them. */
export function historicalBarsOf(rows: HistoricalData): ConvertedRows {
  return prepared.get(rows)?.converted ?? barsFromHistorical(rows);
}

/** The period `bars` suggest (inferPeriod of their starts), from the worker when it knows it. */
export function inferredPeriodOf(rows: HistoricalData, bars: readonly Bar[]): Period | null {
  const known = prepared.get(rows);
  if (known && known.converted.ok && known.converted.bars === bars) return known.period;
  return inferPeriod(bars.map((bar) => bar.time));
}

/** A stand-in for `length` rows a body worker turned into `converted` (no rows held). */
export function preparedRows(
  length: number,
  converted: ConvertedRows,
  period: Period | null,
): unknown[] {
  const rows = new Array<unknown>(length);
  prepared.set(rows, { converted, period });
  return rows;
}
