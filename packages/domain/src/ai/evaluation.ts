import type { ValidTrade } from '../backtest/contract.ts';
import { formatContractDate } from '../backtest/dates.ts';

/*
 * How an AI task judges generated code (pure): the in-sample / out-of-sample split of the
 * task's bars, and the look-ahead check that re-runs the code on data cut at several points.
 */

/** Share of the bars (oldest first) the fix loop sees; the rest is out of sample. */
export const IN_SAMPLE_FRACTION = 0.7;

/**
 * Index of the first out-of-sample bar of `count` bars: floor(count × fraction), kept within
 * 1 … count − 1 when there are at least 2 bars (each side has a bar); 0 for no bars.
 */
export function inSampleEnd(count: number, fraction: number = IN_SAMPLE_FRACTION): number {
  if (count <= 0) return 0;
  if (count === 1) return 1;
  return Math.min(count - 1, Math.max(1, Math.floor(count * fraction)));
}

/**
 * The trades that open at or after bar `from`, placed on the bars from `from` on (indexes
 * shifted), for the out-of-sample figures of a run on all bars: the strategy had the earlier
 * bars for its warm-up, but only trades it opened out of sample count there.
 */
export function tradesFrom(trades: readonly ValidTrade[], from: number): ValidTrade[] {
  return trades
    .filter((t) => t.openIndex >= from)
    .map((t) => ({
      ...t,
      openIndex: t.openIndex - from,
      closeIndex: t.closeIndex === null ? null : t.closeIndex - from,
    }));
}

/** Most runs of the look-ahead check. */
export const MAX_LOOKAHEAD_CUTS = 4;
/** A cut keeps at least this share of the bars (indicators need their warm-up). */
export const MIN_LOOKAHEAD_KEEP_FRACTION = 0.2;

/**
 * Where to cut the data for the look-ahead check, as the number of bars each run keeps:
 * right after the bar of an entry of the full run (so a decision that used a later bar loses
 * it), for up to `maxCuts` entries spread over the run. Cuts keep at least
 * MIN_LOOKAHEAD_KEEP_FRACTION of the bars and fewer than all; ascending, no repeats.
 */
export function chooseLookaheadCuts(
  entryIndexes: readonly number[],
  barCount: number,
  maxCuts: number = MAX_LOOKAHEAD_CUTS,
): number[] {
  const minKeep = Math.max(2, Math.ceil(barCount * MIN_LOOKAHEAD_KEEP_FRACTION));
  const candidates = [...new Set(entryIndexes.map((i) => i + 1))]
    .filter((keep) => keep >= minKeep && keep < barCount)
    .sort((a, b) => a - b);
  if (candidates.length <= maxCuts) return candidates;
  const picked = new Set<number>();
  for (let k = 0; k < maxCuts; k++) {
    // evenly spread, the last candidate included
    const at = Math.round(((k + 1) * (candidates.length - 1)) / maxCuts);
    const value = candidates[at];
    if (value !== undefined) picked.add(value);
  }
  return [...picked].sort((a, b) => a - b);
}

/** An entry as the check compares it: the bar it opened in and its side (1 buy, −1 sell). */
export type Entry = { index: number; side: 1 | -1 };

function entryKey(e: Entry): string {
  return `${e.index}:${e.side}`;
}

function entriesOf(trades: readonly ValidTrade[]): Entry[] {
  return trades.map((t) => ({ index: t.openIndex, side: t.lots > 0 ? 1 : -1 }));
}

/**
 * Compares the entries (open bar and side, not exits: a trade still open at the cut is no
 * alarm) of a run on the first `keep` bars with the full run's entries before bar `keep`.
 * `missing`: entries of the full run the cut run lacks; `extra`: entries only the cut run has.
 */
