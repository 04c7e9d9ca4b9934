import { formatContractDate, liveRunLogClientId } from '@ct/domain';
import type { QuoteEvent } from '../market/feed.ts';
import { JobWorker, type JobContext } from '../jobs/worker.ts';
import { orderLine, type Followed } from './evaluation.ts';
import { closedBar } from './run-steps/bars.ts';
import { claimRun } from './run-steps/claim.ts';
import {
  LIVE_LOG_PREFIX,
  SimulatedCrash,
  type ClosedBar,
  type HeldRun,
  type LiveRunnerOptions,
} from './run-steps/deps.ts';
import { follow } from './run-steps/follow.ts';
import { record, type Holder } from './run-steps/record.ts';
import { Slots, runCode } from './run-steps/strategy.ts';
import { LIVE_RUN_QUEUE, runBatchKey } from './store.ts';

export {
  LIVE_LOG_PREFIX,
  SimulatedCrash,
  type EvaluatedEvent,
  type LiveRunnerOptions,
} from './run-steps/deps.ts';

/*
 * The live-run runner: a running run is a long-lived job of the `live-run` queue
 * (modules/jobs: claimed, leased, renewed and taken over after a crash like every job),
 * held by one runner for as long as it runs; at every bar close of a run's instrument and period
 * runs the strategy on the closed bars, reconciles what it wants with what the run holds,
 * and sends market orders through the trading pipeline like a person's. Bar closes are seen
 * on the feed's quotes (the first tick of a new bar closes the previous one) and on a timer.
 * The steps live one a file in `run-steps/`: the claim (`claim.ts`), the closed bar
 * (`bars.ts`), the strategy in the sandbox (`strategy.ts`), the orders that follow it
 * (`follow.ts`, `orders.ts`) and the evaluation written (`record.ts`, judged by
 * `evaluation.ts`); this file holds the runs and chains the steps.
 */

export class LiveRunner {
  private readonly jobs: JobWorker;
  private readonly runs = new Map<string, HeldRun>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Claimed jobs whose run is being read. */
  private readonly loading = new Set<Promise<unknown>>();
  /** The sandbox slots the strategies of this runner's runs share. */
  private readonly slots: Slots;
  /** What the record step needs of this runner. */
  private readonly holder: Holder;
  private abandoned = false;

  constructor(private readonly options: LiveRunnerOptions) {
    const { settings } = options;
    this.slots = new Slots(settings.concurrency);
    this.jobs = new JobWorker({
      db: options.db,
      now: options.now,
      queue: LIVE_RUN_QUEUE,
      concurrency: settings.maxRunsPerRunner,
      leaseMs: settings.leaseMs,
      pollMs: settings.pollMs,
      bounds: { maxPerGroup: Number.MAX_SAFE_INTEGER, maxPerBatch: 1 },
      run: (context) => this.hold(context),
      giveUp: (context) => this.hold(context),
      log: options.log,
      ...(options.owner === undefined ? {} : { owner: options.owner }),
    });
    this.holder = { owner: this.jobs.owner, forget: (run) => this.forget(run) };
  }

  /** This runner's name in its jobs' `lease_owner`. */
  get owner(): string {
    return this.jobs.owner;
  }

  /** Starts claiming runs and listening to bar closes (no-op when started). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.options.feed.onQuote((event) => this.onQuote(event));
    // bar closes without a tick (a quiet market) are seen on this timer
    this.timer = setInterval(() => this.checkAll(), this.options.settings.pollMs);
    this.timer.unref();
    this.jobs.start();
  }

  get started(): boolean {
    return this.running;
  }

  /** Ids of the runs this runner holds now. */
  heldRuns(): string[] {
    return [...this.runs.keys()];
  }

  /** Claims and checks now (a run was started on this node; the clock moved in a test). */
  notify(): void {
    if (!this.running) return;
    this.jobs.notify();
    this.checkAll();
  }

  /** Forgets a run stopped on this node (its job was cancelled by the stop). */
  drop(runId: string): void {
    this.runs.get(runId)?.release();
    this.runs.delete(runId);
    this.jobs.abortBatch(runBatchKey(runId));
  }

