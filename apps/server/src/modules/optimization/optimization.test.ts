import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  formatContractDate,
  optimizationDetailSchema,
  optimizationListSchema,
  periodReturns,
  trialPerformance,
  withParamValues,
  type Deal,
  type Performance,
} from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawQuery } from '../../db/raw.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { caller, login, testSandbox } from '../../test/backtest.ts';
import { SHIPPED_HISTORY_DIR } from '../market/real-history.ts';
import { SandboxProcess } from '../backtest/sandbox/process.ts';

const UID_BASE = 57_000;

let t: TestApp;
let asAlice: ReturnType<typeof caller>;
let asBob: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      sandbox: testSandbox({
        uidBase: UID_BASE,
        maxPerUser: 2,
        maxConcurrent: 2,
        timeoutMs: 20_000,
      }),
      logLevel: 'error',
      optimization: { maxTrials: 40, pollMs: 100, concurrency: 2, maxOpenPerUser: 10 },
    },
  });
  asAlice = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  asBob = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  t.app.services.optimization.startWorker();
}, 120_000);
afterAll(() => t.close());

/** A moving-average crossover reading its two lengths from PARAMS. */
const SMA = `PARAMS = {"n1": 5, "n2": 20, "lots": 1}


def main(data_array):
    n1, n2 = PARAMS["n1"], PARAMS["n2"]
    closes = [float(row[6]) for row in data_array]
    trades, position = [], None

    def mean(n, end):
        return sum(closes[end - n + 1 : end + 1]) / n

    for i in range(n2, len(closes)):
        up = mean(n1, i - 1) <= mean(n2, i - 1) and mean(n1, i) > mean(n2, i)
        down = mean(n1, i - 1) >= mean(n2, i - 1) and mean(n1, i) < mean(n2, i)
        if not (up or down):
            continue
        if position is not None:
            position.update(close_date=data_array[i][0], close_price=closes[i], status="YES")
            trades.append(position)
        position = {"open_date": data_array[i][0], "close_date": None, "open_price": closes[i],
                    "close_price": None, "lots": PARAMS["lots"] if up else -PARAMS["lots"], "status": "NOT"}
    if position is not None:
        trades.append(position)
    return trades
`;

type Trial = {
  index: number;
  params: Record<string, number>;
  status: string;
  performance: Record<string, number | null> | null;
  error?: string;
};
type View = {
  id: string;
  status: string;
  bar_count: number;
  progress: { done: number; total: number; eta_s: number | null };
  best: { params: Record<string, number>; performance: Record<string, number> } | null;
  trials: Trial[];
  walk_forward?: {
    folds: {
      in_sample: { from: string; to: string; performance: unknown };
      out_of_sample: { from: string; to: string; performance: unknown };
      params: Record<string, number>;
    }[];
    stitched: { performance: Record<string, number | null>; equity: [string, number][] };
    in_sample?: { params: Record<string, number> | null; equity: [string, number][] };
    efficiency: number | null;
  };
  overfitting?: {
    pbo: unknown;
    deflated_sharpe: unknown;
    trials: number;
    verdict: string;
    reasons: string[];
  };
};

const BASE = { code: SMA, symbol_id: 'GOOG', period: 'oneDay', bars: 300, objective: 'net_profit' };

