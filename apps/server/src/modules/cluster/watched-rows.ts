import { Coalesced } from './coalesce.ts';

// Account events after which the active feed's trigger engine may have something new to
// watch that another node wrote: a pending order or a position with TP/SL, or new levels.
// The row each names is what the engine reads.
const WATCH_EVENTS: Record<string, { kind: 'pendings' | 'positions'; field: 'pId' | 'orderId' }> = {
  pending_added: { kind: 'pendings', field: 'pId' },
  pending_modified: { kind: 'pendings', field: 'pId' },
  position_opened: { kind: 'positions', field: 'orderId' },
  tpsl_changed: { kind: 'positions', field: 'orderId' },
};

/** The pending order or position an account event names for the trigger engine, or null. */
export function watchedRowOf(
  channel: string,
  data: unknown,
): { kind: 'pendings' | 'positions'; id: number } | null {
  if (!channel.startsWith('account:') || typeof data !== 'object' || data === null) return null;
  const event = data as Record<string, unknown>;
  const watch = typeof event.type === 'string' ? WATCH_EVENTS[event.type] : undefined;
  if (!watch) return null;
  const id = Number(event[watch.field]);
  return Number.isSafeInteger(id) && id > 0 ? { kind: watch.kind, id } : null;
}

/** The least time between two reads of named rows (ms): a burst of orders costs ≤ 100 reads/s. */
export const WATCHED_ROWS_GAP_MS = 10;

/**
 * The rows named by the account events heard since the last read, read together, at most
 * one read per `gapMs`: under a burst of orders each read takes what came meanwhile, so
 * the feed's reads (one query, one write to PostgreSQL each) do not grow with the order
 * rate. A row is watched within about `gapMs` and one query of its event. A read that
 * fails loses its ids; the engine's full reload every few seconds finds them.
 */
export class WatchedRows {
  private ids = { pendings: new Set<number>(), positions: new Set<number>() };
  private readonly reads: Coalesced;
  private lastRead = -Infinity;

  constructor(
    engine: { track(ids: { pendings: number[]; positions: number[] }): Promise<void> },
    gapMs = WATCHED_ROWS_GAP_MS,
  ) {
    this.reads = new Coalesced(async () => {
      const wait = this.lastRead + gapMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.lastRead = performance.now();
      const { pendings, positions } = this.ids;
      this.ids = { pendings: new Set(), positions: new Set() };
      await engine.track({ pendings: [...pendings], positions: [...positions] });
    });
  }

  add(row: { kind: 'pendings' | 'positions'; id: number }): Promise<void> {
    this.ids[row.kind].add(row.id);
    return this.reads.request();
  }
}
