import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock, openTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';
import {
  cancelBatch,
  claimJob,
  claimJobs,
  countJobs,
  enqueueJobs,
  finishJob,
  finishJobs,
  type NewJob,
} from './store.ts';
import { JobWorker, type BatchContext, type JobContext } from './worker.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const clock = createClock();
const LEASE = 10_000;
const log = { warn: () => undefined, error: () => undefined };

function job(queue: string, group: string, batch: string | null, n: number): NewJob {
  return { queue, groupKey: group, batchKey: batch, payload: { n, group }, maxAttempts: 3 };
}

/** A worker whose jobs wait until the test lets them go, recording the order they started in. */
function gatedWorker(
  queue: string,
  concurrency: number,
  bounds = { maxPerGroup: 1, maxPerBatch: 100 },
) {
  const started: string[] = [];
  const gates: (() => void)[] = [];
  let running = 0;
  let mostRunning = 0;
  const worker = new JobWorker({
    db: t.db,
    now: clock.now,
    queue,
    concurrency,
    leaseMs: LEASE,
    pollMs: 3_600_000,
    bounds,
    log,
    run: async ({ job: claimed, owner }: JobContext) => {
      const { n, group } = claimed.payload as { n: number; group: string };
      started.push(`${group}${n}`);
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      await new Promise<void>((resolve) => gates.push(resolve));
      running -= 1;
      await finishJob(t.db, claimed.id, owner, 'done', clock.now());
    },
    giveUp: async ({ job: claimed, owner }) => {
      await finishJob(t.db, claimed.id, owner, 'failed', clock.now(), 'gave up');
    },
  });
  return {
    worker,
    started,
    mostRunning: () => mostRunning,
    /** Lets the oldest running job finish. */
    release: () => gates.shift()?.(),
    waitingGates: () => gates.length,
  };
}

