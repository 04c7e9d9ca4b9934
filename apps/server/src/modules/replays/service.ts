import { randomUUID } from 'node:crypto';
import {
  toEpochSec,
  toEpochMs,
  DEFAULT_REPLAY_BALANCE,
  MAX_REPLAYS_PER_USER,
  REPLAY_EVALUATIONS_SHOWN,
  bucketStart,
  checkReplayAction,
  closingPrice,
  isReservedStrategyName,
  nextBucketStart,
  profitLoss,
  replayQuote,
  replaySession,
  strategyActions,
  wantedPositions,
  type Bar,
  type Period,
  type ReplayAction,
  type ReplayEvaluationView,
  type ReplayList,
  type ReplayOrderRequest,
  type ReplayStarted,
  type ReplayState,
  type ReplaySummary,
  type ReplayTerms,
  type ReplayView,
  type StartReplayRequest,
} from '@ct/domain';
import type { ReplayRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { AppError, NotFoundError } from '../../http/errors.ts';
import type { SandboxPool } from '../backtest/sandbox/pool.ts';
import type { MarketData } from '../market/market-data.ts';
import { feedsAtClose, feedsBeside, runStrategy } from '../live-runs/evaluate.ts';
import { findStrategy } from '../strategy/store.ts';
import { defaultStrategyCode } from '../strategy/template.ts';
import {
  countReplays,
  deleteReplay,
  findReplay,
  insertReplay,
  listReplays,
  updateReplay,
} from './store.ts';

/** A request the session cannot act on (unknown symbol or strategy, a refused order): 422. */
export class ReplayRefusedError extends AppError {
  constructor(message: string) {
    super(42200, message, 422);
  }
}

/** Another change of the same session came first: 409, the client reads it again. */
export class ReplayConflictError extends AppError {
  constructor() {
    super(40900, 'The replay changed meanwhile; load it again and retry', 409);
  }
}

/** Evaluations a session keeps (the newest). */
const KEEP_EVALUATIONS = 500;
/** Printed lines kept per evaluation. */
const KEEP_PRINTED = 200;

export type ReplayServiceDeps = {
  db: Db;
  market: MarketData;
  pool: SandboxPool;
  now: () => number;
  /** Bars main(data_array) sees at each replayed close: the live-run window. */
  windowBars: () => number;
};

type StoredEvaluation = ReplayEvaluationView & { at: number };
type EvaluationOrder = ReplayEvaluationView['orders'][number];

/**
 * An evaluation as the answer shows it. Sessions kept before the orders carried their price
 * and status have neither: an order without an error was filled (a strategy's orders are
 * market orders), its price is not known.
 */
function shownEvaluation({ at: _at, ...evaluation }: StoredEvaluation): ReplayEvaluationView {
  return {
    ...evaluation,
    orders: evaluation.orders.map((o) => ({
      ...o,
      price: o.price ?? null,
      status: o.status ?? (o.error === null ? 'filled' : 'refused'),
    })),
  };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Replay not found: ${id}`);
}

export function createReplayService(deps: ReplayServiceDeps) {
  const { db, market, now } = deps;

  function termsOf(symbol: string): ReplayTerms {
    const instrument = market.instrument(symbol);
    if (!instrument) throw new ReplayRefusedError(`Unknown symbol: ${symbol}`);
    return {
      ...instrument,
      spread: instrument.sim.spreadTicks * instrument.min_price_tick,
    };
  }

  /** Bars starting before this are closed. */
  function closedEnd(period: Period): number {
    return bucketStart(period, now());
  }

  /** The newest `limit` bars up to and including the bar at `time`. */
  function barsUpTo(row: Pick<ReplayRow, 'symbol' | 'period'>, time: number, limit: number) {
    return market.bars(row.symbol, row.period as Period, time + 1, limit, now());
  }

  /** Up to `n` closed bars after `time`, ascending. */
  function barsAfter(row: Pick<ReplayRow, 'symbol' | 'period'>, time: number, n: number): Bar[] {
    const period = row.period as Period;
    const end = closedEnd(period);
    let span = n;
    for (;;) {
      let endBefore = time;
      for (let k = 0; k <= span && endBefore < end; k++) {
        endBefore = nextBucketStart(period, endBefore);
      }
      endBefore = Math.min(endBefore, end);
      const got = market
        .bars(row.symbol, period, endBefore, span + 1, now())
        .filter((bar) => bar.time > time);
      if (got.length >= n || endBefore >= end) return got.slice(0, n);
      span *= 2;
    }
  }

  /** The bars from the start (and `window` before the cursor) to the cursor. */
  function sessionBars(row: ReplayRow, cursor: number, steps: number, window = 0): Bar[] {
    const bars = barsUpTo(row, cursor, Math.max(steps + 1, window));
    const startIndex = bars.length - 1 - steps;
    if (bars.at(-1)?.time !== cursor || bars[startIndex]?.time !== row.startTime) {
      throw new ReplayRefusedError(
        `The bars of ${row.symbol} ${row.period} for this replay are no longer available`,
      );
    }
    return bars;
  }

  function stateOf(
    row: ReplayRow,
    bars: readonly Bar[],
    cursor: number,
    actions: readonly ReplayAction[],
  ): ReplayState {
    return replaySession({
      bars,
      start: row.startTime,
      cursor,
      actions,
      terms: termsOf(row.symbol),
      initialBalance: row.initialBalance,
    });
  }

  /** Runs the session's strategy at the close of the last of `bars` (the cursor). */
  async function evaluate(
    row: ReplayRow,
    userId: number,
    bars: readonly Bar[],
    actions: readonly ReplayAction[],
    nextId: number,
  ): Promise<{ actions: ReplayAction[]; evaluation: StoredEvaluation }> {
    const cursorBar = bars.at(-1) as Bar;
    const window = bars.slice(-deps.windowBars());
    const printed: string[] = [];
    const outcome = await runStrategy(
      deps.pool,
      {
        code: row.code ?? '',
        filename: `${row.strategyName ?? 'strategy'}.py`,
        symbol: row.symbol,
        period: row.period,
        bars: window,
        // the other feeds' bars closed by the replayed close
        ...(row.feeds
          ? {
              feeds: feedsAtClose(
                market,
                { code: row.symbol, period: row.period as Period, bars: window },
                row.feeds,
                nextBucketStart(row.period as Period, cursorBar.time),
                deps.windowBars(),
                now(),
              ),
            }
          : {}),
      },
      `replay:${userId}`,
      (line) => {
        if (printed.length < KEEP_PRINTED) printed.push(line);
      },
    );
    const evaluation: StoredEvaluation = {
      at: cursorBar.time,
      bar_time: toEpochSec(cursorBar.time),
      wanted: [],
      orders: [],
      printed,
      error: outcome.ok ? null : outcome.error,
    };
    if (!outcome.ok) return { actions: [], evaluation };
    evaluation.wanted = wantedPositions(outcome.trades).map((w) => ({
      side: w.cmd === 1 ? 'buy' : 'sell',
      lots: Math.abs(w.lots),
      open_time: toEpochSec(w.openTime),
    }));
    let state = stateOf(row, bars, cursorBar.time, actions);
    const planned = strategyActions({
      state,
      trades: outcome.trades,
      at: cursorBar.time,
      nextId,
      notBefore: row.startTime,
    });
    const terms = termsOf(row.symbol);
    const sent: ReplayAction[] = [];
    const entries: { action: ReplayAction; order: EvaluationOrder }[] = [];
    for (const action of planned) {
      const error = checkReplayAction(state, action, cursorBar.close, terms);
      if (action.kind === 'order' || action.kind === 'close') {
        const position =
          action.kind === 'close' ? state.positions.find((p) => p.id === action.positionId) : null;
        const order: EvaluationOrder = {
          action: action.kind === 'order' ? 'open' : 'close',
          side: action.kind === 'order' ? action.side : (position?.side ?? 'buy'),
          volume: action.volume,
          price: null,
          status: error === null ? 'filled' : 'refused',
          error,
        };
        evaluation.orders.push(order);
        if (error === null) entries.push({ action, order });
      }
      if (error !== null) continue;
      sent.push(action);
      state = stateOf(row, bars, cursorBar.time, [...actions, ...sent]);
    }
    // what became of each order sent: filled at the close, or waiting as a pending order
    for (const { action, order } of entries) {
      const waiting = state.pending.find((p) => p.id === action.id);
      if (waiting) {
        order.status = 'pending';
        order.price = waiting.price;
        continue;
      }
      const positionId = action.kind === 'close' ? action.positionId : action.id;
      const fill = state.fills.find(
        (f) =>
          f.time === cursorBar.time && f.positionId === positionId && f.action === order.action,
      );
      order.price = fill?.price ?? null;
    }
    return { actions: sent, evaluation };
  }

  function summaryOf(row: ReplayRow): ReplaySummary {
    return {
      id: row.id,
      symbol_id: row.symbol,
      period: row.period as Period,
      start: toEpochSec(row.startTime),
      cursor: toEpochSec(row.cursorTime),
      strategy_name: row.strategyName,
      created_at: toEpochSec(row.createdAt),
      updated_at: toEpochSec(row.updatedAt),
      ...(row.feeds
        ? { feeds: row.feeds.map((f) => ({ symbol_id: f.symbol_id, period: f.period as Period })) }
        : {}),
    };
  }

  function viewOf(row: ReplayRow): ReplayView {
    const bars = sessionBars(row, row.cursorTime, row.steps);
    const state = stateOf(row, bars, row.cursorTime, row.actions);
    const terms = termsOf(row.symbol);
    const quote = replayQuote((bars.at(-1) as Bar).close, terms);
    const last = market.bars(
      row.symbol,
      row.period as Period,
      closedEnd(row.period as Period),
      1,
      now(),
    );
    return {
      ...summaryOf(row),
      account: {
        initial_balance: state.account.initialBalance,
        balance: state.account.balance,
        floating: state.account.floating,
        equity: state.account.equity,
        margin: state.account.margin,
        free_margin: state.account.freeMargin,
        currency: terms.currency,
      },
      positions: state.positions.map((p) => ({
        id: p.id,
        side: p.side,
        volume: p.volume,
        open_price: p.price,
        tp: p.tp,
        sl: p.sl,
        open_time: toEpochSec(p.openTime),
        profit: profitLoss(p.side, p.price, closingPrice(p.side, quote), p.volume, terms),
        source: p.source,
      })),
      pending: state.pending.map((p) => ({
        id: p.id,
        side: p.side,
        trigger: p.trigger,
        price: p.price,
        volume: p.volume,
        tp: p.tp,
        sl: p.sl,
        placed_at: toEpochSec(p.placedAt),
        source: p.source,
      })),
      trades: state.trades.map((t) => ({
        position_id: t.positionId,
        open_time: toEpochSec(t.openTime),
        close_time: toEpochSec(t.closeTime),
        side: t.side,
        volume: t.volume,
        open_price: t.openPrice,
        close_price: t.closePrice,
        profit: t.profit,
        commission: t.commission,
        reason: t.reason,
        source: t.source,
      })),
      fills: state.fills.map((f) => ({
        time: toEpochSec(f.time),
        position_id: f.positionId,
        action: f.action,
        side: f.side,
        volume: f.volume,
        price: f.price,
        source: f.source,
        reason: f.reason,
      })),
      equity: state.equity.map((e) => ({ time: toEpochSec(e.time), equity: e.equity })),
      evaluations: row.evaluations.slice(-REPLAY_EVALUATIONS_SHOWN).map(shownEvaluation),
      last_bar: toEpochSec(last.at(-1)?.time ?? row.cursorTime),
      quote,
    };
  }

  async function own(userId: number, id: string): Promise<ReplayRow> {
    const row = await findReplay(db, userId, id);
    if (!row) throw notFound(id);
    return row;
  }

  async function save(row: ReplayRow, set: Parameters<typeof updateReplay>[2]): Promise<ReplayRow> {
    const updated = await updateReplay(db, row, set);
    if (!updated) throw new ReplayConflictError();
    return updated;
  }

  /** Moves the cursor `n` bars forward, running the strategy at each replayed close. */
  async function forward(row: ReplayRow, userId: number, n: number): Promise<ReplayRow> {
    const next = barsAfter(row, row.cursorTime, n);
    if (next.length === 0) return row;
    let actions = [...row.actions];
    let evaluations = [...row.evaluations];
    let nextId = row.nextId;
    let steps = row.steps;
    let cursor = row.cursorTime;
    for (const bar of next) {
      steps += 1;
      cursor = bar.time;
      if (row.code === null) continue;
      const bars = sessionBars(row, cursor, steps, deps.windowBars());
      const done = await evaluate(row, userId, bars, actions, nextId);
      actions = [...actions, ...done.actions];
      nextId += done.actions.length;
      evaluations = [...evaluations, done.evaluation].slice(-KEEP_EVALUATIONS);
    }
    return save(row, { cursorTime: cursor, steps, actions, evaluations, nextId, updatedAt: now() });
  }

  /** Moves the cursor `n` bars back (not before the start): what came after is undone. */
  async function back(row: ReplayRow, n: number): Promise<ReplayRow> {
    const moved = Math.min(n, row.steps);
    if (moved === 0) return row;
    const bars = sessionBars(row, row.cursorTime, row.steps);
    const cursor = (bars[bars.length - 1 - moved] as Bar).time;
    return save(row, {
      cursorTime: cursor,
      steps: row.steps - moved,
      actions: row.actions.filter((a) => a.at <= cursor),
      evaluations: row.evaluations.filter((e) => e.at <= cursor),
      nextId: row.nextId,
      updatedAt: now(),
    });
  }

  /** The action of an order body, sent after the cursor's close. */
  function actionOf(row: ReplayRow, body: ReplayOrderRequest): ReplayAction {
    const base = { id: row.nextId, at: row.cursorTime };
    switch (body.type) {
      case 'market':
      case 'limit':
        return {
          ...base,
          kind: 'order',
          side: body.cmd === 1 ? 'buy' : 'sell',
          type: body.type,
          volume: body.volume,
          price: body.type === 'limit' ? body.pendPrice : 0,
          tp: body.tp,
          sl: body.sl,
          source: 'user',
        };
      case 'close':
        return {
          ...base,
          kind: 'close',
          positionId: Number(body.orderId),
          volume: body.volume,
          source: 'user',
        };
      case 'cancel':
        return { ...base, kind: 'cancel', pendingId: Number(body.pId) };
      case 'modify':
        return {
          ...base,
          kind: 'modify',
          pendingId: Number(body.pId),
          price: body.pendPrice,
          tp: body.tp,
          sl: body.sl,
        };
      case 'tpsl':
        return {
          ...base,
          kind: 'tpsl',
          positionId: Number(body.orderId),
          tp: body.tp,
          sl: body.sl,
        };
    }
  }

  return {
    async start(userId: number, request: StartReplayRequest): Promise<ReplayStarted> {
      if (!market.has(request.symbol_id)) {
        throw new ReplayRefusedError(`Unknown symbol: ${request.symbol_id}`);
      }
      const period = request.period;
      const feeds = feedsBeside(request, market);
      const startMs = toEpochMs(request.start);
      const found = market.bars(request.symbol_id, period, startMs + 1, 1, now()).at(-1);
      if (!found || found.time !== startMs || startMs >= closedEnd(period)) {
        throw new ReplayRefusedError(
          `start must be the open time of a closed bar of ${request.symbol_id} ${period}`,
        );
      }
      let code: string | null = null;
      const strategyName = request.strategy_name ?? null;
      if (strategyName !== null) {
        if (isReservedStrategyName(strategyName)) code = defaultStrategyCode();
        else {
          const saved = await findStrategy(db, userId, strategyName);
          if (!saved) throw new ReplayRefusedError(`Strategy not found: ${strategyName}`);
          if (saved.code.trim() === '') {
            throw new ReplayRefusedError(`Strategy ${strategyName} has no code`);
          }
          code = saved.code;
        }
      }
      const kept = await countReplays(db, userId);
      if (kept >= MAX_REPLAYS_PER_USER) {
        throw new ReplayRefusedError(
          `You already keep ${kept} replays; delete one first (at most ${MAX_REPLAYS_PER_USER})`,
        );
      }
      const id = randomUUID();
      const at = now();
      const row: ReplayRow = {
        id,
        userId,
        symbol: request.symbol_id,
        period,
        startTime: startMs,
        cursorTime: startMs,
        steps: 0,
        strategyName,
        code,
        initialBalance: request.balance ?? DEFAULT_REPLAY_BALANCE,
        feeds,
        actions: [],
        evaluations: [],
        nextId: 1,
        version: 0,
        createdAt: at,
        updatedAt: at,
      };
      termsOf(row.symbol);
      if (code !== null) {
        // the strategy sees the start bar close as it would any replayed close
        const bars = sessionBars(row, startMs, 0, deps.windowBars());
        const done = await evaluate(row, userId, bars, [], 1);
        row.actions = done.actions;
        row.evaluations = [done.evaluation];
        row.nextId = 1 + done.actions.length;
      }
      await insertReplay(db, row);
      return { id, cursor: request.start };
    },

    async list(userId: number): Promise<ReplayList> {
      const rows = await listReplays(db, userId, MAX_REPLAYS_PER_USER);
      return { replays: rows.map(summaryOf) };
    },

    async get(userId: number, id: string): Promise<ReplayView> {
      return viewOf(await own(userId, id));
    },

    async step(userId: number, id: string, bars: number): Promise<ReplayView> {
      const row = await own(userId, id);
      const moved = bars > 0 ? await forward(row, userId, bars) : await back(row, -bars);
      return viewOf(moved);
    },

    async order(userId: number, id: string, body: ReplayOrderRequest): Promise<ReplayView> {
      const row = await own(userId, id);
      const action = actionOf(row, body);
      const bars = sessionBars(row, row.cursorTime, row.steps);
      const state = stateOf(row, bars, row.cursorTime, row.actions);
      const error = checkReplayAction(
        state,
        action,
        (bars.at(-1) as Bar).close,
        termsOf(row.symbol),
      );
      if (error !== null) throw new ReplayRefusedError(error);
      const saved = await save(row, {
        cursorTime: row.cursorTime,
        steps: row.steps,
        actions: [...row.actions, action],
        evaluations: row.evaluations,
        nextId: row.nextId + 1,
        updatedAt: now(),
      });
      return viewOf(saved);
    },

    async remove(userId: number, id: string): Promise<{ id: string }> {
      if (!(await deleteReplay(db, userId, id))) throw notFound(id);
      return { id };
    },
  };
}

export type ReplayService = ReturnType<typeof createReplayService>;
