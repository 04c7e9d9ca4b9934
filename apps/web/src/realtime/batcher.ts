import { batchSettings, type BatchSettings } from './settings';
import { realTimers, type Timers } from './timers';

/**
 * Collects live updates and hands them over in batches (spec section 9): a batch is
 * flushed as soon as it holds `maxBatchSize` items, after `batchDelay` ms without a new
 * item, and at the latest `forceFlushInterval` ms after its first item, so a steady
 * stream cannot hold updates back. Settings are read at every push, so they change live.
 */
export class UpdateBatcher<T> {
  private queue: T[] = [];
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private forcedTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly onFlush: (items: T[]) => void,
    private readonly settings: () => BatchSettings = batchSettings,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Items waiting for the next flush. */
  get size(): number {
    return this.queue.length;
  }

  push(item: T): void {
    this.queue.push(item);
    const { maxBatchSize, batchDelay, forceFlushInterval } = this.settings();
    if (this.queue.length >= maxBatchSize) {
      this.flush();
      return;
    }
    if (this.idleTimer !== null) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer = this.timers.setTimeout(() => this.flush(), batchDelay);
    if (this.forcedTimer === null) {
      this.forcedTimer = this.timers.setTimeout(() => this.flush(), forceFlushInterval);
    }
  }

  /** Hands the queued items over now (nothing happens when the queue is empty). */
  flush(): void {
    this.clearTimers();
    if (this.queue.length === 0) return;
    const items = this.queue;
    this.queue = [];
    this.onFlush(items);
  }

  /** Drops queued items that match, e.g. those of an instrument no longer watched. */
  drop(predicate: (item: T) => boolean): void {
    this.queue = this.queue.filter((item) => !predicate(item));
    if (this.queue.length === 0) this.clearTimers();
  }

  dispose(): void {
    this.clearTimers();
    this.queue = [];
  }

  private clearTimers(): void {
    if (this.idleTimer !== null) this.timers.clearTimeout(this.idleTimer);
    if (this.forcedTimer !== null) this.timers.clearTimeout(this.forcedTimer);
    this.idleTimer = null;
    this.forcedTimer = null;
  }
}