export function compareEntries(
  fullTrades: readonly ValidTrade[],
  cutTrades: readonly ValidTrade[],
  keep: number,
): { missing: Entry[]; extra: Entry[] } {
  const full = entriesOf(fullTrades).filter((e) => e.index < keep);
  const cut = entriesOf(cutTrades);
  const counts = new Map<string, number>();
  for (const e of cut) counts.set(entryKey(e), (counts.get(entryKey(e)) ?? 0) + 1);
  const missing: Entry[] = [];
  for (const e of full) {
    const left = counts.get(entryKey(e)) ?? 0;
    if (left > 0) counts.set(entryKey(e), left - 1);
    else missing.push(e);
  }
  const fullCounts = new Map<string, number>();
  for (const e of full) fullCounts.set(entryKey(e), (fullCounts.get(entryKey(e)) ?? 0) + 1);
  const extra: Entry[] = [];
  for (const e of cut) {
    const left = fullCounts.get(entryKey(e)) ?? 0;
    if (left > 0) fullCounts.set(entryKey(e), left - 1);
    else extra.push(e);
  }
  return { missing, extra };
}

/** One run of the look-ahead check (`backtest_result.lookahead.cuts`). */
export type LookaheadCut = {
  /** Bars the run kept (the first ones). */
  bars: number;
  /** Date of the last bar kept. */
  until: string;
  /** Entries of the full run before the cut. */
  entries: number;
  /** Entries that differ: the full run's missing from the cut run, plus the cut run's own. */
  changed: number;
  /** The run failed on the cut data (its error), else null. */
  error: string | null;
};

/** `backtest_result.lookahead`: passed when no cut changed any earlier entry. */
export type LookaheadResult = { passed: boolean; cuts: LookaheadCut[]; detail: string };

function describeEntry(e: Entry, barTimes: readonly number[]): string {
  const time = barTimes[e.index];
  const at = time === undefined ? `bar ${e.index}` : formatContractDate(time);
  return `a ${e.side === 1 ? 'buy' : 'sell'} at ${at}`;
}

/** One cut's outcome, compared or failed. */
export type CutOutcome =
  | { keep: number; ok: true; missing: Entry[]; extra: Entry[]; entries: number }
  | { keep: number; ok: false; error: string; entries: number };

/**
 * The verdict of the look-ahead check from each cut's outcome (`barTimes`: the full run's
 * bar starts, UTC ms). No cuts (too few entries) passes, and says why.
 */
export function lookaheadVerdict(
  outcomes: readonly CutOutcome[],
  barTimes: readonly number[],
): LookaheadResult {
  const until = (keep: number) => {
    const time = barTimes[keep - 1];
    return time === undefined ? '' : formatContractDate(time);
  };
  const cuts: LookaheadCut[] = outcomes.map((o) => ({
    bars: o.keep,
    until: until(o.keep),
    entries: o.entries,
    changed: o.ok ? o.missing.length + o.extra.length : 0,
    error: o.ok ? null : o.error,
  }));
  if (outcomes.length === 0) {
    return {
      passed: true,
      cuts,
      detail:
        'Look-ahead check: no entry of the full run leaves room for a cut; nothing to compare.',
    };
  }
  const problems: string[] = [];
  for (const o of outcomes) {
    if (!o.ok) {
      problems.push(`On the data up to ${until(o.keep)} the strategy failed: ${o.error}`);
      continue;
    }
    if (o.missing.length === 0 && o.extra.length === 0) continue;
    const parts: string[] = [];
    if (o.missing.length > 0) {
      parts.push(
        `the full run opens ${o.missing.map((e) => describeEntry(e, barTimes)).join(', ')}, which disappears`,
      );
    }
    if (o.extra.length > 0) {
      parts.push(
        `${o.extra.map((e) => describeEntry(e, barTimes)).join(', ')} appears that the full run does not open`,
      );
    }
    problems.push(`With the data cut after ${until(o.keep)}: ${parts.join('; ')}`);
  }
  if (problems.length === 0) {
    return {
      passed: true,
      cuts,
      detail: `Look-ahead check passed: on data cut at ${outcomes.length} point${outcomes.length === 1 ? '' : 's'} the earlier entries stay the same.`,
    };
  }
  return {
    passed: false,
    cuts,
    detail: `Look-ahead check failed: the strategy's past trades change when later bars are removed, so it uses future data. ${problems.join('. ')}.`,
  };
}
