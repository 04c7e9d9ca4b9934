import { exitTriggered, isPendingTriggered } from '@ct/domain';
import type { QuoteEvent } from '../market/feed.ts';
import { SymbolQueues } from '../market/symbol-queues.ts';
import type { TradingContext } from './context.ts';
import { expirePending } from './expire-pending.ts';
import { fillPending } from './fill-pending.ts';
import type { MarginWatch } from './margin-watch.ts';
import { listWorkingPendings, listWorkingPendingsById } from './store/pendings.ts';
import { listProtectedPositions, listProtectedPositionsById } from './store/positions.ts';
import { triggerExit } from './trigger-exit.ts';

/** The queue of index reloads (no symbol has this name). */
const REFRESH_QUEUE = '\u0000refresh';

/**
 * The trigger engine: on every tick of the feed it looks, for that symbol only, at the
 * working pending orders and the positions with TP/SL in its index, and fills, closes or
 * expires what the tick reaches. Work is queued per symbol, so the ticks of a symbol are
 * handled one after another in order; every change re-checks its row under lock and
 * changes it with a conditional update, so an event fires once however fast ticks come and
 * whatever the API does meanwhile. A failed attempt leaves the entry in the index and is
 * tried again on the next tick.
 */
export class TriggerEngine {
  private readonly queues = new SymbolQueues((error, symbol) =>
    this.ctx.log.error({ err: error, symbol }, 'trigger engine task failed'),
  );
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  /**
   * @param margin the margin watch (margin-watch.ts): told of the ticks of the symbols its
   *   accounts hold, after the tick's fills and closes; reloaded with the index.
   */
  constructor(
    private readonly ctx: TradingContext,
    private readonly margin: MarginWatch | null = null,
  ) {}

  /** (Re)builds the index from the database: how the engine resumes after a restart. */
  async load(): Promise<void> {
    const [pendings, positions] = await Promise.all([
      listWorkingPendings(this.ctx.db),
      listProtectedPositions(this.ctx.db),
      this.margin?.load(),
    ]);
    this.ctx.index.clear();
    for (const p of pendings) this.ctx.index.trackPending(p);
    for (const p of positions) this.ctx.index.trackPosition(p);
  }

  /**
   * Adds what the database has and the index lacks (changes made by other API nodes), newer
   * TP/SL levels and newer pending prices; never removes: an entry that is gone is dropped
   * when it triggers and its use case finds the row changed.
   */
  async refresh(): Promise<void> {
    const [pendings, positions] = await Promise.all([
      listWorkingPendings(this.ctx.db),
      listProtectedPositions(this.ctx.db),
      this.margin?.load(),
    ]);
    for (const p of pendings) this.ctx.index.trackPending(p, true);
    for (const p of positions) this.ctx.index.trackPosition(p, true);
  }

  /**
   * Adds the given pending orders and positions as refresh does, reading only those rows:
   * what another node says it placed or changed (the cluster's account events).
   */
  async track(ids: { pendings: readonly number[]; positions: readonly number[] }): Promise<void> {
    const [pendings, positions] = await Promise.all([
      listWorkingPendingsById(this.ctx.db, ids.pendings),
      listProtectedPositionsById(this.ctx.db, ids.positions),
    ]);
    for (const p of pendings) this.ctx.index.trackPending(p, true);
    for (const p of positions) this.ctx.index.trackPosition(p, true);
  }

  /** The feed's listener: queues the tick's work if anything of the symbol is watched. */
  readonly onQuote = (event: QuoteEvent): void => {
    if (this.stopped) return;
    if (!this.ctx.index.watches(event.symbol) && !this.margin?.watches(event.symbol)) return;
    this.enqueue(event.symbol, () => this.handleTick(event));
  };

  /** Expires the GFD orders whose day has ended (also when no tick comes: markets close). */
  sweepExpired(): Promise<void> {
    const nowMs = this.ctx.now();
    const due = this.ctx.index
      .allPendings()
      .filter((p) => p.expiresAt !== null && p.expiresAt <= nowMs);
    return Promise.all(
      due.map((p) => this.enqueue(p.symbol, () => expirePending(this.ctx, p.id))),
    ).then(() => undefined);
  }

  /**
   * The server's timer: sweeps expired GFD orders every `ms` and reloads the index every
   * `refreshEvery` sweeps (tests call sweepExpired and refresh themselves).
   */
  startTimer(ms = 1000, refreshEvery = 5): void {
    if (this.timer || this.stopped) return;
    let sweeps = 0;
    this.timer = setInterval(() => {
      void this.sweepExpired();
      sweeps += 1;
      if (sweeps % refreshEvery === 0) void this.enqueue(REFRESH_QUEUE, () => this.refresh());
    }, ms);
    this.timer.unref();
  }

  /** Stops taking work; queued work still finishes (await whenIdle). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves when every queued tick has been handled. */
  whenIdle(): Promise<void> {
    return this.queues.whenIdle();
  }

  private enqueue(symbol: string, task: () => Promise<void>): Promise<void> {
    return this.queues.enqueue(symbol, task);
  }

  private async handleTick({ symbol, quote }: QuoteEvent): Promise<void> {
    const nowMs = this.ctx.now();
    let changed = false;
    for (const p of this.ctx.index.pendingsOf(symbol)) {
      if (p.expiresAt !== null && p.expiresAt <= nowMs) {
        changed = (await this.attempt(() => expirePending(this.ctx, p.id))) || changed;
      } else if (isPendingTriggered(p.side, p.trigger, p.price, quote)) {
        changed = (await this.attempt(() => fillPending(this.ctx, p.id, quote))) || changed;
      }
    }
    for (const e of this.ctx.index.exitsOf(symbol)) {
      if (exitTriggered(e.side, e, quote)) {
        changed = (await this.attempt(() => triggerExit(this.ctx, e.id, quote))) || changed;
      }
    }
    if (!this.margin) return;
    // the tick's fills and closes moved balances and lots: the watch reads them again
    if (changed) await this.attempt(() => this.margin!.load());
    await this.attempt(() => this.margin!.check(symbol));
  }

  /** One event's failure must not keep the others of the tick from running (false then). */
  private async attempt(task: () => Promise<void>): Promise<boolean> {
    try {
      await task();
      return true;
    } catch (error) {
      this.ctx.log.error({ err: error }, 'trigger engine event failed');
      return false;
    }
  }
}
