import {
  equityCurve,
  paramsUpdateStatement,
  parseStrategyParams,
  type OptimizationObjective,
  type ParamValues,
  type StrategyParam,
} from '@ct/domain';
import { trialOf } from '../../backtest/evaluate.ts';
import type { BatchTiming, Loaded, OptimizationDeps, Outcome, RunnerState, Stage } from './deps.ts';
import { barsOfStage, feedsOfStage } from './load.ts';

/*
 * The sandbox step: a batch of one stage's trials run in a warm interpreter of the
 * optimisation's own stage (code loaded and bars sent once), the figures of each computed
 * in a body worker as a backtest's are; without warm interpreters, or for what they could
 * not run, each trial runs as a plain backtest of its code.
 */

/** A batch goes to the interpreter in about this many pieces (pipelined with the checks). */
const PIECES = 4;
/** Fewest trials per piece. */
const PIECE_MIN = 4;

/**
 * Runs trials of one stage, in order; what to keep of each (one per trial, unless `signal`
 * stopped them: then fewer). In a warm interpreter of the optimisation's own stage, a batch
 * per message, its figures computed in one body worker task (one feed or several); a
 * session that a limit or a crash ended is replaced and the trials after the one it ended
 * on go on in the new one. `onAnswered` is told once the interpreter has answered every
 * trial (with the time inside main() each answer says), while the last piece's figures are
 * still being computed: the worker may claim its next batch then.
 */
export async function runBatch(
  deps: Pick<OptimizationDeps, 'backtest' | 'pool' | 'settings'>,
  state: Pick<RunnerState, 'sessions'>,
  loaded: Loaded,
  stage: Stage,
  list: readonly ParamValues[],
  signal: AbortSignal,
  timing: BatchTiming,
  onAnswered?: (strategyMs: readonly number[]) => void,
): Promise<Outcome[]> {
  const { backtest } = deps;
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
  if (deps.settings.warm) {
    const key = `${loaded.row.id}:${stage}`;
    // pieces of the batch in turn: the interpreter runs the next piece's main() while the
    // body worker checks and computes the previous one's
    const piece = Math.max(PIECE_MIN, Math.ceil(updates.length / PIECES));
    const pieces: Promise<Outcome[]>[] = [];
    const strategyMs: number[] = [];
    let sent = 0;
    while (sent < updates.length && !signal.aborted) {
      let session = state.sessions.take(key);
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
      let ran: (count: number, ms: readonly number[]) => void = () => undefined;
      const free = new Promise<number>(
        (resolve) =>
          (ran = (count, ms) => {
            strategyMs.push(...ms);
            resolve(count);
          }),
      );
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
        state.sessions.put(key, session);
        await Promise.allSettled(pieces);
        throw error;
      }
      timing.sandbox += performance.now() - running;
      state.sessions.put(key, session);
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
    if (sent >= updates.length && !signal.aborted) onAnswered?.(strategyMs);
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
