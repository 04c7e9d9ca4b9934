import { queueOrder } from './queue-order.ts';

/**
 * A waiting run passed over by runs behind it (that fitted where it did not) this many times
 * starts next: the runs behind it then wait until it has started.
 */
export const MAX_PASSES = 8;

/** Gives back what a run held of the budget (once; more calls do nothing). */
export type Release = () => void;

type Waiter = {
  owner: string;
  seq: number;
  bars: number;
  passes: number;
  position: number;
  resume: (release: Release) => void;
  fail: (error: Error) => void;
  onQueued: ((position: number) => void) | undefined;
};

/**
 * The bars that runs of every user may hold in memory at once (a 1,000,000-bar run holds
 * about 1.1 GB of the server's memory while its bars are loaded, sent, run and evaluated:
 * docs/performance.md). A run that does not fit in what is left waits in a queue, told its
 * place, rather than failing; it is admitted when enough is given back.
 *
 * Fairness, as the run slots' queue: waiting runs are admitted round robin over owners
 * (`queueOrder`); one owner holds at most `share` bars unless it holds nothing (its one run
 * may be larger, alone), so another owner's small run finds room beside one user's huge
 * ones; a small run that fits starts before a larger one ahead of it that does not, until
 * that one has been passed over MAX_PASSES times. A run larger than the whole budget runs
 * when nothing else holds any of it.
 */
export class BarsBudget {
  private held = 0;
  private readonly heldBy = new Map<string, number>();
  private waiting: Waiter[] = [];
  private nextSeq = 0;

  constructor(
    private readonly limits: () => { budget: number; share: number; maxQueued: number },
  ) {}

  /**
   * Resolves with the run's release once `bars` fit; `onQueued` hears its place while it
   * waits (1 = next) and 0 when it is admitted after waiting. Rejects when `maxQueued` runs
   * wait already (`busy`).
   */
  acquire(
    owner: string,
    bars: number,
    onQueued?: (position: number) => void,
    busy: () => Error = () => new Error('Too many backtests are waiting'),
  ): Promise<Release> {
    const weight = Math.max(0, Math.round(bars));
    if (this.waiting.length === 0 && this.fits(owner, weight)) {
      return Promise.resolve(this.take(owner, weight));
    }
    if (this.waiting.length >= this.limits().maxQueued) return Promise.reject(busy());
    return new Promise((resume, fail) => {
      this.waiting.push({
        owner,
        seq: this.nextSeq++,
        bars: weight,
        passes: 0,
        position: 0,
        resume,
        fail,
        onQueued,
      });
      this.dispatch();
      this.announce();
    });
  }

  /** Refuses every waiting run (the server is closing). */
  failAll(error: Error): void {
    for (const waiter of this.waiting.splice(0)) waiter.fail(error);
  }

  /** Bars held by admitted runs now (tests, status). */
  heldBars(): number {
    return this.held;
  }

  /** Runs waiting for room now. */
  waitingCount(): number {
    return this.waiting.length;
  }

  private fits(owner: string, bars: number): boolean {
    return this.blockedBy(owner, bars) === null;
  }

  /** What keeps a run out: its owner's share, the budget, or nothing. */
  private blockedBy(owner: string, bars: number): 'share' | 'budget' | null {
    const { budget, share } = this.limits();
    const own = this.heldBy.get(owner) ?? 0;
    if (own > 0 && own + bars > share) return 'share';
    return this.held === 0 || this.held + bars <= budget ? null : 'budget';
  }

  private take(owner: string, bars: number): Release {
    this.held += bars;
    this.heldBy.set(owner, (this.heldBy.get(owner) ?? 0) + bars);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bars;
      const left = (this.heldBy.get(owner) ?? bars) - bars;
      if (left > 0) this.heldBy.set(owner, left);
      else this.heldBy.delete(owner);
      this.dispatch();
      this.announce();
    };
  }

  /** Admits waiting runs in their fair order while they fit (see the class). */
  private dispatch(): void {
    for (;;) {
      let started: Waiter | null = null;
      const skipped: Waiter[] = [];
      for (const waiter of queueOrder(this.waiting)) {
        const blocked = this.blockedBy(waiter.owner, waiter.bars);
        if (blocked === null) {
          started = waiter;
          break;
        }
        // a run held back by its owner's own runs waits for them, not for the others
        if (blocked === 'share') continue;
        skipped.push(waiter);
        // passed over often enough: nothing behind it starts before it
        if (waiter.passes >= MAX_PASSES) break;
      }
      if (!started) return;
      for (const waiter of skipped) waiter.passes += 1;
      this.waiting = this.waiting.filter((w) => w !== started);
      const release = this.take(started.owner, started.bars);
      if (started.position > 0) started.onQueued?.(0);
      started.resume(release);
    }
  }

  /** Tells each waiting run its place when it changed (1 = next). */
  private announce(): void {
    queueOrder(this.waiting).forEach((waiter, index) => {
      if (waiter.position === index + 1) return;
      waiter.position = index + 1;
      waiter.onQueued?.(index + 1);
    });
  }
}
