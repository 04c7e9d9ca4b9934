import {
  bucketStart,
  channelCrossed,
  crossed,
  frequencyAllows,
  indicatorSeries,
  lineLevelAt,
  nextSide,
  seriesCrossed,
  sideOf,
  zoneOf,
  type AlertFrequency,
  type CrossingCondition,
  type DrawingPoint,
  type IndicatorCondition,
  type IndicatorLine,
  type LevelSide,
  type Period,
} from '@ct/domain';
import type { QuoteEvent } from '../market/feed.ts';
import { SymbolQueues } from '../market/symbol-queues.ts';
import type { AlertContext } from './context.ts';
import type { Deliveries } from './fire.ts';
import { fireMany, type FireRequest } from './fire.ts';
import {
  expireAlert,
  listActiveAlerts,
  listAlertsById,
  writeSides,
  type SideChange,
  type WatchedAlertRow,
} from './store.ts';

/** The queue of index reloads (no symbol has this name). */
const REFRESH_QUEUE = '\u0000refresh';

/** An active alert as the engine holds it. */
type Entry = {
  id: number;
  userId: number;
  symbol: string;
  kind: string;
  condition: string;
  level: number | null;
  upper: number | null;
  lower: number | null;
  points: DrawingPoint[] | null;
  indicator: IndicatorCondition | null;
  period: Period;
  frequency: AlertFrequency;
  expiresAt: number | null;
  firedCount: number;
  lastFiredBar: number | null;
  /** The side the price was last strictly on (the row's `side`, kept in step with it). */
  side: LevelSide | null;
  version: number;
  /** The row version and its drawing's change time: a new key means a new shape. */
  key: string;
  /** Indicator alerts: the start of the bar the last tick was in. */
  barStart: number | null;
};

function entryOf(row: WatchedAlertRow): Entry {
  return {
    id: row.id,
    userId: row.userId,
    symbol: row.symbol,
    kind: row.kind,
    condition: row.condition,
    level: row.level,
    upper: row.upper,
    lower: row.lower,
    points: row.points,
    indicator: row.indicator,
    period: row.period as Period,
    frequency: row.frequency as AlertFrequency,
    expiresAt: row.expiresAt,
    firedCount: row.firedCount,
    lastFiredBar: row.lastFiredBar,
    side: row.side as LevelSide | null,
    version: row.version,
    key: `${row.version}:${row.drawingUpdatedAt ?? ''}`,
    barStart: null,
  };
}

/** A fire judged on a tick, recorded with the tick's others (fireMany). */
type Fire = FireRequest & { entry: Entry };

/** The values of one indicator line over bars. */
function lineValues(line: IndicatorLine, bars: Parameters<typeof indicatorSeries>[2]) {
  return indicatorSeries(line.kind, line.params, bars).map((v) => v[line.line] ?? null);
}

/**
 * The alert engine (docs/architecture.md, "Alerts"): runs beside the trigger engine in the
 * active feed, on the quotes the feed publishes. Each active alert keeps the side of its
 * level the price was last strictly on; a tick on the other side is a crossing. Every change
 * of side is written with a conditional update on the side it replaces, and each fire is
 * guarded the same way (a tick's fires share one transaction), so a crossing fires once
 * whichever feed judges it (a feed that takes over reads the sides the previous one wrote).
 * Work is queued per symbol.
 */
export class AlertEngine {
  private readonly entries = new Map<number, Entry>();
  private readonly bySymbol = new Map<string, Map<number, Entry>>();
  private readonly queues = new SymbolQueues((error, symbol) =>
    this.ctx.log.error({ err: error, symbol }, 'alert engine task failed'),
  );
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Called after each tick's work with the time it took from the tick (bench, metrics). */
  onTickHandled: ((symbol: string, ms: number, fired: number) => void) | null = null;

  constructor(
    private readonly ctx: AlertContext,
    readonly deliveries: Deliveries,
  ) {}

  /** How many active alerts the engine watches. */
  get size(): number {
    return this.entries.size;
  }

  /** (Re)builds the index from the database: how a (new) feed resumes. */
  load(): Promise<void> {
    return this.enqueue(REFRESH_QUEUE, async () => {
      const rows = await listActiveAlerts(this.ctx.db);
      this.entries.clear();
      this.bySymbol.clear();
      for (const row of rows) this.put(entryOf(row));
    });
  }

