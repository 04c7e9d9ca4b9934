import type { JobRow } from '../../db/schema.ts';
import type { BatchContext, JobContext } from '../jobs/worker.ts';
import { claimTrials } from './run-steps/claim.ts';
import {
  newTiming,
  type Kept,
  type OptimizationDeps,
  type RunnerState,
  type TrialPayload,
} from './run-steps/deps.ts';
import { claimMore, measure, measureMs } from './run-steps/pace.ts';
import { record } from './run-steps/record.ts';
import { runBatch } from './run-steps/run-batch.ts';
import { WarmSessions } from './run-steps/sessions.ts';

export type { OptimizationDeps, WorkerSummaryInput } from './run-steps/deps.ts';

/*
 * The optimisation runner (docs/architecture.md, "Optimisation (server)"): each backtest of
 * an optimisation is a trial row and a job of the trial queue (modules/jobs). A worker claims
 * several trials of one optimisation together, runs them as POST /api/backtest/code would
 * run the code with each trial's PARAMS, and keeps their results, their jobs' end and the
 * optimisation's count in one transaction under the optimisation's row lock; the
 * transaction that finishes the last in-sample trial of a walk-forward fold adds the fold's
 * out-of-sample trial, and the one that finishes the last trial writes the summary.
 * The steps live one a file in `run-steps/`: the claim (`claim.ts`), the batch's size
 * (`pace.ts`), the batch in the sandbox (`run-batch.ts`, warm interpreters in
 * `sessions.ts`, the bars of a stage in `load.ts`), the results kept (`record.ts`), the
 * walk-forward folds (`fold.ts`) and the summary at the end (`finish.ts`); this file holds
 * what the steps share in this process and chains them.
 */

export function createOptimizationRunner(deps: OptimizationDeps) {
  const state: RunnerState = {
    loaded: new Map(),
    trialMs: new Map(),
    sessions: new WarmSessions(deps.settings.concurrency),
  };

  /**
   * The trial queue's handler: trials claimed together (one optimisation's), run in
   * batches per stage and kept once, all in one transaction (modules/jobs).
   */
  async function runJobs({ jobs, owner, signal, free }: BatchContext): Promise<void> {
    const first = jobs[0];
    if (!first) return;
    const timing = newTiming();
    const started = performance.now();
    const optimization = (first.payload as TrialPayload).optimization;
    const claimed = await claimTrials(deps, state, { jobs, owner, signal }, optimization);
    if (!claimed) return;
    const { loaded, runnable } = claimed;
    timing.read = performance.now() - started;
    // the jobs of one claim are mostly of one stage; each stage runs in its own interpreter
    const stages = [...new Set(runnable.map((r) => r.payload.stage))];
    const kept: Kept[] = [];
    // once the interpreter has answered the last stage's trials, the worker may claim its
    // next batch: that one's main() runs while this one's figures are computed and kept
    let paced: number | null = null;
    const answered = (strategyMs: readonly number[]) => {
      paced = measureMs(state, optimization, strategyMs);
      free?.();
    };
    for (const [at, stage] of stages.entries()) {
      const part = runnable.filter((r) => r.payload.stage === stage);
      const outcomes = await runBatch(
        deps,
        state,
        loaded,
        stage,
        part.map((r) => r.params),
        signal,
        timing,
        at === stages.length - 1 ? answered : undefined,
      );
      outcomes.forEach((outcome, i) => {
        const item = part[i];
        if (item) kept.push({ job: item.job, payload: item.payload, outcome });
      });
      if (signal.aborted) break;
    }
    timing.main = paced ?? measure(state, optimization, kept);
    if (signal.aborted) return; // cancelled or taken over: another holder keeps them
    // the interpreter is done with this claim: the worker may claim the next while it is kept
    free?.();
    const keeping = performance.now();
    await record(deps, state, optimization, owner, kept, timing);
    timing.keep = performance.now() - keeping;
    deps.log?.debug(
      {
        optimization,
        trials: kept.length,
        totalMs: Math.round(performance.now() - started),
        ...Object.fromEntries(
          Object.entries(timing).map(([phase, ms]) => [`${phase}Ms`, Math.round(ms)]),
        ),
      },
      'optimisation trial batch timed',
    );
  }

  return {
    runJobs,

    /** The trial queue's handler for one job (a claim of one trial). */
    async runJob({ job, owner, signal }: JobContext): Promise<void> {
      await runJobs({ jobs: [job], owner, signal });
    },

    /** How many more trials of `first`'s optimisation one claim takes (run-steps/pace.ts). */
    claimMore(first: JobRow): number {
      return claimMore(state, first);
    },

    /** A trial whose workers kept dying: kept as failed. */
    async giveUpJob({ job, owner }: JobContext): Promise<void> {
      const payload = job.payload as TrialPayload;
      await record(deps, state, payload.optimization, owner, [
        {
          job,
          payload,
          outcome: {
            ok: false,
            error: `The trial stopped ${job.attempts - 1} times without a result (its worker ended)`,
          },
        },
      ]);
    },

    /** Closes the warm interpreters of an optimisation (cancelled: no more trials run). */
    closeSessionsOf(optimization: string): void {
      state.sessions.closeOf(optimization);
    },

    /** Forgets an optimisation (deleted): its code and bars, its warm interpreters. */
    forget(optimization: string): void {
      state.loaded.delete(optimization);
      state.sessions.closeOf(optimization);
    },

    /** Closes the warm interpreters (the worker stops). */
    closeSessions(): void {
      state.sessions.closeAll();
    },
  };
}

export type OptimizationRunner = ReturnType<typeof createOptimizationRunner>;
