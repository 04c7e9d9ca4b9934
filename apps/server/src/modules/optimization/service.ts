import { randomUUID } from 'node:crypto';
import {
  toEpochSec,
  DEFAULT_LOADED_BARS,
  MAX_BACKTEST_BARS,
  equityCurve,
  formatCount,
  isReservedStrategyName,
  optimizationRequestSchema,
  paramSpaceSchema,
  paramsUpdateStatement,
  parseConstraint,
  parseStrategyParams,
  planTrials,
  resolveParamSpace,
  walkForwardFolds,
  withParamValues,
  optimizationSummary,
  type TrialsSummary,
  type SummaryInput,
  type SummaryTrial,
  nextBucketStart,
  type Bar,
  type Feed,
  type OptimizationObjective,
  type ParamValues,
  type StrategyParam,
  type TrialPerformance,
  type WalkForwardFold,
  type WalkForwardSettings,
  OPTIMIZATION_CREATED,
  OPTIMIZATION_OPEN,
  TRIAL_CREATED,
  optimizationTransition,
  trialTransition,
  type OptimizationStatus,
} from '@ct/domain';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { rawQuery, type SqlRow } from '../../db/raw.ts';
import { optimizations, strategies, type JobRow, type OptimizationRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import type { SandboxPool, SandboxSession } from '../backtest/sandbox/pool.ts';
import { trialOf } from '../backtest/evaluate.ts';
import { feedPeriod, feedsAround } from '../backtest/feeds.ts';
import type { BacktestService } from '../backtest/service.ts';
import { cancelBatch, deleteBatch, enqueueJobs, finishJobs, type NewJob } from '../jobs/store.ts';
import type { BatchContext, JobContext } from '../jobs/worker.ts';
import { defaultStrategyCode } from '../strategy/template.ts';
import { TRIAL_QUEUE, type OptimizationSettings } from './settings.ts';

/*
 * Parameter optimisation (docs/architecture.md, "Optimisation (server)"). An optimisation is
 * a row with its code and bars; each backtest of it is a trial row and a job of the trial
 * queue (modules/jobs). A worker runs a trial as POST /api/backtest/code would run the code
 * with the trial's PARAMS, and keeps its result, the job's end and the optimisation's count
 * in one transaction under the optimisation's row lock; the transaction that finishes the
 * last in-sample trial of a walk-forward fold adds the fold's out-of-sample trial, and the
 * one that finishes the last trial writes the summary.
 */

type Request = z.infer<typeof optimizationRequestSchema>;
type Stage = 'main' | `is:${number}` | `oos:${number}`;

export type OptimizationDeps = {
  db: Db;
  backtest: BacktestService;
  /** The sandbox: warm interpreters per optimisation and stage (trials reuse them). */
  pool: SandboxPool;
  now: () => number;
  settings: OptimizationSettings;
  /** Wakes this node's trial worker (trials were added). */
  notify: () => void;
  /** After a trial is kept (committed): tells the user when the optimisation has ended. */
  onTrialKept?: (optimizationId: string) => Promise<void>;
  /** The summary computed off the event loop (a body worker); without it, on the loop. */
  summarize?: (input: WorkerSummaryInput) => Promise<TrialsSummary>;
  /** Where each batch's time went (debug). */
  log?: { debug: (details: Record<string, unknown>, message: string) => void };
};

/** The summary's input as a body worker takes it: each trial's returns as float64s. */
export type WorkerSummaryInput = Omit<SummaryInput, 'trials'> & {
  trials: (Omit<SummaryTrial, 'returns'> & { returns: Float64Array })[];
};

type StoredBar = [number, number, number, number, number, number];
/** `feeds`: the feeds besides the optimisation's own symbol and period (request.feeds). */
type Loaded = { bars: Bar[]; code: string; row: OptimizationRow; feeds: Feed[] };
type StoredFeed = { symbol_id: string; period: Feed['period']; bars: StoredBar[] };

/** `params` in the payload spares the worker reading the trial's row (older jobs lack it). */
type TrialPayload = { optimization: string; stage: Stage; index: number; params?: ParamValues };

/** What a trial ended with: what to keep of it, or why it failed. */
type Outcome =
  | {
      ok: true;
      performance: TrialPerformance;
      score: number | null;
      /** Per-bar returns of its equity curve. */
      returns: Float64Array;
      /** Time inside main(), when measured. */
      strategyMs: number | null;
      detail: unknown;
    }
  | { ok: false; error: string };

/** A trial that ran, with its job, to keep. */
type Kept = { job: JobRow; payload: TrialPayload; outcome: Outcome };

/** Where a batch's time went (ms), logged at debug level. */
type BatchTiming = {
  /** Loading the optimisation and its trials' rows, marking it started. */
  read: number;
  /** Starting interpreters (code and rows sent). */
  open: number;
  /** The sandbox messages: main() and the round trips. */
  sandbox: number;
  /** Inside main(), as the harness timed it. */
  main: number;
  /** From a piece's answer to its checked figures (a body worker; overlaps the next piece). */
  evaluate: number;
  /** The transaction keeping the batch (with the summary when it was the last). */
  keep: number;
  summary: number;
};

/** A batch goes to the interpreter in about this many pieces (pipelined with the checks). */
const PIECES = 4;
/** Fewest trials per piece. */
const PIECE_MIN = 4;

/** Trials of a claim's first batch, before any trial of the optimisation was measured. */
const FIRST_BATCH = 4;
/** Most trials per claim (and per sandbox message). */
const MAX_BATCH = 32;
/**
 * About how long the strategy runs for the trials of one claim (main() as the harness times
 * it): long enough that the claim, the session's round trip, the body worker's task and the
 * transaction are paid once for many trials, short enough that the user's sandbox slot and
 * the fair claim turn over often.
 */
const BATCH_TARGET_MS = 250;

/** Returns as the trials keep them: float64 bytes (`returns_f64`), or JSON of older rows. */
function returnsOf(row: SqlRow | undefined): Float64Array {
  const bytes = row?.returns_f64 as Uint8Array | null | undefined;
  if (bytes) {
    const copy = new Uint8Array(bytes); // aligned, its own buffer
    return new Float64Array(copy.buffer, 0, Math.floor(copy.length / 8));
  }
  return Float64Array.from((row?.returns ?? []) as number[]);
}

const FOLD_OF = (stage: string) => Number(stage.split(':')[1]);

function barsOf(stored: unknown): Bar[] {
  return (stored as StoredBar[]).map(([time, open, high, low, close, volume]) => ({
    time,
    open,
    high,
    low,
    close,
    volume,
  }));
}

function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid body';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** A trial as the answer shows it. */
export type TrialView = {
  index: number;
  params: ParamValues;
  performance: TrialPerformance | null;
  objective: number | null;
  error?: string;
  status: 'queued' | 'done' | 'failed' | 'cancelled';
};

export function createOptimizationService(deps: OptimizationDeps) {
  const { db, backtest, now, settings } = deps;
  /** Optimisations whose code and bars this process holds (trials of one read them once). */
  const cache = new Map<string, Loaded>();
  /** Milliseconds in main() per trial of an optimisation, measured so far (sizes its claims). */
  const trialMs = new Map<string, number>();
  /**
   * Warm interpreters not running a trial, by optimisation and stage (the bars differ by
   * stage): a trial takes one of its own optimisation's, never another's. At most
   * `settings.concurrency` wait; the oldest is closed when another is put back.
   */
  const idleSessions: { key: string; session: SandboxSession }[] = [];

  function takeSession(key: string): SandboxSession | null {
    for (let i = idleSessions.length - 1; i >= 0; i--) {
      const entry = idleSessions[i];
      if (entry?.key !== key) continue;
      idleSessions.splice(i, 1);
      if (entry.session.alive) return entry.session;
      entry.session.close();
    }
    return null;
  }

  function putSession(key: string, session: SandboxSession): void {
    if (!session.alive) return;
    idleSessions.push({ key, session });
    while (idleSessions.length > Math.max(1, settings.concurrency))
      idleSessions.shift()?.session.close();
  }

  function closeSessions(optimization: string): void {
    for (let i = idleSessions.length - 1; i >= 0; i--) {
      if (idleSessions[i]?.key.startsWith(`${optimization}:`))
        idleSessions.splice(i, 1)[0]?.session.close();
    }
  }

  async function codeOf(
    userId: number,
    body: Request,
  ): Promise<{ code: string; name: string | null }> {
    if (typeof body.code === 'string' && body.code.trim() !== '') {
      return { code: body.code, name: body.strategy_name ?? null };
    }
    const name = body.strategy_name ?? '';
    if (isReservedStrategyName(name)) return { code: defaultStrategyCode(), name };
    const [row] = await db
      .select({ code: strategies.code })
      .from(strategies)
      .where(and(eq(strategies.userId, userId), eq(strategies.name, name)));
    if (!row) throw new BadRequestError(`strategy_name: Strategy not found: ${name}`);
    if (row.code.trim() === '')
      throw new BadRequestError(`strategy_name: Strategy ${name} has no code`);
    return { code: row.code, name };
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

  async function load(id: string): Promise<Loaded | null> {
    const known = cache.get(id);
    if (known) return known;
    const [row] = await db.select().from(optimizations).where(eq(optimizations.id, id));
    if (!row) return null;
    const stored = ((row.request as { feeds?: StoredFeed[] }).feeds ?? []).map((feed): Feed => ({
      code: feed.symbol_id,
      period: feed.period,
      bars: barsOf(feed.bars),
    }));
    const loaded = { row, bars: barsOf(row.bars), code: row.code, feeds: stored };
    cache.set(id, loaded);
    // a handful of optimisations at once; the oldest goes
    while (cache.size > 8) cache.delete(cache.keys().next().value as string);
    return loaded;
  }

  function foldsOf(row: OptimizationRow): WalkForwardFold[] {
    const request = row.request as { walk_forward?: WalkForwardSettings | null };
    if (!request.walk_forward) return [];
    const folds = walkForwardFolds((row.bars as unknown[]).length, request.walk_forward);
    return folds.ok ? folds.folds : [];
  }

  function barsOfStage(loaded: Loaded, stage: Stage): Bar[] {
    if (stage === 'main') return loaded.bars;
    const fold = foldsOf(loaded.row)[FOLD_OF(stage)];
    if (!fold) return [];
    const span = stage.startsWith('is:') ? fold.inSample : fold.outOfSample;
    return loaded.bars.slice(span.start, span.end + 1);
  }

  function trialJob(
    userId: number,
    optimization: string,
    stage: Stage,
    index: number,
    params: ParamValues,
  ): NewJob {
    return {
      queue: TRIAL_QUEUE,
      groupKey: `user:${userId}`,
      batchKey: optimization,
      payload: { optimization, stage, index, params } satisfies TrialPayload,
      maxAttempts: settings.maxAttempts,
    };
  }

  /**
   * A stage's feeds: its own bars first, then the other feeds' bars over the same span (a
   * walk-forward fold's window); none for an optimisation on one feed.
   */
  function feedsOfStage(loaded: Loaded, bars: readonly Bar[]): Feed[] | undefined {
    const first = bars[0];
    const last = bars.at(-1);
    if (loaded.feeds.length === 0 || !first || !last) return undefined;
    const own = { code: loaded.row.symbol, period: loaded.row.period as Feed['period'], bars };
    const end = nextBucketStart(own.period, last.time);
    return [
      own,
      ...loaded.feeds.map((feed) => ({
        ...feed,
        bars: feed.bars.filter(
          (bar) => bar.time < end && nextBucketStart(feed.period, bar.time) > first.time,
        ),
      })),
    ];
  }

  /**
   * Runs trials of one stage, in order; what to keep of each (one per trial, unless `signal`
   * stopped them: then fewer). In a warm interpreter of the optimisation's own stage, a batch
   * per message, its figures computed in one body worker task (one feed or several); a
   * session that a limit or a crash ended is replaced and the trials after the one it ended
   * on go on in the new one.
   */
  async function runTrials(
    loaded: Loaded,
    stage: Stage,
    list: readonly ParamValues[],
    signal: AbortSignal,
    timing: BatchTiming,
  ): Promise<Outcome[]> {
    const declared = parseStrategyParams(loaded.code);
    const params: StrategyParam[] = declared.ok ? declared.params : [];
    const bars = barsOfStage(loaded, stage);
    const feeds = feedsOfStage(loaded, bars);
    // a trial's PARAMS line runs in the module after it loaded, before main (params.ts)
    const updates = list.map((values) => paramsUpdateStatement(params, values));
    const request = {
      userId: loaded.row.userId,
      filename: `${loaded.row.strategyName ?? 'strategy'}.py`,
      bars,
      symbol: loaded.row.symbol,
      period: loaded.row.period,
      ...(feeds ? { feeds } : {}),
    };
    const objective = loaded.row.objective as OptimizationObjective;
    const withDetail = stage.startsWith('oos:');
    const outcomes: Outcome[] = [];
    if (settings.warm) {
      const key = `${loaded.row.id}:${stage}`;
      // pieces of the batch in turn: the interpreter runs the next piece's main() while the
      // body worker checks and computes the previous one's
      const piece = Math.max(PIECE_MIN, Math.ceil(updates.length / PIECES));
      const pieces: Promise<Outcome[]>[] = [];
      let sent = 0;
      while (sent < updates.length && !signal.aborted) {
        let session = takeSession(key);
        const opening = performance.now();
        try {
          session ??= await deps.pool.openSession({
            code: loaded.code,
            filename: request.filename,
            rows: feeds
              ? backtest.feedRowsOf(feeds)
              : backtest.rowsOf(bars, request.symbol, request.period),
          });
        } catch {
          break; // the sandbox cannot run: the plain trials say why
        }
        timing.open += performance.now() - opening;
        const part = updates.slice(sent, sent + piece);
        let ran: (count: number) => void = () => undefined;
        const free = new Promise<number>((resolve) => (ran = resolve));
        const running = performance.now();
        const figures = backtest.trialsFigures(
          session,
          { ...request, code: loaded.code },
          part,
          objective,
          withDetail,
          ran,
        );
        let count: number;
        try {
          count = await Promise.race([free, figures.then((list) => list.length)]);
        } catch (error) {
          putSession(key, session);
          await Promise.allSettled(pieces);
          throw error;
        }
        timing.sandbox += performance.now() - running;
        putSession(key, session);
        const evaluating = performance.now();
        pieces.push(
          figures.then((list) => {
            timing.evaluate += performance.now() - evaluating;
            return list.map((figure): Outcome =>
              figure.ok ? figure : { ok: false, error: figure.failure.error },
            );
          }),
        );
        if (count === 0) break;
        // a session that a limit or a crash ended: the trials after go to a new one
        sent += count;
      }
      for (const list of await Promise.all(pieces)) outcomes.push(...list);
    }
    for (let i = outcomes.length; i < updates.length && !signal.aborted; i++) {
      const code = `${loaded.code}\n${updates[i]}\n`;
      const result = await backtest.trial({ ...request, code });
      if (!result.ok) {
        outcomes.push({ ok: false, error: result.error });
        continue;
      }
      // on several feeds: the portfolio's equity (one account)
      const curve = result.equity ?? equityCurve(bars, result.trades, result.conventions);
      outcomes.push(trialOf(result, curve, bars, objective, withDetail));
    }
    return outcomes;
  }

  /** Adds out-of-sample trials of folds whose in-sample trials all ended; completes at the end. */
  async function advance(tx: Db, id: string, timing?: BatchTiming): Promise<void> {
    const [row] = await rawQuery(
      tx,
      `select status, user_id, request->'walk_forward' as walk_forward from optimizations
       where id = $1 for update`,
      [id],
    );
    if (!row || row.status !== 'PROCESSING') return;
    const walkForward = (row.walk_forward ?? null) as WalkForwardSettings | null;
    if (walkForward) {
      const stages = await rawQuery(
        tx,
        `select stage, count(*) filter (where status = $2)::int as pending,
           count(*)::int as total from optimization_trials where optimization_id = $1 group by stage`,
        [id, TRIAL_CREATED],
      );
      const byStage = new Map(stages.map((s) => [String(s.stage), s]));
      const folds = walkForward.folds;
      for (let fold = 0; fold < folds; fold++) {
        const inSample = byStage.get(`is:${fold}`);
        if (!inSample || Number(inSample.pending) > 0 || byStage.has(`oos:${fold}`)) continue;
        const [best] = await rawQuery(
          tx,
          `select params from optimization_trials where optimization_id = $1 and stage = $2
             and status = $3 order by score desc nulls last, index limit 1`,
          [id, `is:${fold}`, trialTransition(TRIAL_CREATED, 'Done')],
        );
        const stage: Stage = `oos:${fold}`;
        if (!best) {
          await rawQuery(
            tx,
            `insert into optimization_trials (optimization_id, stage, index, params, status, error, finished_ms)
             values ($1, $2, 0, '{}'::jsonb, $5, $3, $4)`,
            [
              id,
              stage,
              'No in-sample trial of this fold ran without error',
              now(),
              trialTransition(TRIAL_CREATED, 'Failed'),
            ],
          );
          await rawQuery(
            tx,
            'update optimizations set trials_done = trials_done + 1 where id = $1',
            [id],
          );
          continue;
        }
        await rawQuery(
          tx,
          `insert into optimization_trials (optimization_id, stage, index, params, status)
           values ($1, $2, 0, $3::jsonb, $4)`,
          [id, stage, JSON.stringify(best.params), TRIAL_CREATED],
        );
        await enqueueJobs(
          tx,
          [trialJob(Number(row.user_id), id, stage, 0, best.params as ParamValues)],
          now(),
        );
      }
    }
    const [counts] = await rawQuery(
      tx,
      'select trials_done, trials_total from optimizations where id = $1',
      [id],
    );
    if (counts && Number(counts.trials_done) >= Number(counts.trials_total)) {
      const summarizing = performance.now();
      const summary = await summarize(tx, id, walkForward);
      if (timing) timing.summary = performance.now() - summarizing;
      await rawQuery(
        tx,
        `update optimizations set status = $4, summary = $2::jsonb, finished_ms = $3 where id = $1`,
        [
          id,
          JSON.stringify(summary),
          now(),
          optimizationTransition(row.status as OptimizationStatus, 'Completed'),
        ],
      );
    }
  }

  /**
   * The summary of an optimisation whose trials all ended: its trials read in `tx`, the
   * figures computed by the domain's optimizationSummary in a body worker (PBO over all main
   * trials' returns is the heavy part), on the event loop without one.
   */
  async function summarize(
    tx: Db,
    id: string,
    walkForward: WalkForwardSettings | null,
  ): Promise<TrialsSummary> {
    const trials = await rawQuery(
      tx,
      `select stage, index, params, status, performance, score, returns, returns_f64, detail, error
       from optimization_trials where optimization_id = $1 order by stage, index`,
      [id],
    );
    let barTimes: number[] = [];
    if (walkForward) {
      const loaded = await load(id);
      barTimes = (loaded?.bars ?? []).map((bar) => bar.time);
    }
    const input: WorkerSummaryInput = {
      walkForward,
      barTimes,
      trials: trials.map((t) => ({
        stage: String(t.stage),
        index: Number(t.index),
        params: t.params,
        status: String(t.status),
        performance: (t.performance ?? null) as TrialPerformance | null,
        score: t.score === null || t.score === undefined ? null : Number(t.score),
        returns: returnsOf(t),
        detail: t.detail ?? null,
        error: t.error === null || t.error === undefined ? null : String(t.error),
      })),
    };
    if (deps.summarize) return deps.summarize(input);
    return optimizationSummary({
      ...input,
      trials: input.trials.map((t) => ({ ...t, returns: Array.from(t.returns) })),
    });
  }

  async function owned(userId: number, id: string): Promise<OptimizationRow> {
    const [row] = await db
      .select()
      .from(optimizations)
      .where(and(eq(optimizations.id, id), eq(optimizations.userId, userId)));
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
      const space = paramSpaceSchema.safeParse(body.params);
      if (!space.success)
        throw new BadRequestError(
          `params.${problemOf(space.error)}`.replace('params.params', 'params'),
        );
      const { code, name } = await codeOf(userId, body);
      const declared = parseStrategyParams(code);
      if (!declared.ok) throw new BadRequestError(`code: ${declared.error}`);
      const resolved = resolveParamSpace(space.data, declared.params);
      if (!resolved.ok) throw new BadRequestError(resolved.error);
      let constraint = null;
      if (body.constraint && body.constraint.trim() !== '') {
        const parsedConstraint = parseConstraint(body.constraint, declared.params);
        if (!parsedConstraint.ok)
          throw new BadRequestError(`constraint: ${parsedConstraint.error}`);
        constraint = parsedConstraint.constraint;
      }
      const plan = planTrials({
        declared: declared.params,
        dimensions: resolved.dimensions,
        fixed: resolved.fixed,
        constraint,
        method: body.method,
        maxTrials: body.max_trials ?? null,
        seed: body.seed ?? 0,
        limit: settings.maxTrials,
      });
      if (!plan.ok) throw new BadRequestError(plan.error);
      const { bars, period } = await barsFor(userId, body);
      const feeds = await extraFeeds(userId, body, bars, period);
      let folds: WalkForwardFold[] = [];
      if (body.walk_forward) {
        const cut = walkForwardFolds(bars.length, body.walk_forward);
        if (!cut.ok) throw new BadRequestError(cut.error);
        folds = cut.folds;
      }
      const trials = plan.trials;
      const total = trials.length * (1 + folds.length) + folds.length;
      const id = randomUUID();
      const createdMs = now();
      await db.transaction(async (tx) => {
        const [open] = await rawQuery(
          tx,
          `select count(*)::int as n from optimizations where user_id = $1 and status in ($2, $3)`,
          [userId, ...OPTIMIZATION_OPEN],
        );
        if (Number(open?.n ?? 0) >= settings.maxOpenPerUser) {
          throw new BadRequestError(
            `You already have ${Number(open?.n)} optimizations running; wait for one to finish or cancel it`,
          );
        }
        await tx.insert(optimizations).values({
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
                    bars: feed.bars.map((b) => [b.time, b.open, b.high, b.low, b.close, b.volume]),
                  })),
                }
              : {}),
          },
          status: OPTIMIZATION_CREATED,
          trialsTotal: total,
          createdMs,
        });
        const stages: Stage[] = ['main', ...folds.map((_, i): Stage => `is:${i}`)];
        const rows = stages.flatMap((stage) =>
          trials.map((params, index) => ({ stage, index, params })),
        );
        for (let at = 0; at < rows.length; at += 500) {
          await rawQuery(
            tx,
            `insert into optimization_trials (optimization_id, stage, index, params, status)
             select $1, x.stage, x.index, x.params, $3
             from jsonb_to_recordset($2::jsonb) as x(stage text, index int, params jsonb)`,
            [id, JSON.stringify(rows.slice(at, at + 500)), TRIAL_CREATED],
          );
        }
        await enqueueJobs(
          tx,
          rows.map((r) => trialJob(userId, id, r.stage, r.index, r.params)),
          createdMs,
        );
      });
      deps.notify();
      return { id, status: 'PENDING', trials_total: total };
    },

    async list(userId: number, strategyName?: string) {
      const rows = await db
        .select({
          id: optimizations.id,
          strategyName: optimizations.strategyName,
          symbol: optimizations.symbol,
          period: optimizations.period,
          objective: optimizations.objective,
          method: optimizations.method,
          status: optimizations.status,
          trialsDone: optimizations.trialsDone,
          trialsTotal: optimizations.trialsTotal,
          createdMs: optimizations.createdMs,
          finishedMs: optimizations.finishedMs,
        })
        .from(optimizations)
        .where(
          strategyName === undefined
            ? eq(optimizations.userId, userId)
            : and(eq(optimizations.userId, userId), eq(optimizations.strategyName, strategyName)),
        );
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
      const descending = query.sort.startsWith('-');
      const key = descending ? query.sort.slice(1) : query.sort;
      const order =
        key === 'index'
          ? 'index'
          : key === 'objective'
            ? 'score'
            : `(performance->>'${key}')::float8`;
      const trials = await rawQuery(
        db,
        `select index, params, status, performance, score, error from optimization_trials
         where optimization_id = $1 and stage = 'main'
         order by ${order} ${descending ? 'desc' : 'asc'} nulls last, index
         offset $2 limit $3`,
        [id, query.skip, query.limit],
      );
      const summary = row.summary as {
        best: unknown;
        walk_forward: unknown;
        overfitting: unknown;
      } | null;
      const mainTotal = (
        await rawQuery(
          db,
          `select count(*)::int as n from optimization_trials where optimization_id = $1 and stage = 'main'`,
          [id],
        )
      )[0]?.n;
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
        trials_count: Number(mainTotal ?? 0),
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
      if (row.status === 'PENDING' || row.status === 'PROCESSING') {
        await db.transaction(async (tx) => {
          await rawQuery(
            tx,
            `update optimizations set status = $3, finished_ms = $2 where id = $1 and status in ($4, $5)`,
            [
              id,
              now(),
              optimizationTransition(row.status as OptimizationStatus, 'Cancelled'),
              ...OPTIMIZATION_OPEN,
            ],
          );
          await rawQuery(
            tx,
            `update optimization_trials set status = $2 where optimization_id = $1 and status = $3`,
            [id, trialTransition(TRIAL_CREATED, 'Cancelled'), TRIAL_CREATED],
          );
          await cancelBatch(tx, id, now());
        });
      }
      closeSessions(id);
      const after = await owned(userId, id);
      return { id, status: after.status, progress: progressOf(after) };
    },

    async remove(userId: number, id: string) {
      await owned(userId, id);
      await db.transaction(async (tx) => {
        await cancelBatch(tx, id, now());
        await deleteBatch(tx, id);
        await tx
          .delete(optimizations)
          .where(and(eq(optimizations.id, id), eq(optimizations.userId, userId)));
      });
      cache.delete(id);
      closeSessions(id);
      return { deleted: id };
    },

    /** The trial queue's handler for one job (a claim of one trial). */
    async runJob({ job, owner, signal }: JobContext): Promise<void> {
      await runJobs({ jobs: [job], owner, signal });
    },

    /**
     * The trial queue's handler: trials claimed together (one optimisation's), run in
     * batches per stage and kept once, all in one transaction (modules/jobs).
     */
    runJobs,

    /**
     * How many more trials of `first`'s optimisation one claim takes: as many as run in
     * about BATCH_TARGET_MS by the trials measured so far (a few before any was measured).
     */
    claimMore(first: JobRow): number {
      const perTrial = trialMs.get(first.batchKey ?? '');
      if (perTrial === undefined) return FIRST_BATCH - 1;
      return Math.max(
        0,
        Math.min(MAX_BATCH, Math.floor(BATCH_TARGET_MS / Math.max(perTrial, 1))) - 1,
      );
    },

    /** Closes the warm interpreters (the worker stops). */
    closeSessions(): void {
      for (const entry of idleSessions.splice(0)) entry.session.close();
    },

    /** A trial whose workers kept dying: kept as failed. */
    async giveUpJob({ job, owner }: JobContext): Promise<void> {
      const payload = job.payload as TrialPayload;
      await keep(payload.optimization, owner, [
        {
          job,
          payload,
          outcome: {
            ok: false,
            error: `The trial stopped ${job.attempts - 1} times without a result (its worker ended)`,
          },
        },
      ]);
    },
  };

  async function runJobs({ jobs, owner, signal, free }: BatchContext): Promise<void> {
    const first = jobs[0];
    if (!first) return;
    const timing: BatchTiming = {
      read: 0,
      open: 0,
      sandbox: 0,
      main: 0,
      evaluate: 0,
      keep: 0,
      summary: 0,
    };
    const started = performance.now();
    const optimization = (first.payload as TrialPayload).optimization;
    const loaded = await load(optimization);
    const wanted = jobs.map((job) => ({ job, payload: job.payload as TrialPayload }));
    const runnable: { job: JobRow; payload: TrialPayload; params: ParamValues }[] = [];
    const gone: number[] = [];
    if (wanted.every(({ payload }) => payload.params !== undefined)) {
      // the params came with the jobs; a trial cancelled or kept meanwhile is not kept twice
      // (keep writes only queued trials of jobs still held)
      for (const { job, payload } of wanted) {
        if (!loaded || signal.aborted) gone.push(job.id);
        else runnable.push({ job, payload, params: payload.params as ParamValues });
      }
    } else {
      // jobs queued before their payload carried the params
      const rows = loaded
        ? await rawQuery(
            db,
            `select t.stage, t.index, t.params, t.status from optimization_trials t
             join jsonb_to_recordset($2::jsonb) as x(stage text, index int)
               on t.stage = x.stage and t.index = x.index
             where t.optimization_id = $1`,
            [
              optimization,
              JSON.stringify(
                wanted.map(({ payload }) => ({ stage: payload.stage, index: payload.index })),
              ),
            ],
          )
        : [];
      const byKey = new Map(rows.map((row) => [`${String(row.stage)}#${Number(row.index)}`, row]));
      for (const { job, payload } of wanted) {
        const trial = byKey.get(`${payload.stage}#${payload.index}`);
        if (!loaded || !trial || trial.status !== 'queued' || signal.aborted) gone.push(job.id);
        else runnable.push({ job, payload, params: trial.params as ParamValues });
      }
    }
    if (gone.length > 0) {
      // deleted, cancelled or already kept: nothing to run
      if (runnable.length === 0) closeSessions(optimization);
      await finishJobs(db, gone, owner, 'done', now());
    }
    if (!loaded || runnable.length === 0) return;
    if (loaded.row.status === 'PENDING') {
      await rawQuery(
        db,
        `update optimizations set status = $3, started_ms = coalesce(started_ms, $2) where id = $1 and status = $4`,
        [
          optimization,
          now(),
          optimizationTransition(loaded.row.status as OptimizationStatus, 'Started'),
          OPTIMIZATION_CREATED,
        ],
      );
      loaded.row = {
        ...loaded.row,
        status: optimizationTransition(loaded.row.status as OptimizationStatus, 'Started'),
        startedMs: loaded.row.startedMs ?? now(),
      };
    }
    timing.read = performance.now() - started;
    // the jobs of one claim are mostly of one stage; each stage runs in its own interpreter
    const stages = [...new Set(runnable.map((r) => r.payload.stage))];
    const kept: Kept[] = [];
    for (const stage of stages) {
      const part = runnable.filter((r) => r.payload.stage === stage);
      const outcomes = await runTrials(
        loaded,
        stage,
        part.map((r) => r.params),
        signal,
        timing,
      );
      outcomes.forEach((outcome, i) => {
        const item = part[i];
        if (item) kept.push({ job: item.job, payload: item.payload, outcome });
      });
      if (signal.aborted) break;
    }
    // the strategy's own time per trial (not the round trips around it, which batches cut)
    const measured = kept.flatMap(({ outcome }) =>
      outcome.ok && outcome.strategyMs !== null ? [outcome.strategyMs] : [],
    );
    if (measured.length > 0) {
      timing.main = measured.reduce((a, b) => a + b, 0);
      const perTrial = timing.main / measured.length;
      const before = trialMs.get(optimization);
      trialMs.set(optimization, before === undefined ? perTrial : (before + perTrial) / 2);
      while (trialMs.size > 64) trialMs.delete(trialMs.keys().next().value as string);
    }
    if (signal.aborted) return; // cancelled or taken over: another holder keeps them
    // the interpreter is done with this claim: the worker may claim the next while it is kept
    free?.();
    const keeping = performance.now();
    await keep(optimization, owner, kept, timing);
    timing.keep = performance.now() - keeping;
    deps.log?.debug(
      {
        optimization,
        trials: kept.length,
        totalMs: Math.round(performance.now() - started),
        ...Object.fromEntries(
          Object.entries(timing).map(([phase, ms]) => [`${phase}Ms`, Math.round(ms)]),
        ),
      },
      'optimisation trial batch timed',
    );
  }

  /**
   * Keeps trials of one optimisation in one transaction: ends their jobs (only those still
   * held by `owner`: a trial run twice is kept once), writes their results in one statement
   * (returns as float64 bytes, cut from one parameter), counts them, and advances the
   * optimisation (out-of-sample trials, the summary at the end).
   */
  async function keep(
    optimization: string,
    owner: string,
    items: readonly Kept[],
    timing?: BatchTiming,
  ): Promise<void> {
    if (items.length === 0) return;
    await db.transaction(async (tx) => {
      const held = await finishJobs(
        tx,
        items.map((item) => item.job.id),
        owner,
        'done',
        now(),
      );
      const mine = items.filter((item) => held.has(item.job.id));
      if (mine.length === 0) return;
      const blobs: Buffer[] = [];
      let offset = 0;
      const records = mine.map(({ payload, outcome }) => {
        const base = { stage: payload.stage, index: payload.index };
        if (!outcome.ok) {
          return {
            ...base,
            status: trialTransition(TRIAL_CREATED, 'Failed'),
            error: outcome.error,
          };
        }
        const bytes = Buffer.from(
          outcome.returns.buffer,
          outcome.returns.byteOffset,
          outcome.returns.byteLength,
        );
        blobs.push(bytes);
        const at = offset;
        offset += bytes.length;
        return {
          ...base,
          status: trialTransition(TRIAL_CREATED, 'Done'),
          performance: outcome.performance,
          score: outcome.score,
          detail: outcome.detail,
          at,
          length: bytes.length,
        };
      });
      const stored = await rawQuery(
        tx,
        `update optimization_trials t set status = x.status, performance = x.performance,
           score = x.score, returns = null,
           returns_f64 = case when x.length is null then null
             else substring($3::bytea from x.at + 1 for x.length) end,
           detail = x.detail, error = x.error, runs = t.runs + 1, finished_ms = $4
         from jsonb_to_recordset($2::jsonb) as x(stage text, index int, status text,
           performance jsonb, score float8, detail jsonb, error text, at int, length int)
         where t.optimization_id = $1 and t.stage = x.stage and t.index = x.index
           and t.status = $5
         returning t.id`,
        [optimization, JSON.stringify(records), Buffer.concat(blobs), now(), TRIAL_CREATED],
      );
      if (stored.length === 0) return;
      await rawQuery(
        tx,
        `update optimizations set trials_done = trials_done + $5,
           status = case when status = $3 then $4 else status end,
           started_ms = coalesce(started_ms, $2)
         where id = $1`,
        [
          optimization,
          now(),
          OPTIMIZATION_CREATED,
          optimizationTransition(OPTIMIZATION_CREATED, 'Started'),
          stored.length,
        ],
      );
      await advance(tx, optimization, timing);
    });
    await deps.onTrialKept?.(optimization);
  }
}

export type OptimizationService = ReturnType<typeof createOptimizationService>;
