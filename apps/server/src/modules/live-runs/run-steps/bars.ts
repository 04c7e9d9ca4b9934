import { bucketStart, nextBucketStart, type Period } from '@ct/domain';
import type { ClosedBar, HeldRun, LiveRunnerOptions } from './deps.ts';

/* The bars step: whether a bar of the run closed since its last evaluation, and its window. */

/**
 * The newest closed bar the run has not evaluated, with the window before it; or null.
 * Called on every tick of the run's instrument: the bars are read only once a new bar
 * has begun since the last one evaluated (and once per bar while none closed, e.g. a
 * closed market).
 */
export function closedBar(
  { market, now, settings }: Pick<LiveRunnerOptions, 'market' | 'now' | 'settings'>,
  run: HeldRun,
): ClosedBar | null {
  const row = run.row;
  const period = row.period as Period;
  const nowMs = now();
  const current = bucketStart(period, nowMs);
  if (current <= row.startBarTime) return null;
  if (row.lastBarTime !== null && current <= nextBucketStart(period, row.lastBarTime)) {
    return null;
  }
  if (run.lookedAt === current) return null;
  const bars = market.bars(row.symbol, period, current, settings.windowBars, nowMs);
  const last = bars.at(-1);
  if (
    !last ||
    last.time < row.startBarTime ||
    (row.lastBarTime !== null && last.time <= row.lastBarTime)
  ) {
    run.lookedAt = current;
    return null;
  }
  return { bars, closeMs: Math.min(nextBucketStart(period, last.time), current) };
}