  /** Takes the database's active alerts: new and changed ones in, ended ones out. */
  refresh(): Promise<void> {
    return this.enqueue(REFRESH_QUEUE, async () => {
      const rows = await listActiveAlerts(this.ctx.db);
      const seen = new Set<number>();
      for (const row of rows) {
        seen.add(row.id);
        this.merge(row);
      }
      for (const id of [...this.entries.keys()]) if (!seen.has(id)) this.drop(id);
    });
  }

  /** Reads the named alerts now (created, changed or deleted by the API on some node). */
  track(ids: readonly number[]): Promise<void> {
    return this.enqueue(REFRESH_QUEUE, async () => {
      const rows = await listAlertsById(this.ctx.db, ids);
      const found = new Set(rows.map((r) => r.id));
      for (const row of rows) {
        if (row.status === 'active') this.merge(row);
        else this.drop(row.id);
      }
      for (const id of ids) if (!found.has(id)) this.drop(id);
    });
  }

  /** The feed's listener: queues the tick's work when the symbol has active alerts. */
  readonly onQuote = (event: QuoteEvent): void => {
    if (this.stopped || !this.bySymbol.has(event.symbol)) return;
    const received = performance.now();
    this.enqueue(event.symbol, () => this.handleTick(event, received));
  };

  /** Expires alerts whose time has passed (also when no tick comes). */
  sweepExpired(): Promise<void> {
    const now = this.ctx.now();
    const due = [...this.entries.values()].filter(
      (e) => e.expiresAt !== null && e.expiresAt <= now,
    );
    return Promise.all(due.map((e) => this.enqueue(e.symbol, () => this.expire(e)))).then(
      () => undefined,
    );
  }

