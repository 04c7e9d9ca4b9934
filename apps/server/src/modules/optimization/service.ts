import { randomUUID } from 'node:crypto';
import {
  toEpochSec,
  DEFAULT_LOADED_BARS,
  MAX_BACKTEST_BARS,
  formatCount,
  isReservedStrategyName,
  optimizationRequestSchema,
  withParamValues,
  OPTIMIZATION_CREATED,
  OPTIMIZATION_OPEN,
  type Bar,
  type Feed,
  type OptimizationStatus,
  type ParamValues,
  type TrialPerformance,
} from '@ct/domain';
import type { z } from 'zod';
import type { OptimizationRow } from '../../db/schema.ts';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import { feedPeriod, feedsAround } from '../backtest/feeds.ts';
import { defaultStrategyCode } from '../strategy/template.ts';
import type { OptimizationDeps, Stage, StoredFeed } from './run-steps/deps.ts';
import { barsOf } from './run-steps/load.ts';
import { foldsFor, paramSpaceOf, planOptimization, problemOf } from './run-steps/plan.ts';
import type { OptimizationRunner } from './runner.ts';
import {
  cancelOptimization,
  deleteOptimization,
  insertOptimization,
  listOptimizations,
  mainTrialCount,
  openCount,
  ownedOptimization,
  strategyCode,
  trialJob,
  trialPage,
  type NewTrial,
} from './store.ts';

/*
 * Parameter optimisation as the API offers it (docs/architecture.md, "Optimisation
 * (server)"): create one (its request checked, its trials planned and queued with their
 * jobs), list, read with a page of trials, backtest one set of values on its bars, cancel
 * and delete. Its trials are run by the runner (runner.ts); its SQL is in store.ts.
 */

type Request = z.infer<typeof optimizationRequestSchema>;

/** A trial as the answer shows it. */
export type TrialView = {
  index: number;
  params: ParamValues;
  performance: TrialPerformance | null;
  objective: number | null;
  error?: string;
  status: 'queued' | 'done' | 'failed' | 'cancelled';
};

