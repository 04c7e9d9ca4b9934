import { realTimers, type Timers } from './timers';

/** Subscription requests are sent this far apart (spec section 9). */
export const SUBSCRIPTION_STAGGER_MS = 50;

/** Opens and closes one instrument's live channel. */
export type ChannelTransport = {
  open(symbol: string): void;
  close(symbol: string): void;
};

/**
 * Live subscriptions counted per instrument (spec section 4): the first request opens the
 * channel, further requests add to the count, a cancel takes one away, and at zero the
 * channel closes and the instrument's cached data is cleared. Openings are staggered
 * `staggerMs` apart; a request cancelled before its turn never opens.
 */
export class RefCountedSubscriptions {
  private readonly counts = new Map<string, number>();
  private readonly opened = new Set<string>();
  private queue: string[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastOpenAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly transport: ChannelTransport,
    private readonly onCleared: (symbol: string) => void = () => {},
    private readonly staggerMs: number = SUBSCRIPTION_STAGGER_MS,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Counts one more interest in the instrument; returns its cancel (safe to call twice). */
  acquire(symbol: string): () => void {
    const count = this.counts.get(symbol) ?? 0;
    this.counts.set(symbol, count + 1);
    if (count === 0) {
      this.queue.push(symbol);
      this.pump();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(symbol);
    };
  }

  /** How many holders the instrument has. */
  count(symbol: string): number {
    return this.counts.get(symbol) ?? 0;
  }

  /** True once the instrument's channel was opened (and not closed since). */
  isOpen(symbol: string): boolean {
    return this.opened.has(symbol);
  }

  /** Instruments with at least one holder. */
  symbols(): string[] {
    return [...this.counts.keys()];
  }

  /** Closes every channel and forgets every holder. */
  clear(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    for (const symbol of this.opened) this.transport.close(symbol);
    for (const symbol of this.counts.keys()) this.onCleared(symbol);
    this.opened.clear();
    this.counts.clear();
  }

  private release(symbol: string): void {
    const count = this.counts.get(symbol) ?? 0;
    if (count > 1) {
      this.counts.set(symbol, count - 1);
      return;
    }
    if (count === 0) return;
    this.counts.delete(symbol);
    if (this.opened.delete(symbol)) this.transport.close(symbol);
    else this.queue = this.queue.filter((s) => s !== symbol);
    this.onCleared(symbol);
  }

  private pump(): void {
    if (this.timer !== null || this.queue.length === 0) return;
    const wait = this.lastOpenAt + this.staggerMs - this.timers.now();
    if (wait > 0) {
      this.timer = this.timers.setTimeout(() => {
        this.timer = null;
        this.pump();
      }, wait);
      return;
    }
    const symbol = this.queue.shift()!;
    this.lastOpenAt = this.timers.now();
    this.opened.add(symbol);
    this.transport.open(symbol);
    this.pump();
  }
}