  /** The feed's timer: expiry every `ms`, a reload every `refreshEvery` sweeps. */
  startTimer(ms = 1000, refreshEvery = 5): void {
    if (this.timer || this.stopped) return;
    let sweeps = 0;
    this.timer = setInterval(() => {
      void this.sweepExpired();
      sweeps += 1;
      if (sweeps % refreshEvery === 0) void this.refresh();
    }, ms);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves when every queued piece of work has been done. */
  whenIdle(): Promise<void> {
    return this.queues.whenIdle();
  }

  private put(entry: Entry): void {
    this.entries.set(entry.id, entry);
    let list = this.bySymbol.get(entry.symbol);
    if (!list) {
      list = new Map();
      this.bySymbol.set(entry.symbol, list);
    }
    list.set(entry.id, entry);
  }

  private drop(id: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    const list = this.bySymbol.get(entry.symbol);
    list?.delete(id);
    if (list?.size === 0) this.bySymbol.delete(entry.symbol);
  }

  /** Takes a row unless the engine holds the same shape (whose side it keeps itself). */
  private merge(row: WatchedAlertRow): void {
    const fresh = entryOf(row);
    const held = this.entries.get(row.id);
    if (held && held.key === fresh.key) {
      held.side = fresh.side;
      return;
    }
    if (held) {
      this.drop(row.id);
      fresh.barStart = held.barStart;
    }
    this.put(fresh);
  }

  private enqueue(symbol: string, task: () => Promise<void>): Promise<void> {
    return this.queues.enqueue(symbol, task);
  }

  private async handleTick({ symbol, quote }: QuoteEvent, received: number): Promise<void> {
    const list = this.bySymbol.get(symbol);
    if (!list) return;
    const now = this.ctx.now();
    // candles are built from the bid: so are crossings
    const price = quote.bid;
    const moves: SideChange[] = [];
    const fires: Fire[] = [];
    for (const entry of [...list.values()]) {
      try {
        if (entry.expiresAt !== null && entry.expiresAt <= now) {
          await this.expire(entry);
        } else if (entry.kind === 'indicator') {
          this.judgeBarClose(entry, quote.time, fires);
        } else {
          this.judgeLevel(entry, price, quote.time, moves, fires);
        }
      } catch (error) {
        // one alert's failure must not keep the others of the tick from being judged
        this.ctx.log.error({ err: error, alertId: entry.id }, 'alert judgement failed');
      }
    }
    // the tick's changes of side in one statement; an alert another judge moved is read again
    if (moves.length > 0) {
      const moved = await writeSides(this.ctx.db, moves);
      for (const move of moves) if (!moved.has(move.id)) await this.resync(move.id);
    }
    // the tick's fires in one transaction
    const fired = await this.fireAll(fires);
    this.onTickHandled?.(symbol, performance.now() - received, fired);
  }

  /** Price, channel and line alerts: the side of the tick against the level (or channel). */
  private judgeLevel(
    entry: Entry,
    price: number,
    time: number,
    moves: SideChange[],
    fires: Fire[],
  ): void {
    const isChannel = entry.kind === 'channel';
    let seen: LevelSide | null;
    let hit: boolean;
    if (isChannel) {
      seen = zoneOf(price, entry.lower ?? 0, entry.upper ?? 0);
      hit = channelCrossed(entry.condition as 'entering' | 'exiting', entry.side, seen);
    } else {
      const level =
        entry.kind === 'drawing' ? lineLevelAt(entry.points ?? [], time / 1000) : entry.level;
      if (level === null) return;
      seen = sideOf(price, level);
      hit = crossed(entry.condition as CrossingCondition, entry.side, seen);
    }
    const to = nextSide(entry.side, seen, isChannel);
    const bar = bucketStart(entry.period, time);
    if (hit && frequencyAllows(entry.frequency, entry.firedCount, entry.lastFiredBar, bar)) {
      fires.push({
        entry,
        target: entry,
        guard: { side: entry.side, to },
        at: { price, tickTime: time, bar },
      });
      return;
    }
    if (to !== entry.side) {
      moves.push({ id: entry.id, from: entry.side, to });
      entry.side = to;
    }
  }

  /** Indicator alerts: at the first tick of a new bar, the closed bar's crossing. */
  private judgeBarClose(entry: Entry, time: number, fires: Fire[]): void {
    const barStart = bucketStart(entry.period, time);
    const previous = entry.barStart;
    entry.barStart = barStart;
    if (previous === null || barStart <= previous || !entry.indicator) return;
    const condition = entry.indicator;
    const bars = this.ctx.market.bars(
      entry.symbol,
      entry.period,
      barStart,
      this.ctx.settings.indicatorBars,
      this.ctx.now(),
    );
    const closed = bars.at(-1);
    if (!closed) return;
    const a = lineValues(condition.line, bars);
    const b = condition.other ? lineValues(condition.other, bars) : null;
    const differences = a.map((value, i) => {
      const other = b ? b[i] : condition.threshold;
      return value === null || other === null || other === undefined ? null : value - other;
    });
    if (!seriesCrossed(entry.condition as CrossingCondition, differences)) return;
    if (!frequencyAllows(entry.frequency, entry.firedCount, entry.lastFiredBar, closed.time)) {
      return;
    }
    fires.push({
      entry,
      target: entry,
      guard: { bar: closed.time },
      at: { price: closed.close, tickTime: barStart, bar: closed.time },
    });
  }

  /**
   * Records a tick's fires in one transaction (each still guarded by its own conditional
   * update); an alert whose row no longer matched is read again. Answers how many fired.
   */
  private async fireAll(fires: readonly Fire[]): Promise<number> {
    if (fires.length === 0) return 0;
    let rows: Awaited<ReturnType<typeof fireMany>>;
    try {
      rows = await fireMany(this.ctx, this.deliveries, fires);
    } catch (error) {
      // nothing of the tick's fires was written: the rows as they are decide the next tick
      this.ctx.log.error(
        { err: error, alerts: fires.map((f) => f.entry.id) },
        'alert fires failed',
      );
      for (const f of fires) await this.resync(f.entry.id);
      return 0;
    }
    let fired = 0;
    for (const [i, row] of rows.entries()) {
      const entry = fires[i]!.entry;
      if (!row) {
        await this.resync(entry.id);
      } else if (row.status !== 'active') {
        fired += 1;
        this.drop(entry.id);
      } else {
        fired += 1;
        entry.side = row.side as LevelSide | null;
        entry.firedCount = row.firedCount;
        entry.lastFiredBar = row.lastFiredBar;
      }
    }
    return fired;
  }

  private async expire(entry: Entry): Promise<void> {
    await expireAlert(this.ctx.db, entry.id, this.ctx.now());
    this.drop(entry.id);
  }

  /** Another judge (or an edit) changed the row: take it as it is now. */
  private async resync(id: number): Promise<void> {
    const [row] = await listAlertsById(this.ctx.db, [id]);
    if (row && row.status === 'active') {
      this.drop(id);
      this.put(entryOf(row));
    } else {
      this.drop(id);
    }
  }
}