describe('job queue', () => {
  it("one group's many jobs do not stand in front of another group's", async () => {
    const queue = 'fair';
    await enqueueJobs(
      t.db,
      Array.from({ length: 6 }, (_, n) => job(queue, 'a', 'a-batch', n)),
      clock.now(),
    );
    await enqueueJobs(
      t.db,
      [job(queue, 'b', 'b-batch', 0), job(queue, 'b', 'b-batch', 1)],
      clock.now(),
    );
    const g = gatedWorker(queue, 2);
    g.worker.start();
    await waitFor(() => g.started.length === 2);
    // a's oldest and b's oldest run side by side (one each: the bound per group)
    expect(g.started).toEqual(['a0', 'b0']);
    while (g.started.length < 8) {
      const before = g.started.length;
      g.release();
      // after b's last job no new one may start: a is at its bound
      await waitFor(
        () =>
          g.started.length > before ||
          (g.started.length >= 4 && g.worker.activeJobs().length === g.waitingGates()),
      );
    }
    // b's second job went before a's second although queued after all of a's
    expect(g.started.slice(0, 4)).toEqual(['a0', 'b0', 'a1', 'b1']);
    expect(g.mostRunning()).toBe(2);
    while (g.worker.activeJobs().length > 0) {
      g.release();
      await waitFor(() => g.waitingGates() === g.worker.activeJobs().length);
    }
    await g.worker.stop();
    expect(await countJobs(t.db, queue)).toEqual({ done: 8 });
  });

  it('bounds the jobs of one batch at once across workers', async () => {
    const queue = 'batch-bound';
    await enqueueJobs(
      t.db,
      Array.from({ length: 4 }, (_, n) => job(queue, 'c', 'one', n)),
      clock.now(),
    );
    const bounds = { maxPerGroup: 10, maxPerBatch: 1 };
    const first = gatedWorker(queue, 2, bounds);
    const second = gatedWorker(queue, 2, bounds);
    first.worker.start();
    second.worker.start();
    await waitFor(() => first.started.length + second.started.length === 1);
    // nobody else may take one while one runs
    expect(await claimJob(t.db, queue, 'probe', clock.now(), LEASE, bounds)).toBeNull();
    for (let done = 0; done < 4; done++) {
      await waitFor(() => first.waitingGates() + second.waitingGates() === 1);
      if (first.waitingGates() > 0) first.release();
      else second.release();
    }
    await first.worker.stop();
    await second.worker.stop();
    expect(first.mostRunning() + second.mostRunning()).toBeLessThanOrEqual(2);
    expect(await countJobs(t.db, queue)).toEqual({ done: 4 });
  });

  it("a dead worker's job runs again elsewhere once its lease has run out, and is kept once", async () => {
    const queue = 'lease';
    await enqueueJobs(t.db, [job(queue, 'd', null, 0)], clock.now());
    const bounds = { maxPerGroup: 1, maxPerBatch: 1 };
    const dead = await claimJob(t.db, queue, 'dead-worker', clock.now(), LEASE, bounds);
    expect(dead?.attempts).toBe(1);
    const g = gatedWorker(queue, 1, bounds);
    g.worker.start();
    // still held by the dead worker's lease
    expect(await claimJob(t.db, queue, 'probe', clock.now(), LEASE, bounds)).toBeNull();
    clock.advance(LEASE + 1);
    g.worker.notify();
    await waitFor(() => g.started.length === 1);
    g.release();
    await g.worker.whenIdle();
    // the dead worker's late result is refused
    expect(await finishJob(t.db, dead?.id ?? 0, 'dead-worker', 'done', clock.now())).toBe(false);
    await g.worker.stop();
    expect(await countJobs(t.db, queue)).toEqual({ done: 1 });
  });

  it('gives a job up after it was claimed more than its attempts', async () => {
    const queue = 'poison';
    await enqueueJobs(t.db, [{ ...job(queue, 'e', null, 0), maxAttempts: 2 }], clock.now());
    const bounds = { maxPerGroup: 1, maxPerBatch: 1 };
    for (let i = 0; i < 2; i++) {
      expect(await claimJob(t.db, queue, `dies-${i}`, clock.now(), LEASE, bounds)).not.toBeNull();
      clock.advance(LEASE + 1);
    }
    const g = gatedWorker(queue, 1, bounds);
    g.worker.start();
    await g.worker.whenIdle();
    await waitFor(() => g.worker.activeJobs().length === 0);
    await g.worker.stop();
    expect(g.started).toEqual([]);
    expect(await countJobs(t.db, queue)).toEqual({ failed: 1 });
  });

  it('a cancelled batch runs no more jobs, and a running one loses its lease', async () => {
    const queue = 'cancel';
    await enqueueJobs(
      t.db,
      Array.from({ length: 3 }, (_, n) => job(queue, 'f', 'gone', n)),
      clock.now(),
    );
    const g = gatedWorker(queue, 1);
    g.worker.start();
    await waitFor(() => g.started.length === 1);
    expect(await cancelBatch(t.db, 'gone', clock.now())).toBe(3);
    g.release();
    await g.worker.whenIdle();
    await g.worker.stop();
    expect(g.started).toEqual(['f0']);
    expect(await countJobs(t.db, queue)).toEqual({ cancelled: 3 });
  });

  it('a claim takes several jobs of one batch and group, and the bounds count it once', async () => {
    const queue = 'batched';
    await enqueueJobs(
      t.db,
      [
        ...Array.from({ length: 5 }, (_, n) => job(queue, 'g', 'one', n)),
        job(queue, 'h', 'other', 0),
        ...Array.from({ length: 3 }, (_, n) => job(queue, 'g', 'two', n)),
      ],
      clock.now(),
    );
    const bounds = { maxPerGroup: 2, maxPerBatch: 1 };
    const first = await claimJobs(t.db, queue, 'w1', clock.now(), LEASE, bounds, () => 3);
    // the oldest job and three more of its batch (never another batch's or group's)
    expect(first.map((j) => (j.payload as { n: number }).n)).toEqual([0, 1, 2, 3]);
    expect(new Set(first.map((j) => j.batchKey))).toEqual(new Set(['one']));
    expect(new Set(first.map((j) => j.claimId))).toEqual(new Set([first[0]?.id]));
    // batch `one` is at its bound of one claim; group g has one claim of its two
    const second = await claimJobs(t.db, queue, 'w2', clock.now(), LEASE, bounds, () => 9);
    expect(second.map((j) => j.groupKey)).toEqual(['h']);
    const third = await claimJobs(t.db, queue, 'w2', clock.now(), LEASE, bounds, () => 9);
    expect(third.map((j) => `${j.batchKey}${(j.payload as { n: number }).n}`)).toEqual([
      'two0',
      'two1',
      'two2',
    ]);
    // g holds two claims now: nothing more of g, whatever is queued
    expect(await claimJobs(t.db, queue, 'w3', clock.now(), LEASE, bounds, () => 9)).toEqual([]);
    // each job ends on its own lease: another worker's ends nothing
    expect(
      await finishJobs(
        t.db,
        first.map((j) => j.id),
        'w2',
        'done',
        clock.now(),
      ),
    ).toEqual(new Set());
    const ended = await finishJobs(
      t.db,
      first.map((j) => j.id),
      'w1',
      'done',
      clock.now(),
    );
    expect(ended).toEqual(new Set(first.map((j) => j.id)));
    const rest = await claimJobs(t.db, queue, 'w3', clock.now(), LEASE, bounds, () => 9);
    expect(rest.map((j) => `${j.batchKey}${(j.payload as { n: number }).n}`)).toEqual(['one4']);
  });

  it('a worker runs the jobs of a batch claim together, and a killed one loses none', async () => {
    const queue = 'batch-worker';
    await enqueueJobs(
      t.db,
      Array.from({ length: 6 }, (_, n) => job(queue, 'k', 'six', n)),
      clock.now(),
    );
    const runs: number[][] = [];
    const worker = (owner: string, gate: Promise<void> | null) =>
      new JobWorker({
        db: t.db,
        now: clock.now,
        queue,
        owner,
        concurrency: 1,
        leaseMs: LEASE,
        pollMs: 3_600_000,
        bounds: { maxPerGroup: 1, maxPerBatch: 1 },
        log,
        run: () => Promise.reject(new Error('batches only')),
        giveUp: () => Promise.reject(new Error('no give-up')),
        claimMore: () => 2,
        runBatch: async ({ jobs, owner: holder }: BatchContext) => {
          runs.push(jobs.map((j) => (j.payload as { n: number }).n));
          if (gate) await gate;
          await finishJobs(
            t.db,
            jobs.map((j) => j.id),
            holder,
            'done',
            clock.now(),
          );
        },
      });
    // the first worker dies holding its first claim of three
    const dying = worker('dies', new Promise<void>(() => undefined));
    dying.start();
    await waitFor(() => runs.length === 1);
    void dying.abandon();
    clock.advance(LEASE + 1);
    const healthy = worker('lives', null);
    healthy.start();
    let done = 0;
    const counted = () =>
      void countJobs(t.db, queue).then((counts) => {
        done = counts.done ?? 0;
      });
    await waitFor(() => {
      counted();
      return done === 6;
    }, 20_000);
    await healthy.stop();
    // its three were taken again (oldest first) and every job ended once
    expect(runs).toEqual([
      [0, 1, 2],
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(await countJobs(t.db, queue)).toEqual({ done: 6 });
  });
  it('a batch run that frees its place lets the worker claim the next while it still keeps its results', async () => {
    const queue = 'batch-free';
    await enqueueJobs(
      t.db,
      Array.from({ length: 4 }, (_, n) => job(queue, 'f', 'four', n)),
      clock.now(),
    );
    const runs: number[][] = [];
    const keeps: (() => void)[] = [];
    const worker = new JobWorker({
      db: t.db,
      now: clock.now,
      queue,
      concurrency: 1,
      leaseMs: LEASE,
      pollMs: 3_600_000,
      bounds: { maxPerGroup: 2, maxPerBatch: 2 },
      log,
      run: () => Promise.reject(new Error('batches only')),
      giveUp: () => Promise.reject(new Error('no give-up')),
      claimMore: () => 1,
      runBatch: async ({ jobs, owner, free }: BatchContext) => {
        runs.push(jobs.map((j) => (j.payload as { n: number }).n));
        free?.();
        // keeping waits until the test lets it go: the next claim runs meanwhile
        await new Promise<void>((resolve) => keeps.push(resolve));
        await finishJobs(
          t.db,
          jobs.map((j) => j.id),
          owner,
          'done',
          clock.now(),
        );
      },
    });
    worker.start();
    await waitFor(() => runs.length === 2);
    // both claims are held at once by a worker of concurrency 1: the first is only keeping
    expect(runs).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(worker.activeJobs()).toHaveLength(4);
    for (const resolve of keeps.splice(0)) resolve();
    await waitFor(() => worker.activeJobs().length === 0);
    await worker.stop();
    expect(await countJobs(t.db, queue)).toEqual({ done: 4 });
  });
});
