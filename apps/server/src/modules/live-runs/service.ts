import { randomUUID } from 'node:crypto';
import {
  toEpochSec,
  toEpochMs,
  availableVolume,
  backtestTradesOf,
  bucketStart,
  closingPrice,
  compareRuns,
  isReservedStrategyName,
  liveRunComment,
  nextBucketStart,
  profitLoss,
  LIVE_RUN_CREATED,
  roundMoney,
  sideOfCmd,
  type ForwardTrade,
  type LiveRunComparison,
  type LiveRunComparisonQuery,
  type LiveRunEvaluations,
  type LiveRunEvaluationView,
  type LiveRunStarted,
  type LiveRunView,
  type Period,
  type StartLiveRunRequest,
} from '@ct/domain';
import { and, eq, inArray } from 'drizzle-orm';
import {
  positions,
  settlements,
  strategies,
  type LiveRunOrderRow,
  type LiveRunRow,
  type TraderRow,
} from '../../db/schema.ts';
import { rawQuery } from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';
import { AppError, NotFoundError } from '../../http/errors.ts';
import { findTask } from '../ai/tasks-store.ts';
import type { SandboxPool } from '../backtest/sandbox/pool.ts';
import type { MarketFeed } from '../market/feed.ts';
import type { MarketData } from '../market/market-data.ts';
import { defaultStrategyCode } from '../strategy/template.ts';
import { feedsBeside, runStrategy } from './evaluate.ts';
import type { LiveRunner } from './runner.ts';
import type { LiveRunSettings } from './settings.ts';
import {
  countRunning,
  evaluationsPage,
  findRun,
  insertRun,
  listRuns,
  positionsTagged,
  realizedByComment,
  runOrders,
  stopRun,
} from './store.ts';

/** A start the server cannot act on (over the limit, unknown strategy or symbol): 422. */
export class LiveRunRefusedError extends AppError {
  constructor(message: string) {
    super(42200, message, 422);
  }
}

/** Runs GET /api/live-runs lists at most (newest first). */
export const MAX_LISTED_RUNS = 200;

