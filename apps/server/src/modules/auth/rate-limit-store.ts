/**
 * Where the login and chat limits keep their counters. In memory for one process
 * (`MemoryRateLimitStore`); with several API nodes a shared implementation (Redis) makes
 * the limits hold across nodes. Every method is atomic for its key, and times are epoch
 * milliseconds passed in by the caller (the store reads no clock).
 */
export interface RateLimitStore {
  /**
   * Counts one event of `key` at `at` and forgets the key's events older than `windowMs`;
   * returns how many events the window now holds (this one included). Keeps the newest
   * `keep` events at most (default `MAX_EVENTS_PER_KEY`, what the login limits need).
   */
  hit(key: string, at: number, windowMs: number, keep?: number): Promise<number>;
  /** The key's event times within `windowMs` before `now`, oldest first. */
  events(key: string, now: number, windowMs: number): Promise<number[]>;
  /** Takes back one event recorded at `at` (an attempt that turned out fine). */
  unhit(key: string, at: number): Promise<void>;
  /** Forgets the key: its events and its turns. */
  clear(key: string): Promise<void>;
  /**
   * Takes the key's next turn: at `max(now, end of the previous turn)`, lasting `spacingMs`.
   * Returns the turn's start, or null (and takes nothing) when it would start more than
   * `maxWaitMs` after `now`. Turns are handed out in call order, so parallel callers queue.
   */
  takeTurn(key: string, now: number, spacingMs: number, maxWaitMs: number): Promise<number | null>;
}

/** Events kept per key at most by default: the login limits never need to count further. */
export const MAX_EVENTS_PER_KEY = 64;
/** Operations between two sweeps of idle keys. */
const SWEEP_EVERY = 1000;

/**
 * The store of one process. Idle keys (no event within the key's window, no turn ahead)
 * are swept now and then, so random keys (guessed emails) cannot grow it without bound.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  /** Each key's events, with the window they were last counted in (for the sweep). */
  private readonly eventsByKey = new Map<string, { windowMs: number; list: number[] }>();
  private readonly turnEnds = new Map<string, number>();
  private opsSinceSweep = 0;
  private lastNow = 0;

  async hit(key: string, at: number, windowMs: number, keep = MAX_EVENTS_PER_KEY): Promise<number> {
    this.touch(at);
    const list = this.live(key, at, windowMs);
    list.push(at);
    const kept = list.length > keep ? list.slice(-keep) : list;
    this.eventsByKey.set(key, { windowMs, list: kept });
    return kept.length;
  }

  async events(key: string, now: number, windowMs: number): Promise<number[]> {
    this.touch(now);
    return [...this.live(key, now, windowMs)];
  }

  async unhit(key: string, at: number): Promise<void> {
    const entry = this.eventsByKey.get(key);
    if (!entry) return;
    const index = entry.list.indexOf(at);
    if (index !== -1) entry.list.splice(index, 1);
    if (entry.list.length === 0) this.eventsByKey.delete(key);
  }

  async clear(key: string): Promise<void> {
    this.eventsByKey.delete(key);
    this.turnEnds.delete(key);
  }

  async takeTurn(
    key: string,
    now: number,
    spacingMs: number,
    maxWaitMs: number,
  ): Promise<number | null> {
    this.touch(now);
    const start = Math.max(now, this.turnEnds.get(key) ?? now);
    if (start - now > maxWaitMs) return null;
    this.turnEnds.set(key, start + spacingMs);
    return start;
  }

  /** Keys held (events or turns); for tests of the memory bound. */
  get size(): number {
    return new Set([...this.eventsByKey.keys(), ...this.turnEnds.keys()]).size;
  }

  private live(key: string, now: number, windowMs: number): number[] {
    const cutoff = now - windowMs;
    const list = (this.eventsByKey.get(key)?.list ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.eventsByKey.delete(key);
    else this.eventsByKey.set(key, { windowMs, list });
    return list;
  }

  private touch(now: number): void {
    this.lastNow = Math.max(this.lastNow, now);
    if (++this.opsSinceSweep >= SWEEP_EVERY) this.sweep();
  }

  private sweep(): void {
    this.opsSinceSweep = 0;
    for (const [key, { windowMs, list }] of this.eventsByKey) {
      const cutoff = this.lastNow - windowMs;
      if (!list.some((t) => t > cutoff)) this.eventsByKey.delete(key);
    }
    for (const [key, end] of this.turnEnds) {
      if (end <= this.lastNow) this.turnEnds.delete(key);
    }
  }
}
