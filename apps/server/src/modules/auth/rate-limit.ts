/** Milliseconds since the epoch; injected so tests move time without sleeping. */
export type Clock = () => number;

/**
 * Counts events per key over a sliding window. Keeps at most `limit` timestamps per key,
 * and drops idle keys now and then so memory stays bounded under random keys.
 */
export class SlidingWindowCounter {
  private readonly events = new Map<string, number[]>();
  private recordsSinceSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: Clock,
  ) {}

  private live(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.events.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.events.delete(key);
    else this.events.set(key, list);
    return list;
  }

  /** Milliseconds until the key may act again; 0 when it may act now. */
  blockedForMs(key: string): number {
    const list = this.live(key);
    if (list.length < this.limit) return 0;
    const oldestThatCounts = list[list.length - this.limit] ?? this.now();
    return Math.max(1, oldestThatCounts + this.windowMs - this.now());
  }

  /** Counts one event now and returns its timestamp (for `forget`). */
  record(key: string): number {
    const at = this.now();
    const list = this.live(key);
    list.push(at);
    this.events.set(key, list.slice(-this.limit));
    if (++this.recordsSinceSweep >= 1000) this.sweep();
    return at;
  }

  /** Removes one event recorded at `at` (an attempt that turned out fine). */
  forget(key: string, at: number): void {
    const list = this.events.get(key);
    if (!list) return;
    const index = list.indexOf(at);
    if (index !== -1) list.splice(index, 1);
    if (list.length === 0) this.events.delete(key);
  }

  clear(key: string): void {
    this.events.delete(key);
  }

  get size(): number {
    return this.events.size;
  }

  private sweep(): void {
    this.recordsSinceSweep = 0;
    for (const key of [...this.events.keys()]) this.live(key);
  }
}

export type WindowLimit = { limit: number; windowMs: number };

/** The answer text for a blocked login; minutes rounded up, at least 1. */
export function rateLimitMessage(blockedForMs: number): string {
  const minutes = Math.max(1, Math.ceil(blockedForMs / 60_000));
  return `Too many failed login attempts. Please try again in ${minutes} minutes.`;
}