export type LiveRunServiceDeps = {
  db: Db;
  market: MarketData;
  feed: Pick<MarketFeed, 'latestQuote'>;
  pool: SandboxPool;
  now: () => number;
  settings: LiveRunSettings;
  /** The runner of this process, when it runs one: told of starts and stops at once. */
  runner: () => LiveRunner | null;
};

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Live run not found: ${id}`);
}

export function createLiveRunService(deps: LiveRunServiceDeps) {
  const { db, market, now, settings } = deps;

  /** The code a start names: a saved strategy, the built-in Default, or an AI task's. */
  async function codeOf(userId: number, request: StartLiveRunRequest): Promise<string> {
    if (request.task_id !== null && request.task_id !== undefined) {
      const task = await findTask(db, userId, request.task_id);
      if (!task) throw new LiveRunRefusedError(`AI task not found: ${request.task_id}`);
      if (task.status !== 'COMPLETED' || !task.code) {
        throw new LiveRunRefusedError(`AI task ${request.task_id} has no completed code to run`);
      }
      return task.code;
    }
    if (isReservedStrategyName(request.strategy_name)) return defaultStrategyCode();
    const [row] = await db
      .select({ code: strategies.code })
      .from(strategies)
      .where(and(eq(strategies.userId, userId), eq(strategies.name, request.strategy_name)));
    if (!row) throw new LiveRunRefusedError(`Strategy not found: ${request.strategy_name}`);
    if (row.code.trim() === '') {
      throw new LiveRunRefusedError(`Strategy ${request.strategy_name} has no code`);
    }
    return row.code;
  }

  /** Net profit and open positions of runs, from their tagged positions and settlements. */
  async function figuresOf(
    rows: readonly LiveRunRow[],
  ): Promise<Map<string, { net: number; open: number }>> {
    const uuids = [...new Set(rows.map((r) => r.traderUuid))];
    const comments = rows.map((r) => liveRunComment(r.id));
    const [tagged, realized] = await Promise.all([
      positionsTagged(db, uuids, comments),
      realizedByComment(db, uuids, comments),
    ]);
    const figures = new Map<string, { net: number; open: number }>();
    for (const row of rows) {
      figures.set(row.id, { net: realized.get(liveRunComment(row.id)) ?? 0, open: 0 });
    }
    for (const p of tagged) {
      const id = p.comment.slice('live:'.length);
      const entry = figures.get(id);
      const left = availableVolume(p);
      if (!entry || p.status !== 'open' || left <= 0) continue;
      entry.open += 1;
      const instrument = market.instrument(p.symbol);
      const quote = deps.feed.latestQuote(p.symbol) ?? market.lastQuoteAt(p.symbol, now());
      const side = sideOfCmd(p.cmd);
      const floating =
        instrument && quote
          ? profitLoss(side, p.price, closingPrice(side, quote), left, instrument)
          : 0;
      // the open commission of what is still open (settled parts carried their share)
      entry.net += floating - (p.commissionFee * left) / p.volume;
    }
    return figures;
  }

  function viewOf(
    row: LiveRunRow,
    figures: { net: number; open: number } | undefined,
  ): LiveRunView {
    return {
      id: row.id,
      strategy_name: row.strategyName,
      task_id: row.taskId,
      uuid: row.traderUuid,
      symbol_id: row.symbol,
      period: row.period as Period,
      lots: row.lots,
      max_positions: row.maxPositions,
      status: row.status as LiveRunView['status'],
      started_at: toEpochSec(row.startedAt),
      stopped_at: row.stoppedAt === null ? null : toEpochSec(row.stoppedAt),
      evaluations: row.evaluations,
      orders: row.orders,
      net_profit: roundMoney(figures?.net ?? 0),
      open_positions: figures?.open ?? 0,
      last_evaluation_at: row.lastEvaluationAt === null ? null : toEpochSec(row.lastEvaluationAt),
      consecutive_failures: row.consecutiveFailures,
      max_failures: row.maxFailures,
      error: row.error,
      ...(row.feeds
        ? { feeds: row.feeds.map((f) => ({ symbol_id: f.symbol_id, period: f.period as Period })) }
        : {}),
    };
  }

  async function ownRun(userId: number, id: string): Promise<LiveRunRow> {
    const row = await findRun(db, userId, id);
    if (!row) throw notFound(id);
    return row;
  }

  /** The run's forward trades: its filled opens, each with its close when there is one. */
  async function forwardTrades(
    row: LiveRunRow,
    orders: readonly LiveRunOrderRow[],
    period: Period,
  ): Promise<(ForwardTrade & { positionId: string })[]> {
    const closes = new Map<string, LiveRunOrderRow>();
    for (const o of orders) {
      if (o.action === 'close' && o.status === 'filled' && o.positionId)
        closes.set(o.positionId, o);
    }
    const opens = orders.filter(
      (o) => o.action === 'open' && o.status === 'filled' && o.positionId !== null,
    );
    // positions closed by someone else (the user, a stop-out): their last settlement
    const others = opens
      .map((o) => o.positionId ?? '')
      .filter((id) => !closes.has(id))
      .map(Number);
    const settled = new Map<string, { price: number; at: number; commission: number }>();
    if (others.length > 0) {
      const rows = await db
        .select({
          positionId: settlements.positionId,
          closePrice: settlements.closePrice,
          closeAt: settlements.closeAt,
          closeCommission: settlements.closeCommission,
          status: positions.status,
        })
        .from(settlements)
        .innerJoin(positions, eq(positions.id, settlements.positionId))
        .where(and(inArray(settlements.positionId, others), eq(positions.uuid, row.traderUuid)));
      for (const s of rows) {
        if (s.status !== 'closed') continue;
        const key = String(s.positionId);
        const seen = settled.get(key);
        settled.set(key, {
          price: Number(s.closePrice),
          at: Math.max(seen?.at ?? 0, s.closeAt),
          commission: (seen?.commission ?? 0) + Number(s.closeCommission),
        });
      }
    }
    return opens.map((o) => {
      const id = o.positionId ?? '';
      const close = closes.get(id);
      const other = settled.get(id);
      return {
        positionId: id,
        cmd: o.cmd === 2 ? 2 : 1,
        volume: o.volume,
        open: {
          barTime: o.barTime,
          price: o.price ?? 0,
          reference: o.reference,
          strategyPrice: o.strategyPrice,
          commission: o.commission,
        },
        close: close
          ? {
              barTime: close.barTime,
              price: close.price ?? 0,
              reference: close.reference,
              strategyPrice: close.strategyPrice,
              commission: close.commission,
            }
          : other
            ? {
                barTime: bucketStart(period, other.at),
                price: other.price,
                reference: null,
                strategyPrice: other.price,
                commission: other.commission,
              }
            : null,
      };
    });
  }

  return {
    /**
     * Starts a run of the user on one of their trading accounts (checked by the route). At
     * most `maxPerUser` run at once: the count and the insert hold the user's row lock, so
     * two starts at the same moment cannot both pass.
     */
    async start(
      userId: number,
      trader: TraderRow,
      request: StartLiveRunRequest,
    ): Promise<LiveRunStarted> {
      if (!market.has(request.symbol_id)) {
        throw new LiveRunRefusedError(`Unknown symbol: ${request.symbol_id}`);
      }
      const feeds = feedsBeside(request, market);
      const code = await codeOf(userId, request);
      const nowMs = now();
      const id = randomUUID();
      await db.transaction(async (tx) => {
        await rawQuery(tx, 'select id from users where id = $1 for update', [userId]);
        const running = await countRunning(tx, userId);
        if (running >= settings.maxPerUser) {
          throw new LiveRunRefusedError(
            `You already have ${running} live runs running; stop one first (at most ${settings.maxPerUser} at once)`,
          );
        }
        await insertRun(
          tx,
          {
            id,
            userId,
            traderUuid: trader.uuid,
            strategyName: request.strategy_name,
            taskId: request.task_id ?? null,
            code,
            symbol: request.symbol_id,
            period: request.period,
            lots: request.lots,
            maxPositions: request.max_positions,
            status: LIVE_RUN_CREATED,
            startBarTime: bucketStart(request.period, nowMs),
            startedAt: nowMs,
            maxFailures: settings.maxFailures,
            feeds,
          },
          nowMs,
        );
      });
      deps.runner()?.notify();
      return { id, status: LIVE_RUN_CREATED };
    },

    async list(userId: number): Promise<{ runs: LiveRunView[] }> {
      const rows = await listRuns(db, userId, MAX_LISTED_RUNS);
      const figures = await figuresOf(rows);
      return { runs: rows.map((row) => viewOf(row, figures.get(row.id))) };
    },

    /** Stops a run of the user (a stopped or failed run stays as it is); its positions stay open. */
    async stop(userId: number, id: string): Promise<LiveRunStarted> {
      const row = await stopRun(db, userId, id, now());
      if (!row) throw notFound(id);
      deps.runner()?.drop(id);
      return { id: row.id, status: row.status as LiveRunStarted['status'] };
    },

    async evaluations(
      userId: number,
      id: string,
      skip: number,
      limit: number,
    ): Promise<LiveRunEvaluations> {
      await ownRun(userId, id);
      const page = await evaluationsPage(db, id, skip, limit);
      return {
        evaluations: page.rows.map((r): LiveRunEvaluationView => ({
          at: toEpochSec(r.at),
          bar_time: toEpochSec(r.barTime),
          bars: r.bars,
          wanted: r.wanted as LiveRunEvaluationView['wanted'],
          orders: r.orders as LiveRunEvaluationView['orders'],
          error: r.error,
          printed: r.printed,
          duration_ms: r.durationMs,
        })),
        total: page.total,
      };
    },

    /**
     * Backtests the run's code over the bars the run evaluated (from its first bar, or
     * `from`, to its last evaluated bar, or `to`; with the window before them, as each
     * evaluation saw) and compares the trades with the run's own.
     */
    async comparison(
      userId: number,
      id: string,
      query: LiveRunComparisonQuery,
    ): Promise<LiveRunComparison> {
      const row = await ownRun(userId, id);
      const period = row.period as Period;
      const empty: LiveRunComparison = {
        from: null,
        to: null,
        bars: 0,
        matched: [],
        only_backtest: [],
        only_forward: [],
        pnl_backtest: 0,
        pnl_forward: 0,
        causes: { spread: 0, commission: 0, slippage: 0, missed_bars: 0, other: 0 },
        curve_backtest: [],
        curve_forward: [],
        backtest_error: null,
      };
      if (row.lastBarTime === null) return empty;
      const from = Math.max(row.startBarTime, toEpochMs(query.from ?? 0));
      const to = Math.min(row.lastBarTime, query.to === undefined ? Infinity : toEpochMs(query.to));
      if (to < from) return empty;
      const nowMs = now();
      const periodMs = nextBucketStart(period, from) - from;
      const stretch = Math.ceil((to - from) / Math.max(1, periodMs)) + 1;
      const limit = Math.min(settings.maxComparisonBars, stretch + settings.windowBars);
      const bars = market.bars(row.symbol, period, nextBucketStart(period, to), limit, nowMs);
      const inStretch = bars.filter((b) => b.time >= from && b.time <= to);
      const last = inStretch.at(-1);
      if (!last) return empty;
      const orders = await runOrders(db, row.id);
      const forward = (await forwardTrades(row, orders, period))
        .filter((t) => t.open.barTime >= from && t.open.barTime <= to)
        .map((t) => (t.close && t.close.barTime > to ? { ...t, close: null } : t));
      const outcome = await runStrategy(
        deps.pool,
        { code: row.code, filename: `${row.strategyName}.py`, symbol: row.symbol, period, bars },
        `user:${userId}`,
        () => undefined,
      );
      const barTimes = bars.map((b) => b.time);
      const backtest = outcome.ok
        ? backtestTradesOf(
            outcome.trades.filter((t) => t.openTime >= from),
            barTimes,
            row.lots,
          )
        : [];
      const instrument = market.instrument(row.symbol);
      const core = compareRuns(
        {
          backtest,
          forward,
          contractMultiplier: instrument?.volume_multiple ?? 1,
          commissionPerLot: instrument?.commission_per_lot ?? 0,
          toleranceMs: periodMs,
          lastClose: last.close,
        },
        last.time,
      );
      return {
        ...core,
        from: toEpochSec(from),
        to: toEpochSec(last.time),
        bars: inStretch.length,
        backtest_error: outcome.ok ? null : outcome.error,
      };
    },
  };
}

export type LiveRunService = ReturnType<typeof createLiveRunService>;