export function createOptimizationService(
  deps: OptimizationDeps & {
    /** The runner of this process (its warm interpreters and loaded optimisations). */
    runner: Pick<OptimizationRunner, 'closeSessionsOf' | 'forget'>;
  },
) {
  const { db, backtest, now, settings, runner } = deps;

  async function codeOf(
    userId: number,
    body: Request,
  ): Promise<{ code: string; name: string | null }> {
    if (typeof body.code === 'string' && body.code.trim() !== '') {
      return { code: body.code, name: body.strategy_name ?? null };
    }
    const name = body.strategy_name ?? '';
    if (isReservedStrategyName(name)) return { code: defaultStrategyCode(), name };
    const code = await strategyCode(db, userId, name);
    if (code === null) throw new BadRequestError(`strategy_name: Strategy not found: ${name}`);
    if (code.trim() === '')
      throw new BadRequestError(`strategy_name: Strategy ${name} has no code`);
    return { code, name };
  }

  /**
   * The newest `bars`, or exactly those starting in [from, to] (any age: loaded ending at
   * `to`), at most a backtest's MAX_BACKTEST_BARS; a larger range is refused.
   */
  async function barsFor(userId: number, body: Request): Promise<{ bars: Bar[]; period: string }> {
    if (body.from === undefined && body.to === undefined) {
      const loaded = await backtest.loadBars(
        userId,
        body.symbol_id,
        body.period,
        body.bars ?? DEFAULT_LOADED_BARS,
      );
      if (!loaded.ok) throw new BadRequestError(loaded.reason);
      return { bars: loaded.bars, period: loaded.period };
    }
    const from = body.from ?? Number.NEGATIVE_INFINITY;
    const to = body.to ?? Number.POSITIVE_INFINITY;
    // one bar over the limit tells a range that is too large
    const loaded = await backtest.loadBars(
      userId,
      body.symbol_id,
      body.period,
      MAX_BACKTEST_BARS + 1,
      to + 1,
    );
    if (!loaded.ok) throw new BadRequestError(loaded.reason);
    const bars = loaded.bars.filter((bar) => bar.time >= from);
    if (bars.length === 0) throw new BadRequestError('from: no bars between from and to');
    if (bars.length > MAX_BACKTEST_BARS) {
      throw new BadRequestError(
        `from: the range holds more than ${formatCount(MAX_BACKTEST_BARS)} bars of ${loaded.period}; ` +
          `a backtest takes at most ${formatCount(MAX_BACKTEST_BARS)}: choose a shorter range or a longer period`,
      );
    }
    return { bars, period: loaded.period };
  }

  /** The body's feeds besides symbol_id/period, with their bars over `bars`' span. */
  async function extraFeeds(
    userId: number,
    body: Request,
    bars: Bar[],
    periodText: string,
  ): Promise<Feed[]> {
    if (!body.feeds) return [];
    const own = { code: body.symbol_id, period: feedPeriod({ period: periodText }, 0), bars };
    return (await feedsAround(backtest, userId, own, body.feeds)).slice(1);
  }

  async function owned(userId: number, id: string): Promise<OptimizationRow> {
    const row = await ownedOptimization(db, userId, id);
    if (!row) throw new NotFoundError(`Optimization not found: ${id}`);
    return row;
  }

  function progressOf(row: OptimizationRow) {
    const done = row.trialsDone;
    const total = row.trialsTotal;
    let eta: number | null = null;
    if (row.status === 'PROCESSING' && row.startedMs !== null && done > 0) {
      eta = Math.max(0, Math.round((((now() - row.startedMs) / done) * (total - done)) / 1000));
    } else if (
      row.status === 'COMPLETED' ||
      row.status === 'CANCELLED' ||
      row.status === 'FAILED'
    ) {
      eta = 0;
    }
    return { done, total, eta_s: eta };
  }

  return {
    async create(userId: number, input: unknown) {
      const parsed = optimizationRequestSchema.safeParse(input);
      if (!parsed.success) throw new BadRequestError(problemOf(parsed.error));
      const body = parsed.data;
      const space = paramSpaceOf(body.params);
      const { code, name } = await codeOf(userId, body);
      const trials = planOptimization(code, space, body, settings.maxTrials);
      const { bars, period } = await barsFor(userId, body);
      const feeds = await extraFeeds(userId, body, bars, period);
      const folds = foldsFor(bars.length, body.walk_forward);
      const total = trials.length * (1 + folds.length) + folds.length;
      const id = randomUUID();
      const createdMs = now();
      const stages: Stage[] = ['main', ...folds.map((_, i): Stage => `is:${i}`)];
      const rows: NewTrial[] = stages.flatMap((stage) =>
        trials.map((params, index) => ({ stage, index, params })),
      );
      await db.transaction(async (tx) => {
        const open = await openCount(tx, userId);
        if (open >= settings.maxOpenPerUser) {
          throw new BadRequestError(
            `You already have ${open} optimizations running; wait for one to finish or cancel it`,
          );
        }
        await insertOptimization(
          tx,
          {
            id,
            userId,
            strategyName: name,
            code,
            symbol: body.symbol_id,
            period,
            bars: bars.map((b) => [b.time, b.open, b.high, b.low, b.close, b.volume]),
            objective: body.objective,
            method: body.method,
            request: {
              params: body.params,
              constraint: body.constraint ?? null,
              max_trials: body.max_trials ?? null,
              seed: body.seed ?? null,
              walk_forward: body.walk_forward ?? null,
              ...(feeds.length > 0
                ? {
                    feeds: feeds.map((feed): StoredFeed => ({
                      symbol_id: feed.code,
                      period: feed.period,
                      bars: feed.bars.map((b) => [
                        b.time,
                        b.open,
                        b.high,
                        b.low,
                        b.close,
                        b.volume,
                      ]),
                    })),
                  }
                : {}),
            },
            status: OPTIMIZATION_CREATED,
            trialsTotal: total,
            createdMs,
          },
          rows,
          rows.map((r) => trialJob(settings.maxAttempts, userId, id, r.stage, r.index, r.params)),
        );
      });
      deps.notify();
      return { id, status: OPTIMIZATION_CREATED, trials_total: total };
    },

    async list(userId: number, strategyName?: string) {
      const rows = await listOptimizations(db, userId, strategyName);
      return rows
        .sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1))
        .map((row) => ({
          id: row.id,
          strategy_name: row.strategyName,
          symbol_id: row.symbol,
          period: row.period,
          objective: row.objective,
          method: row.method,
          status: row.status,
          trials_total: row.trialsTotal,
          trials_done: row.trialsDone,
          created_at: toEpochSec(row.createdMs),
          finished_at: row.finishedMs === null ? null : toEpochSec(row.finishedMs),
        }));
    },

    async get(userId: number, id: string, query: { skip: number; limit: number; sort: string }) {
      const row = await owned(userId, id);
      const trials = await trialPage(db, id, query);
      const summary = row.summary as {
        best: unknown;
        walk_forward: unknown;
        overfitting: unknown;
      } | null;
      const mainTotal = await mainTrialCount(db, id);
      return {
        id: row.id,
        status: row.status,
        strategy_name: row.strategyName,
        symbol_id: row.symbol,
        period: row.period,
        objective: row.objective,
        method: row.method,
        bar_count: (row.bars as unknown[]).length,
        code: row.code,
        created_at: toEpochSec(row.createdMs),
        progress: progressOf(row),
        best: summary?.best ?? null,
        trials_count: mainTotal,
        trials: trials.map((t) => ({
          index: Number(t.index),
          params: t.params,
          status: t.status,
          performance: t.performance ?? null,
          objective: t.score === null ? null : Number(t.score),
          ...(t.error ? { error: t.error } : {}),
        })),
        ...(summary?.walk_forward ? { walk_forward: summary.walk_forward } : {}),
        ...(summary?.overfitting ? { overfitting: summary.overfitting } : {}),
        ...(row.error ? { error: row.error } : {}),
      };
    },

    /**
     * `values` backtested on exactly the optimisation's own bars (not the chart's newest):
     * its code with the values written into PARAMS, run and kept as Run Code runs it.
     */
    async backtestOn(userId: number, id: string, values: ParamValues, clientId: string | null) {
      const row = await owned(userId, id);
      const rewritten = withParamValues(row.code, values);
      if (!rewritten.ok) throw new BadRequestError(`params: ${rewritten.error}`);
      return backtest.run({
        userId,
        clientId,
        code: rewritten.code,
        filename: `${row.strategyName ?? 'strategy'}.py`,
        bars: barsOf(row.bars),
        symbol: row.symbol,
        period: row.period,
        strategyName: null,
      });
    },

    async cancel(userId: number, id: string) {
      const row = await owned(userId, id);
      if ((OPTIMIZATION_OPEN as readonly string[]).includes(row.status)) {
        await db.transaction((tx) =>
          cancelOptimization(tx, id, row.status as OptimizationStatus, now()),
        );
      }
      runner.closeSessionsOf(id);
      const after = await owned(userId, id);
      return { id, status: after.status, progress: progressOf(after) };
    },

    async remove(userId: number, id: string) {
      await owned(userId, id);
      await db.transaction((tx) => deleteOptimization(tx, userId, id, now()));
      runner.forget(id);
      return { deleted: id };
    },
  };
}

export type OptimizationService = ReturnType<typeof createOptimizationService>;
