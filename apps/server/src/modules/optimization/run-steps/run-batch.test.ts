import { describe, expect, it } from 'vitest';
import type { TrialEvaluation } from '../../backtest/evaluate.ts';
import type { SandboxSession } from '../../backtest/sandbox/pool.ts';
import type { Loaded, OptimizationDeps } from './deps.ts';
import { newTiming } from './deps.ts';
import { runBatch } from './run-batch.ts';
import { WarmSessions } from './sessions.ts';

const CODE = 'PARAMS = {"fast": 5}\n\ndef main(data_array):\n    return []\n';

const figure = (score: number): TrialEvaluation => ({
  ok: true,
  performance: {
    net_profit: score,
    trade_count: 0,
    win_rate: 0,
    sharpe: null,
    max_drawdown: 0,
    profit_factor: null,
  } as never,
  score,
  returns: new Float64Array(0),
  strategyMs: 3,
  detail: null,
});

/** A warm interpreter that answers each piece at once and a body worker whose figures wait. */
function fakes(events: string[]) {
  const computed: (() => void)[] = [];
  const session = { alive: true, close: () => undefined } as unknown as SandboxSession;
  const deps = {
    settings: { warm: true },
    pool: { openSession: async () => session },
    backtest: {
      rowsOf: () => [],
      feedRowsOf: () => [],
      trialsFigures: (
        _session: unknown,
        _request: unknown,
        updates: readonly string[],
        _objective: unknown,
        _detail: boolean,
        onRan?: (count: number, ms: readonly number[]) => void,
      ) => {
        events.push(`answered ${updates.length}`);
        onRan?.(
          updates.length,
          updates.map(() => 2.5),
        );
        return new Promise<TrialEvaluation[]>((resolve) =>
          computed.push(() => {
            events.push(`computed ${updates.length}`);
            resolve(updates.map((_, i) => figure(i)));
          }),
        );
      },
    },
  } as unknown as Pick<OptimizationDeps, 'backtest' | 'pool' | 'settings'>;
  return { deps, computed };
}

const loaded = {
  bars: [],
  code: CODE,
  feeds: [],
  row: {
    id: 'opt-1',
    userId: 1,
    strategyName: 'S',
    symbol: 'GOOG',
    period: 'day',
    objective: 'net_profit',
  },
} as unknown as Loaded;

describe('runBatch', () => {
  it('tells the interpreter is done with the batch before the last piece’s figures are computed', async () => {
    const events: string[] = [];
    const { deps, computed } = fakes(events);
    const list = Array.from({ length: 16 }, (_, i) => ({ fast: i + 1 }));
    const running = runBatch(
      deps,
      { sessions: new WarmSessions(1) },
      loaded,
      'main',
      list,
      new AbortController().signal,
      newTiming(),
      (ms) => events.push(`free after ${ms.length} answers, ${ms.reduce((a, b) => a + b, 0)} ms`),
    );
    await new Promise((resolve) => setImmediate(resolve));
    // every piece answered and the worker freed while no figure was computed yet
    expect(events).toEqual([
      'answered 4',
      'answered 4',
      'answered 4',
      'answered 4',
      'free after 16 answers, 40 ms',
    ]);
    for (const compute of computed) compute();
    const outcomes = await running;
    expect(outcomes).toHaveLength(16);
    expect(events.slice(5)).toEqual(['computed 4', 'computed 4', 'computed 4', 'computed 4']);
  });

  it('does not free the worker when the batch was stopped before every trial ran', async () => {
    const events: string[] = [];
    const { deps, computed } = fakes(events);
    const controller = new AbortController();
    controller.abort();
    const outcomes = runBatch(
      deps,
      { sessions: new WarmSessions(1) },
      loaded,
      'main',
      [{ fast: 1 }, { fast: 2 }],
      controller.signal,
      newTiming(),
      () => events.push('free'),
    );
    for (const compute of computed) compute();
    await outcomes;
    expect(events).not.toContain('free');
  });
});
