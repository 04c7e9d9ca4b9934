import { finishJob } from '../../jobs/store.ts';
import type { JobContext } from '../../jobs/worker.ts';
import { runById } from '../store.ts';
import type { HeldRun, LiveRunnerOptions } from './deps.ts';

/*
 * The claim step: a job of the `live-run` queue claimed by this runner (modules/jobs leases,
 * renews and takes it over after a crash) becomes a held run, or finishes when its run was
 * stopped meanwhile.
 */

/**
 * The run of a claimed job, held until it ends, its job is lost (`signal`) or it is
 * released; null when there is nothing to hold.
 */
export async function claimRun(
  { db, now }: Pick<LiveRunnerOptions, 'db' | 'now'>,
  { job, owner, signal }: JobContext,
): Promise<HeldRun | null> {
  const runId = String((job.payload as { runId?: unknown }).runId);
  const row = await runById(db, runId);
  if (!row || row.status !== 'running') {
    // stopped meanwhile: its job has nothing left to do
    await finishJob(db, job.id, owner, 'done', now());
    return null;
  }
  let release = () => undefined as void;
  const ended = new Promise<void>((resolve) => {
    release = resolve;
  });
  const run: HeldRun = {
    row,
    trader: null,
    busy: null,
    again: false,
    lookedAt: null,
    ended,
    release,
  };
  if (signal.aborted) return null;
  signal.addEventListener('abort', () => release(), { once: true });
  return run;
}
