import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { JobRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { claimJob, claimJobs, releaseJob, renewJobs, type ClaimBounds } from './store.ts';

/*
 * The one worker loop of every queue (job kind): optimisation trials, AI strategy tasks and
 * live runs. It claims jobs (store.ts `claimJob`: fair across groups, bounded per group and
 * batch, FOR UPDATE SKIP LOCKED under the queue's lock), runs up to `concurrency` at once,
 * renews the leases of all it holds in one statement at a third of their length (two missed
 * renewals still hold them), aborts a job whose lease it lost (cancelled, taken over), and
 * gives its jobs back when it stops. A job whose worker died (kill -9) keeps state `active`
 * until its lease runs out; then any worker claims it again, and one claimed more than its
 * `maxAttempts` goes to `giveUp`. The handler ends the job itself with `finishJob` in the
 * transaction that keeps its result, so a result is kept once. A kind with `claimMore` and
 * `runBatch` (the trials) takes several jobs of one batch per claim (store.ts `claimJobs`)
 * and runs them as one of its `concurrency` runs, with one signal; each job is still leased,
 * released and ended on its own. Such a run may `free` its place while it only keeps its
 * results, so the next claim's work overlaps that write.
 */

export type JobContext = {
  job: JobRow;
  /** The worker's name in `lease_owner` (pass it to finishJob). */
  owner: string;
  /** Aborted when the job is no longer this worker's (cancelled, lease lost) or it stops. */
  signal: AbortSignal;
};

/** Several jobs of one batch claimed together (`JobKind.runBatch`). */
export type BatchContext = {
  jobs: JobRow[];
  owner: string;
  /** Aborted when any of them is no longer this worker's, or it stops. */
  signal: AbortSignal;
  /**
   * The run's heavy part is over (only keeping its results is left): its place among the
   * `concurrency` runs goes to the next claim now. The jobs stay held (leased, renewed,
   * awaited by stop) until the handler returns.
   */
  free?: () => void;
};

/** A kind of job: its queue, how many one worker runs at once, its bounds and its handler. */
export type JobKind = {
  queue: string;
  concurrency: number;
  leaseMs: number;
  /** How often the worker looks for jobs other nodes added (this node's wake it at once). */
  pollMs: number;
  bounds: ClaimBounds;
  /**
   * Runs the job and ends it (finishJob). A throw leaves it to run again after its lease;
   * a long-lived job (a live run) returns when its signal is aborted or its work ended.
   */
  run: (context: JobContext) => Promise<void>;
  /** A job claimed more than `maxAttempts` times (its workers kept dying): end it as failed. */
  giveUp: (context: JobContext) => Promise<void>;
  /**
   * With `runBatch`: how many more jobs of the first one's batch a claim may take (0: one).
   * The claimed jobs run together as one of the `concurrency` runs.
   */
  claimMore?: (first: JobRow) => number;
  /**
   * Runs jobs claimed together and ends each (finishJob), like `run`; those past their
   * `maxAttempts` went to `giveUp` instead.
   */
  runBatch?: (context: BatchContext) => Promise<void>;
};

export type JobWorkerOptions = JobKind & {
  db: Db;
  now: () => number;
  log: {
    warn: (details: Record<string, unknown>, message: string) => void;
    error: (details: Record<string, unknown>, message: string) => void;
  };
  /** This worker's name in `lease_owner`; unique per start. */
  owner?: string;
};

type Active = {
  job: JobRow;
  controller: AbortController;
  /** Give the job back when it ends (an orderly stop). */
  release: boolean;
  done: Promise<void>;
};

export class JobWorker {
  readonly owner: string;
  private readonly active = new Map<number, Active>();
  /** Runs going on (a run is one job, or the jobs of one batch claim). */
  private runs = 0;
  private running = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly options: JobWorkerOptions) {
    this.owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  get queue(): string {
    return this.options.queue;
  }

  /** Starts claiming (no-op with concurrency 0 or when started). */
  start(): void {
    if (this.running || this.options.concurrency <= 0) return;
    this.running = true;
    const { leaseMs } = this.options;
    this.heartbeat = setInterval(() => this.renew(), Math.max(100, Math.floor(leaseMs / 3)));
    this.heartbeat.unref();
    this.notify();
  }

  get started(): boolean {
    return this.running;
  }

  /** Jobs this worker runs now (their ids). */
  activeJobs(): number[] {
    return [...this.active.keys()];
  }

  /** The jobs this worker runs now. */
  activeRows(): JobRow[] {
    return [...this.active.values()].map((entry) => entry.job);
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

  /** Resolves when no claim is under way (the jobs claimed so far have been launched). */
  async settled(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  /**
   * Aborts the jobs of `batchKey` this worker runs (their work was deleted or stopped on
   * this node; other nodes notice at their next write or lease renewal). True when one ran here.
   */
  abortBatch(batchKey: string): boolean {
    let found = false;
    for (const entry of this.active.values()) {
      if (entry.job.batchKey !== batchKey) continue;
      found = true;
      entry.controller.abort();
    }
    return found;
  }

  /** Stops claiming, aborts the running jobs and gives them back, waits for them. */
  async stop(): Promise<void> {
    await this.halt(true);
  }

  /**
   * Stops like a killed process would (tests): no more claims or renewals, the jobs are
   * aborted here but keep their leases until these run out, then another worker takes them.
   */
  async abandon(): Promise<void> {
    await this.halt(false);
  }

  /** Resolves when no job runs here. */
  whenIdle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async halt(release: boolean): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    for (const entry of this.active.values()) {
      entry.release = release;
      entry.controller.abort();
    }
    await this.pumping;
    await Promise.all([...this.active.values()].map((e) => e.done));
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

  /** One renewal of every lease held here; a job no longer held is aborted. */
  private renew(): void {
    if (this.active.size === 0) return;
    const { db, now, leaseMs, queue } = this.options;
    void renewJobs(db, queue, this.owner, now() + leaseMs)
      .then((held) => {
        for (const [id, entry] of this.active) {
          if (!held.has(id) && !entry.controller.signal.aborted) entry.controller.abort();
        }
      })
      .catch((error: unknown) =>
        this.options.log.warn({ err: error, queue }, 'job lease renewal failed'),
      );
  }

  private async pump(): Promise<void> {
    const { db, now, leaseMs, concurrency, queue, bounds } = this.options;
    const { claimMore, runBatch } = this.options;
    while (this.running && this.runs < concurrency) {
      let jobs: JobRow[];
      try {
        if (claimMore && runBatch) {
          jobs = await claimJobs(db, queue, this.owner, now(), leaseMs, bounds, claimMore);
        } else {
          const job = await claimJob(db, queue, this.owner, now(), leaseMs, bounds);
          jobs = job ? [job] : [];
        }
      } catch (error) {
        this.options.log.error({ err: error, queue }, 'job claim failed');
        return;
      }
      if (jobs.length === 0) return;
      if (jobs.length === 1 && !runBatch) this.launch(jobs[0] as JobRow);
      else this.launchBatch(jobs);
    }
  }

  /** Runs jobs claimed together: one run, one signal; each job is released on its own. */
  private launchBatch(jobs: JobRow[]): void {
    const { db, runBatch, giveUp } = this.options;
    const controller = new AbortController();
    const entries = jobs.map((job): Active => ({
      job,
      controller,
      release: false,
      done: Promise.resolve(),
    }));
    for (const entry of entries) this.active.set(entry.job.id, entry);
    this.runs += 1;
    let counted = true;
    const free = () => {
      if (!counted) return;
      counted = false;
      this.runs -= 1;
      this.notify();
    };
    const done = (async () => {
      const signal = controller.signal;
      try {
        for (const job of jobs.filter((j) => j.attempts > j.maxAttempts)) {
          await giveUp({ job, owner: this.owner, signal });
        }
        const runnable = jobs.filter((j) => j.attempts <= j.maxAttempts);
        if (runnable.length > 0 && runBatch) {
          await runBatch({ jobs: runnable, owner: this.owner, signal, free });
        }
      } catch (error) {
        if (!signal.aborted) {
          this.options.log.error(
            { err: error, jobs: jobs.map((j) => j.id) },
            'job failed unexpectedly',
          );
        }
      } finally {
        for (const entry of entries) {
          if (entry.release) {
            await releaseJob(db, entry.job.id, this.owner).catch((error: unknown) =>
              this.options.log.warn({ err: error, job: entry.job.id }, 'job release failed'),
            );
          }
          this.active.delete(entry.job.id);
        }
        if (counted) this.runs -= 1;
        counted = false;
        if (this.active.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        this.notify();
      }
    })();
    for (const entry of entries) entry.done = done;
  }

  private launch(job: JobRow): void {
    const { db } = this.options;
    const controller = new AbortController();
    const entry: Active = { job, controller, release: false, done: Promise.resolve() };
    this.active.set(job.id, entry);
    this.runs += 1;
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
        if (entry.release) {
          await releaseJob(db, job.id, this.owner).catch((error: unknown) =>
            this.options.log.warn({ err: error, job: job.id }, 'job release failed'),
          );
        }
        this.active.delete(job.id);
        this.runs -= 1;
        if (this.active.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        this.notify();
      }
    })();
  }
}
