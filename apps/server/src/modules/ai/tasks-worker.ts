import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { AiTaskRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { TaskStopped } from './tasks-runner.ts';
import { claimTask, releaseTask, renewLease, updateHeldTask } from './tasks-store.ts';

/*
 * The `worker` role for AI strategy tasks: claims tasks in the database (tasks-store.ts
 * `claimTask`: FOR UPDATE SKIP LOCKED, a lease renewed while it works), runs up to
 * `concurrency` at once, and gives its tasks back when it stops. A task whose worker died
 * keeps status PROCESSING until its lease runs out; then any worker claims it again. Writes
 * carry the lease, so a task is never advanced by two workers at once.
 */

export type TaskWorkerOptions = {
  db: Db;
  now: () => number;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  run: (task: AiTaskRow, owner: string, signal: AbortSignal) => Promise<void>;
  log: {
    warn: (details: Record<string, unknown>, message: string) => void;
    error: (details: Record<string, unknown>, message: string) => void;
  };
  /** This worker's name in `lease_owner`; unique per start. */
  owner?: string;
  /** After a task's run ends (its last state committed): tells the user how it ended. */
  onEnded?: (taskId: number) => Promise<void>;
};

type Why = 'stop' | 'cancel' | 'lost';

export class TaskWorker {
  readonly owner: string;
  private readonly active = new Map<
    number,
    { controller: AbortController; why: Why | null; done: Promise<void> }
  >();
  private running = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly options: TaskWorkerOptions) {
    this.owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Starts claiming tasks (no-op with concurrency 0 or when started). */
  start(): void {
    if (this.running || this.options.concurrency <= 0) return;
    this.running = true;
    this.notify();
  }

  get started(): boolean {
    return this.running;
  }

  /** Tasks this worker runs now (their ids). */
  activeTasks(): number[] {
    return [...this.active.keys()];
  }

  /** Looks for work now (a task was created on this node, or one finished). */
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

  /** Aborts a task this worker runs (it was deleted); true when it was running here. */
  cancel(taskId: number): boolean {
    const entry = this.active.get(taskId);
    if (!entry) return false;
    entry.why ??= 'cancel';
    entry.controller.abort();
    return true;
  }

  /** Stops claiming, aborts the running tasks and gives them back (PENDING), waits for them. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const entry of this.active.values()) {
      entry.why ??= 'stop';
      entry.controller.abort();
    }
    await this.pumping;
    await Promise.all([...this.active.values()].map((e) => e.done));
  }

  /** Resolves when no task runs here (tests, benchmark). */
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
    const { db, now, leaseMs, concurrency } = this.options;
    while (this.running && this.active.size < concurrency) {
      let task: AiTaskRow | null;
      try {
        task = await claimTask(db, this.owner, now(), leaseMs);
      } catch (error) {
        this.options.log.error({ err: error }, 'AI task claim failed');
        return;
      }
      if (!task) return;
      this.launch(task);
    }
  }

  private launch(task: AiTaskRow): void {
    const { db, now, leaseMs } = this.options;
    const controller = new AbortController();
    const entry: { controller: AbortController; why: Why | null; done: Promise<void> } = {
      controller,
      why: null,
      done: Promise.resolve(),
    };
    // the lease is renewed at a third of its length: two missed renewals still hold it
    const heartbeat = setInterval(
      () => {
        void renewLease(db, task.id, this.owner, now() + leaseMs)
          .then((held) => {
            if (!held && !controller.signal.aborted) {
              entry.why ??= 'lost';
              controller.abort();
            }
          })
          .catch((error: unknown) =>
            this.options.log.warn({ err: error, task: task.id }, 'AI task lease renewal failed'),
          );
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    this.active.set(task.id, entry);
    entry.done = (async () => {
      try {
        await this.options.run(task, this.owner, controller.signal);
      } catch (error) {
        if (!(error instanceof TaskStopped) && !controller.signal.aborted) {
          this.options.log.error({ err: error, task: task.id }, 'AI task failed unexpectedly');
          const at = Math.floor(now() / 1000);
          await updateHeldTask(db, task.id, this.owner, {
            status: 'FAILED',
            errorMessage: 'The task stopped on an internal error; see the server log',
            finishedAt: at,
            updatedAt: at,
          }).catch(() => undefined);
        }
      } finally {
        clearInterval(heartbeat);
        if (entry.why === 'stop') {
          await releaseTask(db, task.id, this.owner, Math.floor(now() / 1000)).catch(
            (error: unknown) =>
              this.options.log.warn({ err: error, task: task.id }, 'AI task release failed'),
          );
        }
        if (entry.why === null) await this.options.onEnded?.(task.id);
        this.active.delete(task.id);
        if (this.active.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        this.notify();
      }
    })();
  }
}