  /** Stops: no more claims or evaluations; waits for those under way; gives the runs back. */
  async stop(): Promise<void> {
    if (this.abandoned) return;
    this.halt();
    await this.whenIdle();
    await this.jobs.stop();
    this.runs.clear();
  }

  /** Tests: stops like a crashed process would, leases kept (another runner waits them out). */
  async abandon(): Promise<void> {
    this.abandoned = true;
    this.halt();
    await this.whenIdle();
    await this.jobs.abandon();
    this.runs.clear();
  }

  /** Resolves when no claim and no evaluation is under way. */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.jobs.settled();
      const busy = [...this.loading, ...[...this.runs.values()].map((r) => r.busy)].filter(
        (p): p is Promise<void> => p !== null,
      );
      if (busy.length === 0) return;
      await Promise.all(busy);
    }
  }

  private halt(): void {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /**
   * The handler of a claimed job of the `live-run` queue: holds the run until it ends (its
   * job finished by the evaluation that stopped it), it is stopped or the job is lost.
   */
  private hold(context: JobContext): Promise<void> {
    const loaded = this.load(context);
    this.loading.add(loaded);
    void loaded.finally(() => this.loading.delete(loaded));
    // resolves when the run is no longer held here
    return loaded.then((run) => run?.ended);
  }

  /** Claims a job's run and holds it until it is no longer held here. */
  private async load(context: JobContext): Promise<HeldRun | null> {
    const run = await claimRun(this.options, context);
    if (!run) return null;
    const id = run.row.id;
    this.runs.set(id, run);
    void run.ended.then(() => {
      if (this.runs.get(id) === run) this.runs.delete(id);
    });
    this.check(run);
    return run;
  }

  private checkAll(): void {
    for (const run of this.runs.values()) this.check(run);
  }

  private onQuote(event: QuoteEvent): void {
    for (const run of this.runs.values()) if (run.row.symbol === event.symbol) this.check(run);
  }

  /** Evaluates the run if a bar closed since its last evaluation (one at a time per run). */
  private check(run: HeldRun): void {
    if (!this.running) return;
    if (run.busy) {
      run.again = true;
      return;
    }
    const closed = closedBar(this.options, run);
    if (closed === null) return;
    run.busy = this.evaluate(run, closed)
      .catch((error: unknown) => {
        if (error instanceof SimulatedCrash) {
          // the process "died": nothing more happens here until a new runner takes over
          this.abandoned = true;
          this.halt();
          void this.jobs.abandon();
          return;
        }
        this.options.log.error({ err: error, run: run.row.id }, 'live run evaluation failed');
      })
      .finally(() => {
        run.busy = null;
        if (run.again) {
          run.again = false;
          if (this.runs.get(run.row.id) === run) this.check(run);
        }
      });
  }

  /**
   * One evaluation of a closed bar, in its steps: the strategy runs on the window, its wanted
   * positions are followed with orders, and the evaluation is judged and recorded.
   */
  private async evaluate(run: HeldRun, closed: ClosedBar): Promise<void> {
    const row = run.row;
    const bar = closed.bars.at(-1);
    if (!bar) return;
    const clientId = liveRunLogClientId(row.id);
    const say = (line: string) => this.options.logs.publish(row.userId, clientId, line);
    say(
      `${LIVE_LOG_PREFIX} Bar ${formatContractDate(bar.time)} closed: running ${row.strategyName} on ${closed.bars.length} bars`,
    );
    const { outcome, printed } = await runCode(this.options, this.slots, row, closed, say);
    // stopping (the sandbox may be closing): the bar is evaluated by whoever holds the run next
    if (!this.running) return;
    let followed: Followed;
    if (outcome.ok) {
      followed = await follow(this.options, run, closed, bar, outcome.trades);
      for (const order of followed.orders) say(orderLine(LIVE_LOG_PREFIX, order));
    } else {
      followed = { error: outcome.error, wanted: [], orders: [], fillsAt: [] };
      for (const line of outcome.error.split('\n')) say(line);
    }
    await record(this.options, this.holder, run, closed, bar, printed, followed, say);
  }

  /** The run is no longer held here: its job handler ends. */
  private forget(run: HeldRun): void {
    if (this.runs.get(run.row.id) === run) this.runs.delete(run.row.id);
    run.release();
  }
}
