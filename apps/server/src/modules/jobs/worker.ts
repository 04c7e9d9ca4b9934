import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { JobRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { claimJob, releaseJob, renewJob, type ClaimBounds } from './store.ts';

/*
 * A worker of one queue (the `worker` role): claims jobs (store.ts `claimJob`: fair across
 * groups, bounded per group and batch, FOR UPDATE SKIP LOCKED under the queue's lock), runs
 * up to `concurrency` at once with a lease renewed at a third of its length, and gives its
 * jobs back when it stops. A job whose worker died (kill -9) keeps state `active` until its
 * lease runs out; then any worker claims it again. The handler ends the job itself with
 * `finishJob` in the transaction that keeps its result, so a result is kept once.
 */

export type JobContext = {
  job: JobRow;
  /** The worker's name in `lease_owner` (pass it to finishJob). */
  owner: string;
  /** Aborted when the job is no longer this worker's (cancelled, lease lost) or it stops. */
  signal: AbortSignal;
};

export type JobWorkerOptions = {
  db: Db;
  now: () => number;
  queue: string;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  bounds: ClaimBounds;
  /** Runs the job and ends it (finishJob); a throw leaves it to run again after its lease. */
  run: (context: JobContext) => Promise<void>;
  /** A job claimed more than `maxAttempts` times (its workers kept dying): end it as failed. */
  giveUp: (context: JobContext) => Promise<void>;
  log: {
    warn: (details: Record<string, unknown>, message: string) => void;
    error: (details: Record<string, unknown>, message: string) => void;
  };
  owner?: string;
};

type Active = { controller: AbortController; stopping: boolean; done: Promise<void> };

export class JobWorker {
  readonly owner: string;
  private readonly active = new Map<number, Active>();
  private running = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly options: JobWorkerOptions) {
    this.owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  start(): void {
    if (this.running || this.options.concurrency <= 0) return;
    this.running = true;
    this.notify();
  }

  get started(): boolean {
    return this.running;
  }

  /** Jobs this worker runs now (their ids). */
  activeJobs(): number[] {
    return [...this.active.keys()];
  }

  /** Looks for work now (jobs were added on this node, or one finished). */
  notify(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.again) {
        this.again = false;
        this.notify();
      } else {
        this.schedule();
      }
    });
  }

  /** Stops claiming, aborts the running jobs and gives them back, waits for them. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const entry of this.active.values()) {
      entry.stopping = true;
      entry.controller.abort();
    }
    await this.pumping;
    await Promise.all([...this.active.values()].map((e) => e.done));
  }

  /** Resolves when no job runs here. */
  whenIdle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.notify();
    }, this.options.pollMs);
    this.timer.unref();
  }

  private async pump(): Promise<void> {
    const { db, now, leaseMs, concurrency, queue, bounds } = this.options;
    while (this.running && this.active.size < concurrency) {
      let job: JobRow | null;
      try {
        job = await claimJob(db, queue, this.owner, now(), leaseMs, bounds);
      } catch (error) {
        this.options.log.error({ err: error, queue }, 'job claim failed');
        return;
      }
      if (!job) return;
      this.launch(job);
    }
  }

  private launch(job: JobRow): void {
    const { db, now, leaseMs } = this.options;
    const controller = new AbortController();
    const entry: Active = { controller, stopping: false, done: Promise.resolve() };
    const heartbeat = setInterval(
      () => {
        void renewJob(db, job.id, this.owner, now() + leaseMs)
          .then((held) => {
            if (!held && !controller.signal.aborted) controller.abort();
          })
          .catch((error: unknown) =>
            this.options.log.warn({ err: error, job: job.id }, 'job lease renewal failed'),
          );
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    this.active.set(job.id, entry);
    const context: JobContext = { job, owner: this.owner, signal: controller.signal };
    entry.done = (async () => {
      try {
        if (job.attempts > job.maxAttempts) await this.options.giveUp(context);
        else await this.options.run(context);
      } catch (error) {
        if (!controller.signal.aborted) {
          this.options.log.error({ err: error, job: job.id }, 'job failed unexpectedly');
        }
      } finally {
        clearInterval(heartbeat);
        if (entry.stopping) {
          await releaseJob(db, job.id, this.owner).catch((error: unknown) =>
            this.options.log.warn({ err: error, job: job.id }, 'job release failed'),
          );
        }
        this.active.delete(job.id);
        if (this.active.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        this.notify();
      }
    })();
  }
}
