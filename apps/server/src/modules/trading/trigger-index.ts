import { sideOfCmd, type PendingTrigger, type Side } from '@ct/domain';
import type { Pending } from './store/pendings.ts';
import type { Position } from './store/positions.ts';

/** A working pending order as the trigger engine watches it. */
export type PendingEntry = {
  id: number;
  uuid: string;
  symbol: string;
  side: Side;
  trigger: PendingTrigger;
  price: number;
  /** Epoch ms of a GFD order's expiry; null for GTC. */
  expiresAt: number | null;
  /** The row's version: a changed price (pending/modify) is a newer one. */
  version: number;
};

/** An open position with a TP or an SL, as of its row `version`. */
export type ExitEntry = {
  id: number;
  uuid: string;
  symbol: string;
  side: Side;
  tp: number;
  sl: number;
  version: number;
};

/**
 * What the trigger engine watches, by symbol, in memory: working pending orders and open
 * positions with a TP or SL. Loaded from the database at start (TriggerEngine.load) and
 * kept current by every use case after its commit. It is only an index: each trigger is
 * re-checked against the locked database row before anything changes.
 */
export class TriggerIndex {
  private readonly pendings = new Map<string, Map<number, PendingEntry>>();
  private readonly exits = new Map<string, Map<number, ExitEntry>>();

  clear(): void {
    this.pendings.clear();
    this.exits.clear();
  }

  /**
   * Watches a pending order while it works (a changed order replaces its entry: its old price
   * triggers nothing); forgets it otherwise. With `onlyIfNewer` (a reload from the database
   * racing the use cases) a row not newer than the entry is ignored.
   */
  trackPending(p: Pending, onlyIfNewer = false): void {
    if (onlyIfNewer) {
      const known = this.pendings.get(p.symbol)?.get(p.id);
      if (known && known.version >= p.version) return;
    }
    if (p.status !== 'working') {
      this.untrackPending(p.symbol, p.id);
      return;
    }
    let bySymbol = this.pendings.get(p.symbol);
    if (!bySymbol) this.pendings.set(p.symbol, (bySymbol = new Map()));
    bySymbol.set(p.id, {
      id: p.id,
      uuid: p.uuid,
      symbol: p.symbol,
      side: sideOfCmd(p.cmd),
      trigger: p.triggerType,
      price: p.pendPrice,
      expiresAt: p.expiresAt,
      version: p.version,
    });
  }

  hasPending(symbol: string, id: number): boolean {
    return this.pendings.get(symbol)?.has(id) ?? false;
  }

  untrackPending(symbol: string, id: number): void {
    const bySymbol = this.pendings.get(symbol);
    bySymbol?.delete(id);
    if (bySymbol?.size === 0) this.pendings.delete(symbol);
  }

  /**
   * Watches an open position with a TP or SL; forgets it otherwise. With `onlyIfNewer` (a
   * reload from the database racing the use cases) a row older than the entry is ignored.
   */
  trackPosition(p: Position, onlyIfNewer = false): void {
    if (onlyIfNewer) {
      const known = this.exits.get(p.symbol)?.get(p.id);
      if (known && known.version >= p.version) return;
    }
    if (p.status !== 'open' || (!(p.tp > 0) && !(p.sl > 0))) {
      this.untrackPosition(p.symbol, p.id);
      return;
    }
    let bySymbol = this.exits.get(p.symbol);
    if (!bySymbol) this.exits.set(p.symbol, (bySymbol = new Map()));
    bySymbol.set(p.id, {
      id: p.id,
      uuid: p.uuid,
      symbol: p.symbol,
      side: sideOfCmd(p.cmd),
      tp: p.tp,
      sl: p.sl,
      version: p.version,
    });
  }

  untrackPosition(symbol: string, id: number): void {
    const bySymbol = this.exits.get(symbol);
    bySymbol?.delete(id);
    if (bySymbol?.size === 0) this.exits.delete(symbol);
  }

  /** True when anything of the symbol is watched (ticks of other symbols cost nothing). */
  watches(symbol: string): boolean {
    return this.pendings.has(symbol) || this.exits.has(symbol);
  }

  /** Snapshots, so entries can be removed while the engine goes through them. */
  pendingsOf(symbol: string): PendingEntry[] {
    return [...(this.pendings.get(symbol)?.values() ?? [])];
  }

  exitsOf(symbol: string): ExitEntry[] {
    return [...(this.exits.get(symbol)?.values() ?? [])];
  }

  allPendings(): PendingEntry[] {
    return [...this.pendings.values()].flatMap((bySymbol) => [...bySymbol.values()]);
  }

  size(): { pendings: number; exits: number } {
    let pendings = 0;
    let exits = 0;
    for (const m of this.pendings.values()) pendings += m.size;
    for (const m of this.exits.values()) exits += m.size;
    return { pendings, exits };
  }
}
