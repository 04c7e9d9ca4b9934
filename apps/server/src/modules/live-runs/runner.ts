import {
  CLOSE_REASON,
  LIVE_RUN_CREATED,
  liveRunTransition,
  bucketStart,
  formatContractDate,
  liveRunComment,
  liveRunLogClientId,
  nextBucketStart,
  reconcile,
  wantedPositions,
  type Bar,
  type HeldPosition,
  type LiveRunEvaluationView,
  type LiveRunOrderView,
  type Period,
  type ValidTrade,
  type WantedPosition,
} from '@ct/domain';
import { eq } from 'drizzle-orm';
import { traders, type LiveRunRow, type TraderRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { LogHub } from '../backtest/log-hub.ts';
import type { SandboxPool } from '../backtest/sandbox/pool.ts';
import type { MarketFeed, QuoteEvent } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import { finishJob } from '../jobs/store.ts';
import { JobWorker, type JobContext } from '../jobs/worker.ts';
import { closePosition } from '../trading/close-position.ts';
import { publishAccountEvent } from '../trading/events.ts';
import type { TradingContext } from '../trading/context.ts';
import { placeMarketOrder } from '../trading/place-market-order.ts';
import { feedsAtClose, runStrategy, type StrategyOutcome } from './evaluate.ts';
import { judgeEvaluation, orderLine, type Followed } from './evaluation.ts';
import type { LiveRunSettings } from './settings.ts';
import {
  LIVE_RUN_QUEUE,
  heldPositions,
  insertOrder,
  recordEvaluation,
  runBatchKey,
  runById,
  type NewLiveRunOrder,
} from './store.ts';

/*
 * The live-run runner: a running run is a long-lived job of the `live-run` queue
 * (modules/jobs: claimed, leased, renewed and taken over after a crash like every job),
 * held by one runner for as long as it runs; at every bar close of a run's instrument and period
 * runs the strategy on the closed bars, reconciles what it wants with what the run holds,
 * and sends market orders through the trading pipeline like a person's. Bar closes are seen
 * on the feed's quotes (the first tick of a new bar closes the previous one) and on a timer.
 */

/** Prefix of the lines the runner itself sends on a run's log socket. */
export const LIVE_LOG_PREFIX = '[live]';
/** Printed lines an evaluation keeps (all are streamed). */
const MAX_KEPT_LINES = 200;
const MAX_KEPT_LINE_CHARS = 1000;

export type EvaluatedEvent = {
  runId: string;
  /** The bar close, UTC ms. */
  closeMs: number;
  /** When each order filled (UTC ms, the trading clock). */
  fillsAt: number[];
  view: LiveRunEvaluationView;
};

export type LiveRunnerOptions = {
  db: Db;
  market: MarketData;
  feed: Pick<MarketFeed, 'onQuote'>;
  trading: TradingContext;
  pool: SandboxPool;
  logs: LogHub;
  now: () => number;
  settings: LiveRunSettings;
  log: {
    warn: (details: Record<string, unknown>, message: string) => void;
    error: (details: Record<string, unknown>, message: string) => void;
  };
  /** This runner's name in `lease_owner`; unique per start. */
  owner?: string;
  /** After a written evaluation that failed or stopped the run: tells the user. */
  onFailed?: (
    run: { id: string; userId: number; strategyName: string; symbol: string },
    barTimeMs: number,
    error: string | null,
    stoppedWith: string | null,
  ) => Promise<void>;
  /** Called after each written evaluation (the benchmark measures delays with it). */
  onEvaluated?: (event: EvaluatedEvent) => void;
  /**
   * Tests: called when the trading pipeline has answered an order and before the run keeps
   * it; a SimulatedCrash thrown there stands for the process dying between the two.
   */
  afterOrderSent?: (runId: string, clientOrderId: string) => Promise<void>;
};

type HeldRun = {
  row: LiveRunRow;
  trader: TraderRow | null;
  busy: Promise<void> | null;
  /** A check came while busy: check again when done. */
  again: boolean;
  /** The bar in progress when the bars were last read and held no new closed bar. */
  lookedAt: number | null;
  /** Ends the run's job handler (the run ended, or its job is no longer held here). */
  release: () => void;
};

/** A crash stand-in thrown by tests from `afterOrderSent`: nothing more of the evaluation is written. */
export class SimulatedCrash extends Error {}

export class LiveRunner {
  private readonly jobs: JobWorker;
  private readonly runs = new Map<string, HeldRun>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Claimed jobs whose run is being read. */
  private readonly loading = new Set<Promise<unknown>>();
  /** Strategy runs waiting for one of the runner's sandbox slots. */
  private readonly waiting: (() => void)[] = [];
  private active = 0;
  private abandoned = false;

  constructor(private readonly options: LiveRunnerOptions) {
    const { settings } = options;
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
    return loaded.then((held) => held?.ended);
  }

  /** Reads a claimed job's run and holds it; `ended` settles when it is no longer held here. */
  private async load({ job, owner, signal }: JobContext): Promise<{ ended: Promise<void> } | null> {
    const { db, now } = this.options;
    const runId = String((job.payload as { runId?: unknown }).runId);
    const row = await runById(db, runId);
    if (!row || row.status !== 'running') {
      // stopped meanwhile: its job has nothing left to do
      await finishJob(db, job.id, owner, 'done', now());
      return null;
    }
    let release = () => undefined as void;
    const ended = new Promise<void>((resolve) => {
      release = resolve;
    });
    const run: HeldRun = { row, trader: null, busy: null, again: false, lookedAt: null, release };
    if (signal.aborted) return null;
    signal.addEventListener('abort', () => release(), { once: true });
    this.runs.set(row.id, run);
    void ended.then(() => {
      if (this.runs.get(row.id) === run) this.runs.delete(row.id);
    });
    this.check(run);
    return { ended };
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
    const closed = this.closedBar(run);
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
   * The newest closed bar the run has not evaluated, with the window before it; or null.
   * Called on every tick of the run's instrument: the bars are read only once a new bar
   * has begun since the last one evaluated (and once per bar while none closed, e.g. a
   * closed market).
   */
  private closedBar(run: HeldRun): { bars: Bar[]; closeMs: number } | null {
    const { market, now, settings } = this.options;
    const row = run.row;
    const period = row.period as Period;
    const nowMs = now();
    const current = bucketStart(period, nowMs);
    if (current <= row.startBarTime) return null;
    if (row.lastBarTime !== null && current <= nextBucketStart(period, row.lastBarTime)) {
      return null;
    }
    if (run.lookedAt === current) return null;
    const bars = market.bars(row.symbol, period, current, settings.windowBars, nowMs);
    const last = bars.at(-1);
    if (
      !last ||
      last.time < row.startBarTime ||
      (row.lastBarTime !== null && last.time <= row.lastBarTime)
    ) {
      run.lookedAt = current;
      return null;
    }
    return { bars, closeMs: Math.min(nextBucketStart(period, last.time), current) };
  }

  /** Runs a strategy when one of the runner's sandbox slots is free. */
  private async withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.options.settings.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  private async traderOf(run: HeldRun): Promise<TraderRow | null> {
    if (run.trader) return run.trader;
    const [row] = await this.options.db
      .select()
      .from(traders)
      .where(eq(traders.uuid, run.row.traderUuid));
    run.trader = row ?? null;
    return run.trader;
  }

  /**
   * One evaluation of a closed bar, in its steps: the strategy runs on the window, its wanted
   * positions are followed with orders, and the evaluation is judged and recorded.
   */
  private async evaluate(run: HeldRun, closed: { bars: Bar[]; closeMs: number }): Promise<void> {
    const row = run.row;
    const bar = closed.bars.at(-1);
    if (!bar) return;
    const clientId = liveRunLogClientId(row.id);
    const say = (line: string) => this.options.logs.publish(row.userId, clientId, line);
    say(
      `${LIVE_LOG_PREFIX} Bar ${formatContractDate(bar.time)} closed: running ${row.strategyName} on ${closed.bars.length} bars`,
    );
    const { outcome, printed } = await this.runCode(row, closed, say);
    // stopping (the sandbox may be closing): the bar is evaluated by whoever holds the run next
    if (!this.running) return;
    let followed: Followed;
    if (outcome.ok) {
      followed = await this.follow(run, row, closed, bar, outcome.trades);
      for (const order of followed.orders) say(orderLine(LIVE_LOG_PREFIX, order));
    } else {
      followed = { error: outcome.error, wanted: [], orders: [], fillsAt: [] };
      for (const line of outcome.error.split('\n')) say(line);
    }
    await this.record(run, row, closed, bar, printed, followed, say);
  }

  /** The strategy on the window, in one of the runner's slots; the printed lines kept. */
  private async runCode(
    row: LiveRunRow,
    closed: { bars: Bar[]; closeMs: number },
    say: (line: string) => void,
  ): Promise<{ outcome: StrategyOutcome; printed: string[] }> {
    const printed: string[] = [];
    const outcome = await this.withSlot(() =>
      runStrategy(
        this.options.pool,
        {
          code: row.code,
          filename: `${row.strategyName}.py`,
          symbol: row.symbol,
          period: row.period,
          bars: closed.bars,
          ...(row.feeds
            ? {
                feeds: feedsAtClose(
                  this.options.market,
                  { code: row.symbol, period: row.period as Period, bars: closed.bars },
                  row.feeds,
                  closed.closeMs,
                  this.options.settings.windowBars,
                  this.options.now(),
                ),
              }
            : {}),
        },
        `live:${row.userId}`,
        (line) => {
          if (printed.length < MAX_KEPT_LINES) printed.push(line.slice(0, MAX_KEPT_LINE_CHARS));
          say(line);
        },
      ),
    );
    return { outcome, printed };
  }

  /** What the strategy wants against what the run holds: the orders sent to get there. */
  private async follow(
    run: HeldRun,
    row: LiveRunRow,
    closed: { bars: Bar[]; closeMs: number },
    bar: Bar,
    trades: ValidTrade[],
  ): Promise<Followed> {
    const { db, now } = this.options;
    let error: string | null = null;
    const wanted = wantedPositions(trades);
    const orders: LiveRunOrderView[] = [];
    const fillsAt: number[] = [];
    const held = await heldPositions(db, row.id);
    const plan = reconcile({
      wanted,
      held,
      lotsMultiplier: row.lots,
      maxPositions: row.maxPositions,
      notBefore: row.startBarTime,
    });
    const trader = await this.traderOf(run);
    if (!trader) error = 'The trading account of this run no longer exists';
    else {
      // closes first: they free the margin the opens may need
      const sent = (order: LiveRunOrderView) => {
        const at = now();
        if (order.status === 'filled') fillsAt.push(at);
        orders.push({
          ...order,
          fill_delay_ms:
            order.status === 'filled' ? Math.max(0, Math.round(at - closed.closeMs)) : null,
        });
      };
      for (const position of plan.close) sent(await this.close(row, trader, position, bar));
      for (const want of plan.open) sent(await this.open(row, trader, want, bar));
      const refused = orders.find((o) => o.status === 'rejected');
      if (refused) error = `Order refused: ${refused.message}`;
    }
    return { error, wanted, orders, fillsAt };
  }

  /** Writes the evaluation while the run is held here, then tells the account's pages. */
  private async record(
    run: HeldRun,
    row: LiveRunRow,
    closed: { bars: Bar[]; closeMs: number },
    bar: Bar,
    printed: string[],
    followed: Followed,
    say: (line: string) => void,
  ): Promise<void> {
    const { db, settings, now } = this.options;
    const { error, orders, fillsAt } = followed;
    const { failed, failures, failWith, view } = judgeEvaluation(
      row,
      closed,
      bar,
      printed,
      followed,
      now(),
    );
    const atMs = closed.closeMs;
    const written = await recordEvaluation(db, {
      runId: row.id,
      owner: this.owner,
      view,
      barTimeMs: bar.time,
      atMs,
      ordersSent: orders.length,
      failed,
      failWith,
      keep: settings.keepEvaluations,
    });
    if (!written) {
      // stopped meanwhile, or another runner holds it now
      this.forget(run);
      return;
    }
    run.row = {
      ...row,
      lastBarTime: bar.time,
      lastEvaluationAt: atMs,
      consecutiveFailures: failures,
      evaluations: row.evaluations + 1,
      orders: row.orders + orders.length,
    };
    if (failed) void this.options.onFailed?.(row, bar.time, error, failWith);
    if (failWith !== null) {
      say(`${LIVE_LOG_PREFIX} ${failWith}`);
      this.forget(run);
    }
    // the account's pages hear of it after the commit, like of the orders it sent
    publishAccountEvent(this.options.trading, {
      type: 'live_run_evaluated',
      uuid: row.traderUuid,
      symbol: row.symbol,
      at: atMs,
      runId: row.id,
      // the evaluation was stored, so the run was running
      status: liveRunTransition(LIVE_RUN_CREATED, failWith === null ? 'Evaluated' : 'Failed'),
      failed,
      evaluations: run.row.evaluations,
      orders: run.row.orders,
    });
    this.options.onEvaluated?.({ runId: row.id, closeMs: atMs, fillsAt, view });
  }

  /** The run is no longer held here: its job handler ends. */
  private forget(run: HeldRun): void {
    if (this.runs.get(run.row.id) === run) this.runs.delete(run.row.id);
    run.release();
  }

  /** The idempotency key prefix of a run's orders (keys are per trading account). */
  private static prefix(runId: string): string {
    return `lr${runId.replaceAll('-', '').slice(0, 12)}`;
  }

  private async open(
    row: LiveRunRow,
    trader: TraderRow,
    want: WantedPosition & { volume: number },
    bar: Bar,
  ): Promise<LiveRunOrderView> {
    const [, , n] = want.key.split(':');
    // one key per strategy record for the whole run: a retry after a crash (even at a later
    // bar) replays the first answer instead of opening the position twice
    const clientOrderId = `${LiveRunner.prefix(row.id)}-o${Math.floor(want.openTime / 1000)}-${want.cmd}-${n ?? 0}`;
    // the strategy's own price when it entered at this bar, else this bar's close (late)
    const strategyPrice = want.openTime >= bar.time ? want.openPrice : bar.close;
    const base = {
      action: 'open' as const,
      cmd: want.cmd,
      volume: want.volume,
      client_order_id: clientOrderId,
      strategy_price: strategyPrice,
    };
    let view: LiveRunOrderView;
    let reference: number | null = null;
    let commission = 0;
    try {
      const { data } = await placeMarketOrder(this.options.trading, trader, {
        uuid: trader.uuid,
        token: '',
        symbol: row.symbol,
        cmd: want.cmd,
        volume: want.volume,
        tp: 0,
        sl: 0,
        comment: liveRunComment(row.id),
        clientOrderId,
      });
      const order = data.order;
      // kline prices are bids: a buy fills at the ask (its view's market price is the bid)
      reference = want.cmd === 1 ? order.marketPrice : order.price;
      commission = order.commissionFee;
      view = {
        ...base,
        order_id: order.orderId,
        status: 'filled',
        price: order.price,
        message: '',
      };
    } catch (error) {
      view = {
        ...base,
        order_id: null,
        status: 'rejected',
        price: null,
        message: messageOf(error),
      };
      this.logUnexpected(error, row.id);
    }
    await this.options.afterOrderSent?.(row.id, clientOrderId);
    await insertOrder(
      this.options.db,
      this.orderRow(row, bar, view, want.key, reference, commission),
    );
    return view;
  }

  private async close(
    row: LiveRunRow,
    trader: TraderRow,
    held: HeldPosition,
    bar: Bar,
  ): Promise<LiveRunOrderView> {
    const clientOrderId = `${LiveRunner.prefix(row.id)}-c${held.positionId}`;
    const cmd = held.cmd === 1 ? 2 : 1;
    const base = {
      action: 'close' as const,
      cmd: cmd as 1 | 2,
      volume: held.volume,
      client_order_id: clientOrderId,
      strategy_price: bar.close,
    };
    const quote = this.options.trading.feed.latestQuote(row.symbol);
    let view: LiveRunOrderView;
    let reference: number | null = null;
    let commission = 0;
    try {
      const { data } = await closePosition(
        this.options.trading,
        trader,
        {
          uuid: trader.uuid,
          token: '',
          orderId: held.positionId,
          volume: held.volume,
          closeTypeYT: 0,
          clientOrderId,
        },
        CLOSE_REASON.strategy,
      );
      const price = data.settle.closePrice;
      // closing a buy sells at the bid; closing a sell buys at the ask, a spread above the bid
      const spread = quote ? quote.ask - quote.bid : null;
      reference = held.cmd === 1 ? price : spread === null ? null : price - spread;
      commission = data.settle.closeCommission;
      view = { ...base, order_id: held.positionId, status: 'filled', price, message: '' };
    } catch (error) {
      view = {
        ...base,
        order_id: held.positionId,
        status: 'rejected',
        price: null,
        message: messageOf(error),
      };
      this.logUnexpected(error, row.id);
    }
    await this.options.afterOrderSent?.(row.id, clientOrderId);
    await insertOrder(this.options.db, this.orderRow(row, bar, view, null, reference, commission));
    return view;
  }

  private orderRow(
    row: LiveRunRow,
    bar: Bar,
    view: LiveRunOrderView,
    wantedKey: string | null,
    reference: number | null,
    commission: number,
  ): NewLiveRunOrder {
    return {
      runId: row.id,
      clientOrderId: view.client_order_id,
      barTime: bar.time,
      action: view.action,
      cmd: view.cmd,
      volume: view.volume,
      wantedKey,
      positionId: view.order_id,
      status: view.status,
      price: view.price,
      reference,
      strategyPrice: view.strategy_price,
      commission,
      message: view.message,
      at: this.options.now(),
    };
  }

  private logUnexpected(error: unknown, runId: string): void {
    if (error instanceof AppError) return;
    this.options.log.error({ err: error, run: runId }, 'a live run order failed unexpectedly');
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return 'The order could not be sent (internal error; see the server log)';
}