async function start(body: Record<string, unknown>, as = asAlice): Promise<string> {
  const res = await as('POST', '/api/optimizations', { ...BASE, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string }>().id;
}

async function view(id: string, query = '?limit=1000&sort=index'): Promise<View> {
  const res = await asAlice('GET', `/api/optimizations/${id}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<View>();
}

async function finished(id: string): Promise<View> {
  let last: View;
  const deadline = Date.now() + 240_000;
  for (;;) {
    // polled like a client: each answer is read whole
    last = await view(id);
    if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(last.status)) return last;
    if (Date.now() > deadline)
      throw new Error(`still ${last.status}: ${JSON.stringify(last.progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('optimizations', () => {
  it('a grid over two parameters with a constraint runs exactly the allowed combinations, each equal to its single backtest', async () => {
    const id = await start({
      params: { n1: { min: 5, max: 15, step: 5 }, n2: { values: [10, 15, 20] } },
      constraint: 'n1 < n2',
      method: 'grid',
    });
    const done = await finished(id);
    expect(done.status).toBe('COMPLETED');
    expect(done.progress).toMatchObject({ done: 6, total: 6, eta_s: 0 });
    expect(done.trials.map((trial) => [trial.params.n1, trial.params.n2])).toEqual([
      [5, 10],
      [5, 15],
      [5, 20],
      [10, 15],
      [10, 20],
      [15, 20],
    ]);
    const stored = new Map<string, Float64Array>();
    for (const row of await rawQuery(
      t.db,
      `select params, returns_f64 from optimization_trials where optimization_id = $1 and stage = 'main'`,
      [id],
    )) {
      const params = row.params as { n1: number; n2: number };
      const bytes = new Uint8Array(row.returns_f64 as Uint8Array);
      stored.set(`${params.n1}/${params.n2}`, new Float64Array(bytes.buffer, 0, bytes.length / 8));
    }
    for (const trial of done.trials) {
      expect(trial.status).toBe('done');
      const edited = withParamValues(SMA, trial.params);
      if (!edited.ok) throw new Error(edited.error);
      const res = await asAlice('POST', '/api/backtest/run', {
        code: edited.code,
        symbol: 'GOOG',
        period: 'oneDay',
        limit: 300,
      });
      expect(res.json<{ success: boolean }>().success, res.body).toBe(true);
      const single = res.json<{ data: { deals: Deal[]; performance: Performance } }>().data;
      expect(trial.performance).toEqual(trialPerformance(single.deals, single.performance));
      // the per-bar returns kept for the overfitting checks are those of its equity curve
      const kept = stored.get(`${trial.params.n1}/${trial.params.n2}`);
      const expected = periodReturns(single.performance.equity_curve.map(([, equity]) => equity));
      expect(kept?.length).toBe(expected.length);
      expected.forEach((r, i) => expect(kept?.[i]).toBeCloseTo(r, 6)); // the curve is in cents
    }
    const best = [...done.trials].sort(
      (a, b) => Number(b.performance?.net_profit) - Number(a.performance?.net_profit),
    )[0];
    expect(done.best?.params).toEqual(best?.params);
    expect(done.overfitting?.trials).toBe(6);
    expect(['likely overfit', 'inconclusive', 'holds out of sample']).toContain(
      done.overfitting?.verdict,
    );
    // sorted and paged trials
    const page = await view(id, '?sort=-net_profit&skip=1&limit=2');
    expect(page.trials.map((trial) => trial.params)).toEqual(
      [...done.trials]
        .sort(
          (a, b) =>
            Number(b.performance?.net_profit) - Number(a.performance?.net_profit) ||
            a.index - b.index,
        )
        .slice(1, 3)
        .map((trial) => trial.params),
    );
  }, 300_000);

  it('trials reuse warm interpreters of their optimisation, and a failed trial is kept with its error while the others go on', async () => {
    const pool = t.app.services.backtest.sandbox;
    const opened = vi.spyOn(pool, 'openSession');
    const single = vi.spyOn(pool, 'run');
    const failing = SMA.replace(
      '    n1, n2 = PARAMS["n1"], PARAMS["n2"]',
      '    n1, n2 = PARAMS["n1"], PARAMS["n2"]\n    if n1 == 7:\n        raise ValueError("n1 seven")',
    );
    const id = await start({
      code: failing,
      params: { n1: { min: 4, max: 9, step: 1 }, n2: { values: [20] } },
      method: 'grid',
    });
    const done = await finished(id);
    opened.mockRestore();
    single.mockRestore();
    expect(done.status).toBe('COMPLETED');
    expect(done.trials.map((trial) => trial.status)).toEqual([
      'done',
      'done',
      'done',
      'failed',
      'done',
      'done',
    ]);
    expect(done.trials[3]?.error).toContain('ValueError: n1 seven');
    // six trials, at most one interpreter per trial running at once, none started per trial
    expect(opened.mock.calls.length).toBeLessThanOrEqual(2);
    expect(single).not.toHaveBeenCalled();
  }, 300_000);

  it('trials go to a warm interpreter in batches; one that ends its interpreter fails alone and the batch goes on in another', async () => {
    const sent = vi.spyOn(SandboxProcess.prototype, 'nextMany');
    const dying = SMA.replace(
      '    n1, n2 = PARAMS["n1"], PARAMS["n2"]',
      '    n1, n2 = PARAMS["n1"], PARAMS["n2"]\n    if n1 == 5:\n        import os\n        os._exit(3)',
    );
    const id = await start({
      code: dying,
      params: { n1: { min: 3, max: 8, step: 1 }, n2: { values: [20] } },
      method: 'grid',
    });
    const done = await finished(id);
    const messages = sent.mock.calls.map(([updates]) => updates.length);
    const interpreters = new Set(sent.mock.contexts).size;
    sent.mockRestore();
    expect(done.status).toBe('COMPLETED');
    expect(done.trials.map((trial) => trial.status)).toEqual([
      'done',
      'done',
      'failed',
      'done',
      'done',
      'done',
    ]);
    expect(done.trials[2]?.error).toContain('ended without returning a result');
    // several trials per message; the trials after the one that ended it ran in a new one
    expect(Math.max(...messages)).toBeGreaterThan(1);
    expect(interpreters).toBeGreaterThanOrEqual(2);
    // returns are kept as float64 bytes, one per bar after the first
    const [after] = await rawQuery(
      t.db,
      `select returns_f64, returns from optimization_trials
       where optimization_id = $1 and stage = 'main' and index = 3`,
      [id],
    );
    expect(after?.returns).toBeNull();
    expect((after?.returns_f64 as Uint8Array).length).toBe(8 * 299);
  }, 300_000);

  it('the random method honours max_trials and gives the same trials for the same seed', async () => {
    const body = {
      params: { n1: { min: 2, max: 20, step: 1 }, n2: { min: 21, max: 60, step: 1 } },
      method: 'random',
      max_trials: 5,
      seed: 42,
    };
    const first = await view(await start(body));
    const second = await view(await start(body));
    const other = await view(await start({ ...body, seed: 43 }));
    for (const one of [first, second, other]) {
      await asAlice('POST', `/api/optimizations/${one.id}/cancel`);
    }
    expect(first.progress.total).toBe(5);
    expect(first.trials).toHaveLength(5);
    expect(second.trials.map((trial) => trial.params)).toEqual(
      first.trials.map((trial) => trial.params),
    );
    expect(other.trials.map((trial) => trial.params)).not.toEqual(
      first.trials.map((trial) => trial.params),
    );
  }, 120_000);

  it('walk-forward folds do not overlap out of sample and choose from their in-sample part only', async () => {
    const id = await start({
      params: { n1: { values: [3, 8] }, n2: { values: [20] } },
      method: 'grid',
      bars: 300,
      walk_forward: { folds: 2, in_sample_pct: 60 },
    });
    const done = await finished(id);
    expect(done.status).toBe('COMPLETED');
    // 2 trials on all bars, 2 per fold in sample, 1 per fold out of sample
    expect(done.progress).toMatchObject({ done: 8, total: 8 });
    const folds = done.walk_forward?.folds ?? [];
    expect(folds).toHaveLength(2);
    for (const [i, fold] of folds.entries()) {
      expect(fold.in_sample.to < fold.out_of_sample.from).toBe(true);
      if (i > 0)
        expect((folds[i - 1]?.out_of_sample.to ?? '') < fold.out_of_sample.from).toBe(true);
      const [best] = await rawQuery(
        t.db,
        `select params from optimization_trials where optimization_id = $1 and stage = $2
         and status = 'done' order by score desc nulls last, index limit 1`,
        [id, `is:${i}`],
      );
      expect(fold.params).toEqual(best?.params);
    }
    expect(done.walk_forward?.stitched.equity.length).toBeGreaterThan(0);
    expect(done.overfitting).toMatchObject({ trials: 2 });
    // the answer reads as the client's schema reads it
    expect(optimizationDetailSchema.safeParse(done).success).toBe(true);
    expect(optimizationDetailSchema.parse(done).code).toBe(SMA);
    // the best parameters of all bars over the stitched window, starting from the capital
    const inSample = done.walk_forward?.in_sample;
    expect(inSample?.params).toEqual(done.best?.params);
    const stitched = done.walk_forward?.stitched.equity ?? [];
    expect(inSample?.equity[0]).toEqual([stitched[0]?.[0], stitched[0]?.[1]]);
    expect(inSample?.equity.at(-1)?.[0]).toBe(stitched.at(-1)?.[0]);
  }, 300_000);

  it('cancel stops new trials', async () => {
    const id = await start({
      params: { n1: { min: 2, max: 11, step: 1 }, n2: { values: [30, 40] } },
      method: 'grid',
    });
    const res = await asAlice('POST', `/api/optimizations/${id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'CANCELLED' });
    const worker = t.app.services.optimization.worker();
    await worker?.whenIdle();
    const after = await view(id);
    expect(after.status).toBe('CANCELLED');
    // at most the trials already running when it was cancelled
    expect(after.trials.filter((trial) => trial.status === 'done').length).toBeLessThanOrEqual(2);
    const [queued] = await rawQuery(
      t.db,
      `select count(*)::int as n from jobs where batch_key = $1 and state in ('queued', 'active')`,
      [id],
    );
    expect(Number(queued?.n)).toBe(0);
  }, 120_000);

  it("another user's optimization answers exactly like an unknown one", async () => {
    const id = await start({ params: { n1: { values: [5] } }, method: 'grid' });
    const unknown = '0b6a3c1e-6a43-4c59-9a3c-1d2f6f0f9a11';
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/cancel'],
      ['DELETE', ''],
    ] as const) {
      const theirs = await asBob(method, `/api/optimizations/${id}${path}`);
      const none = await asBob(method, `/api/optimizations/${unknown}${path}`);
      expect(theirs.statusCode).toBe(404);
      expect(none.statusCode).toBe(404);
      expect(theirs.json()).toEqual({
        ...none.json<object>(),
        detail: `Optimization not found: ${id}`,
        msg: expect.any(String),
      });
    }
    const list = await asBob('GET', '/api/optimizations');
    expect(list.json<{ items: unknown[] }>().items).toEqual([]);
    expect((await view(id)).status).not.toBe('CANCELLED');
    const deleted = await asAlice('DELETE', `/api/optimizations/${id}`);
    expect(deleted.json()).toEqual({ deleted: id });
    expect((await asAlice('GET', `/api/optimizations/${id}`)).statusCode).toBe(404);
  }, 120_000);

  it.each([
    [{ params: { n9: { values: [1] } } }, 'params.n9: n9 is not a parameter of the strategy'],
    [{ params: { n1: { min: 10, max: 5, step: 1 } } }, 'params.n1.max: max must be at least min'],
    [{ params: { n1: { min: 1, max: 5, step: 0 } } }, 'step must be above 0'],
    [
      { params: { n1: { min: 1, max: 100, step: 1 }, n2: { min: 1, max: 100, step: 1 } } },
      'the grid has 10,000 combinations; at most 40 trials are allowed',
    ],
    [{ params: { n1: { values: [5] } }, constraint: 'n1 < n3' }, 'constraint:'],
    [{ params: { n1: { values: [5] } }, constraint: '__import__("os")' }, 'constraint:'],
    [{ params: { n1: { values: [5] } }, objective: 'luck' }, 'objective'],
  ])('a bad body %j gets { detail } and creates nothing', async (body, detail) => {
    const before = (await asAlice('GET', '/api/optimizations')).json<{ items: unknown[] }>().items
      .length;
    const res = await asAlice('POST', '/api/optimizations', { ...BASE, method: 'grid', ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toContain(detail);
    const after = (await asAlice('GET', '/api/optimizations')).json<{ items: unknown[] }>().items
      .length;
    expect(after).toBe(before);
  });

  it('lists the optimisations of one strategy with ?strategy_name=', async () => {
    const one = await start({
      strategy_name: 'Alpha',
      params: { n1: { values: [5] } },
      method: 'grid',
    });
    const other = await start({
      strategy_name: 'Beta',
      params: { n1: { values: [5] } },
      method: 'grid',
    });
    const listed = async (query: string) => {
      const res = await asAlice('GET', `/api/optimizations${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return optimizationListSchema.parse(res.json()).items.map((item) => item.id);
    };
    expect(await listed('?strategy_name=Alpha')).toEqual([one]);
    expect(await listed('?strategy_name=Beta')).toEqual([other]);
    expect(await listed('?strategy_name=Gamma')).toEqual([]);
    expect(await listed('')).toEqual(expect.arrayContaining([one, other]));
    // another user's strategy of the same name lists nothing of Alice's
    const theirs = await asBob('GET', '/api/optimizations?strategy_name=Alpha');
    expect(theirs.json<{ items: unknown[] }>().items).toEqual([]);
    for (const id of [one, other]) await asAlice('DELETE', `/api/optimizations/${id}`);
  }, 120_000);

  it("optimises the Default strategy's two parameters", async () => {
    const id = await start({
      code: undefined,
      strategy_name: 'Default',
      params: { fast: { values: [5, 10] }, slow: { values: [30] } },
      method: 'grid',
      bars: 200,
    });
    const done = await finished(id);
    expect(done.status).toBe('COMPLETED');
    expect(done.trials.map((trial) => trial.params)).toEqual([
      { fast: 5, slow: 30 },
      { fast: 10, slow: 30 },
    ]);
    expect(done.trials.every((trial) => trial.status === 'done')).toBe(true);
  }, 300_000);
  describe('a date range', () => {
    /** Fails on purpose: its error tells the bars the trial's main() was given. */
    const TELL = `PARAMS = {"n1": 1}


def main(data_array):
    raise ValueError(f"saw {len(data_array)} bars from {data_array[0][0]} to {data_array[-1][0]}")
`;

    async function rangeOptimised(body: Record<string, unknown>, times: number[]): Promise<void> {
      const id = await start({
        code: TELL,
        bars: undefined,
        params: { n1: { values: [1] } },
        method: 'grid',
        ...body,
      });
      const done = await finished(id);
      expect(done.status).toBe('COMPLETED');
      expect(done.bar_count).toBe(times.length);
      const first = formatContractDate(times[0] ?? 0);
      const last = formatContractDate(times.at(-1) ?? 0);
      expect(done.trials[0]?.error).toContain(`saw ${times.length} bars from ${first} to ${last}`);
    }

    it('older than the newest 5,000 bars is optimised on exactly the bars between from and to', async () => {
      const newest = await t.app.services.backtest.service.loadBars(0, 'GOOG', 'day', 5000);
      if (!newest.ok) throw new Error(newest.reason);
      // the shipped daily history of 2005, older than anything the newest 5,000 bars reach
      const times = readFileSync(path.join(SHIPPED_HISTORY_DIR, 'GOOG.csv'), 'utf8')
        .split('\n')
        .map((line) => line.split(',')[0] ?? '')
        .filter((date) => date >= '2005-01-01' && date <= '2005-12-31')
        .map((date) => Date.parse(`${date}T00:00:00Z`));
      expect(times.length).toBeGreaterThan(200);
      expect(times.at(-1)).toBeLessThan(newest.bars[0]?.time ?? 0);
      await rangeOptimised({ from: '2005-01-01', to: '2005-12-31' }, times);
      // `to` is the last bar's own time: that bar is in, the next is not
      await rangeOptimised(
        { from: (times[1] ?? 0) / 1000, to: (times[10] ?? 0) / 1000 },
        times.slice(1, 11),
      );
    }, 300_000);

    it("a trial's backtest runs on exactly the optimisation's own bars, not the newest", async () => {
      const id = await start({
        bars: undefined,
        from: '2005-01-01',
        to: '2005-12-31',
        params: { n1: { values: [3, 5] }, n2: { values: [20] } },
        method: 'grid',
      });
      const done = await finished(id);
      expect(done.status).toBe('COMPLETED');
      for (const trial of done.trials) {
        const res = await asAlice('POST', `/api/optimizations/${id}/backtest`, {
          params: trial.params,
        });
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json<{
          success: boolean;
          data: { bar_count: number; deals: Deal[]; performance: Performance; run_id: string };
        }>();
        expect(answer.success).toBe(true);
        expect(answer.data.bar_count).toBe(done.bar_count);
        expect(answer.data.deals[0]?.open_date.startsWith('2005-')).toBe(true);
        expect(trialPerformance(answer.data.deals, answer.data.performance)).toEqual(
          trial.performance,
        );
      }
      // values the strategy does not declare, another user's optimisation
      const unknown = await asAlice('POST', `/api/optimizations/${id}/backtest`, {
        params: { nope: 1 },
      });
      expect(unknown.statusCode).toBe(400);
      const other = await asBob('POST', `/api/optimizations/${id}/backtest`, {
        params: done.trials[0]?.params,
      });
      expect(other.statusCode).toBe(404);
    }, 300_000);

    it("of the user's imported instrument reaches bars older than the newest 5,000", async () => {
      const start2000 = Date.UTC(2000, 0, 1);
      const times = Array.from({ length: 6000 }, (_, i) => start2000 + i * 86_400_000);
      const csv = [
        ',Open,High,Low,Close,Volume',
        ...times.map((time, i) => {
          const price = 100 + (i % 50);
          return `${new Date(time).toISOString().slice(0, 10)},${price},${price + 1},${price - 1},${price + 0.5},1000`;
        }),
      ].join('\n');
      const imported = await asAlice('POST', '/api/market/imports', { name: 'longdaily', csv });
      expect(imported.statusCode, imported.body).toBe(200);
      const symbol = imported.json<{ symbol: string }>().symbol;
      // the 100 bars from the 11th on: thousands older than the newest 5,000
      await rangeOptimised(
        {
          symbol_id: symbol,
          from: formatContractDate(times[10] ?? 0),
          to: formatContractDate(times[109] ?? 0),
        },
        times.slice(10, 110),
      );
    }, 300_000);

    it('holding more bars than a backtest takes is refused and creates nothing', async () => {
      const before = (await asAlice('GET', '/api/optimizations')).json<{ items: unknown[] }>().items
        .length;
      const res = await asAlice('POST', '/api/optimizations', {
        ...BASE,
        bars: undefined,
        period: '1m',
        from: '2020-01-01',
        params: { n1: { values: [5] } },
        method: 'grid',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ detail: string }>().detail).toBe(
        'from: the range holds more than 200,000 bars of 1m; a backtest takes at most 200,000: choose a shorter range or a longer period',
      );
      const after = (await asAlice('GET', '/api/optimizations')).json<{ items: unknown[] }>().items
        .length;
      expect(after).toBe(before);
    }, 120_000);
  });
});
