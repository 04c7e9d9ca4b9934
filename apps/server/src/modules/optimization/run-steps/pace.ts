import type { JobRow } from '../../../db/schema.ts';
import type { Kept, RunnerState } from './deps.ts';

/*
 * The pace step: how many trials one claim takes, from the strategy's time per trial
 * measured on the batches before (main() as the harness times it).
 */

/** Trials of a claim's first batch, before any trial of the optimisation was measured. */
const FIRST_BATCH = 4;
/** Most trials per claim (and per sandbox message). */
const MAX_BATCH = 32;
/**
 * About how long the strategy runs for the trials of one claim (main() as the harness times
 * it): long enough that the claim, the session's round trip, the body worker's task and the
 * transaction are paid once for many trials, short enough that the user's sandbox slot and
 * the fair claim turn over often.
 */
const BATCH_TARGET_MS = 250;

/**
 * How many more trials of `first`'s optimisation one claim takes: as many as run in
 * about BATCH_TARGET_MS by the trials measured so far (a few before any was measured).
 */
export function claimMore(state: Pick<RunnerState, 'trialMs'>, first: JobRow): number {
  const perTrial = state.trialMs.get(first.batchKey ?? '');
  if (perTrial === undefined) return FIRST_BATCH - 1;
  return Math.max(0, Math.min(MAX_BATCH, Math.floor(BATCH_TARGET_MS / Math.max(perTrial, 1))) - 1);
}

/**
 * Takes in the strategy's own time per trial of a batch (not the round trips around it,
 * which batches cut); the summed time in main(), 0 when none was measured.
 */
export function measure(
  state: Pick<RunnerState, 'trialMs'>,
  optimization: string,
  kept: readonly Kept[],
): number {
  return measureMs(
    state,
    optimization,
    kept.flatMap(({ outcome }) =>
      outcome.ok && outcome.strategyMs !== null ? [outcome.strategyMs] : [],
    ),
  );
}

/** `measure` of the strategy's times per trial as the interpreter's answers said them. */
export function measureMs(
  state: Pick<RunnerState, 'trialMs'>,
  optimization: string,
  measured: readonly number[],
): number {
  if (measured.length === 0) return 0;
  const main = measured.reduce((a, b) => a + b, 0);
  const perTrial = main / measured.length;
  const before = state.trialMs.get(optimization);
  state.trialMs.set(optimization, before === undefined ? perTrial : (before + perTrial) / 2);
  while (state.trialMs.size > 64) state.trialMs.delete(state.trialMs.keys().next().value as string);
  return main;
}
