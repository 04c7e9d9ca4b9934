// Live-run benchmark (issue 19): the real server process (apps/server/src/main.ts: PGlite,
// sandbox, trading pipeline, the runner of the worker role) with many runs on 1-minute bars
// of the simulated market, on the wall clock. Measured over a few bar closes:
// - how fast the runner gets through all runs after a bar close: evaluations per second
//   (runs ÷ time from the close to the last run's evaluation written);
// - the delay from the bar close to each order's fill, p50 / p99 (an order every bar);
// next to a baseline in the same run: the same strategy on the same number of bars through
// the run helper POST /api/backtest/run (a plain backtest evaluation), at the same concurrency.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  liveRunEvaluationsSchema,
  liveRunListSchema,
  liveRunStartedSchema,
  type LiveRunEvaluationView,
} from '@ct/domain';
import { loginDemo, postJson, startProduct, stopChild } from '../support/server.ts';

export type LiveRunsBenchOptions = {
  runs: number;
  /** Bar closes measured (after a first, warm-up close). */
  closes: number;
  /** Bars each evaluation sees (LIVE_RUN_WINDOW_BARS). */
  windowBars: number;
  /** Strategy runs of the runner at once (LIVE_RUN_CONCURRENCY) and sandbox slots. */
  concurrency: number;
};

export const DEFAULT_LIVE_RUNS_BENCH_OPTIONS: LiveRunsBenchOptions = {
  runs: 50,
  closes: 3,
  windowBars: 500,
  concurrency: 2,
};

export type LiveRunsBenchResult = LiveRunsBenchOptions & {
  evaluations: number;
  failedEvaluations: number;
  /** Per measured close: ms from the close to the last run's evaluation written. */
  closeToAllDoneMs: number[];
  /** runs × closes ÷ Σ closeToAllDone: what the runner sustains while it is busy. */
  evaluationsPerSecond: number;
  fills: number;
  fillP50Ms: number;
  fillP99Ms: number;
  /** Plain backtests of the same code and bar count per second (run helper, same concurrency). */
  baselinePerSecond: number;
  baselineRuns: number;
};

/** Buys at every even minute's close and closes at the odd one: an order every bar. */
const STRATEGY = `def main(data_array):
    last = data_array[-1]
    if int(last[0][14:16]) % 2 == 0:
        return [{'open_date': last[0], 'open_price': last[6], 'lots': 1, 'status': 'NOT',
                 'close_date': None, 'close_price': None}]
    return []
`;

const SYMBOL = 'BTCUSDT';
const MINUTE = 60_000;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function getJson(url: string, cookie: string): Promise<unknown> {
  const res = await fetch(url, { headers: { cookie: `ct_sid=${cookie}` } });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runLiveRunsBench(
  options: LiveRunsBenchOptions = DEFAULT_LIVE_RUNS_BENCH_OPTIONS,
): Promise<LiveRunsBenchResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-live-'));
  let server: ChildProcess | undefined;
  try {
    const product = await startProduct(root, {
      LIVE_RUN_MAX_PER_USER: String(options.runs),
      LIVE_RUN_WINDOW_BARS: String(options.windowBars),
      LIVE_RUN_CONCURRENCY: String(options.concurrency),
      LIVE_RUN_MAX_FAILURES: '1000',
      BACKTEST_CONCURRENCY: String(options.concurrency),
      BACKTEST_MAX_PER_USER: String(options.concurrency),
      BACKTEST_POOL_SIZE: String(options.concurrency),
    });
    server = product.child;
    const origin = product.origin;
    const { login, cookie } = await loginDemo(origin);
    const body = (await login.json()) as {
      data?: { traders?: { uuid: string; token: string }[] }[];
    };
    const trader = body.data?.[0]?.traders?.[0];
    if (!cookie || !trader) throw new Error('demo login failed');

    const saved = await postJson(
      `${origin}/api/strategies/`,
      { name: 'Bench live', code: STRATEGY, create: true },
      cookie,
    );
    if (!saved.ok) throw new Error(`strategy refused: ${await saved.text()}`);
    const ids: string[] = [];
    for (let i = 0; i < options.runs; i++) {
      const res = await postJson(
        `${origin}/api/live-runs`,
        {
          strategy_name: 'Bench live',
          uuid: trader.uuid,
          token: trader.token,
          symbol_id: SYMBOL,
          period: '1m',
          lots: 0.01,
          max_positions: 1,
        },
        cookie,
      );
      if (res.status !== 201) throw new Error(`start refused: ${await res.text()}`);
      ids.push(liveRunStartedSchema.parse(await res.json()).id);
    }

    // the first close after the start warms the runner up; then `closes` closes are measured
    const firstClose = Math.ceil(Date.now() / MINUTE) * MINUTE;
    const lastClose = firstClose + options.closes * MINUTE;
    const evaluationsOf = async (id: string) =>
      liveRunEvaluationsSchema.parse(
        await getJson(`${origin}/api/live-runs/${id}/evaluations?limit=200`, cookie),
      ).evaluations;
    // wait until every run has evaluated the bar that closed at `lastClose`
    for (;;) {
      await sleep(Math.max(1000, lastClose - Date.now() + 2000));
      const list = liveRunListSchema.parse(await getJson(`${origin}/api/live-runs`, cookie));
      const behind = list.runs.filter(
        (r) => r.status === 'running' && (r.last_evaluation_at ?? 0) * 1000 < lastClose,
      );
      if (behind.length === 0) break;
    }
    const all: LiveRunEvaluationView[] = [];
    for (const id of ids) all.push(...(await evaluationsOf(id)));
    const measured = all.filter((e) => e.at * 1000 > firstClose && e.at * 1000 <= lastClose);
    const closeToAllDoneMs: number[] = [];
    for (let close = firstClose + MINUTE; close <= lastClose; close += MINUTE) {
      const ofClose = measured.filter((e) => e.at * 1000 === close);
      closeToAllDoneMs.push(Math.max(0, ...ofClose.map((e) => e.duration_ms)));
    }
    const delays = measured.flatMap((e) =>
      e.orders.flatMap((o) => (typeof o.fill_delay_ms === 'number' ? [o.fill_delay_ms] : [])),
    );
    const busyMs = closeToAllDoneMs.reduce((sum, ms) => sum + ms, 0);

    // baseline: plain backtests of the same code on as many bars, at the same concurrency
    const baselineRuns = 20;
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < baselineRuns) {
        next += 1;
        const res = await postJson(
          `${origin}/api/backtest/run`,
          { code: STRATEGY, symbol: SYMBOL, period: '1m', limit: options.windowBars },
          cookie,
        );
        const answer = (await res.json()) as { success?: boolean; data?: { error?: unknown } };
        if (!res.ok || answer.data?.error) {
          throw new Error(`baseline backtest failed: ${JSON.stringify(answer)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const baselineMs = performance.now() - started;

    return {
      ...options,
      evaluations: measured.length,
      failedEvaluations: measured.filter((e) => e.error !== null).length,
      closeToAllDoneMs,
      evaluationsPerSecond: busyMs > 0 ? measured.length / (busyMs / 1000) : 0,
      fills: delays.length,
      fillP50Ms: percentile(delays, 50),
      fillP99Ms: percentile(delays, 99),
      baselinePerSecond: baselineRuns / (baselineMs / 1000),
      baselineRuns,
    };
  } finally {
    await stopChild(server);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function liveRunsReport(r: LiveRunsBenchResult): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  return [
    `Live runs: ${r.runs} runs on ${SYMBOL} 1m bars (wall clock), ${r.windowBars}-bar window, ` +
      `${r.closes} bar closes measured, ${r.concurrency} strategy runs at once`,
    '| measure | value |',
    '|---|---:|',
    `| evaluations measured | ${r.evaluations} (${r.failedEvaluations} with an error) |`,
    `| bar close → all ${r.runs} runs evaluated, per close | ${r.closeToAllDoneMs.map((ms) => fmt(ms / 1000, 2)).join(' / ')} s |`,
    `| runner: evaluations/s sustained while busy | ${fmt(r.evaluationsPerSecond, 2)} |`,
    `| baseline: plain backtests/s of the same code and bars (run helper, ${r.baselineRuns} runs) | ${fmt(r.baselinePerSecond, 2)} |`,
    `| ratio runner / baseline | ${fmt(r.evaluationsPerSecond / (r.baselinePerSecond || 1), 2)}× |`,
    `| bar close → fill, p50 (${r.fills} fills) | ${fmt(r.fillP50Ms, 0)} ms |`,
    `| bar close → fill, p99 | ${fmt(r.fillP99Ms, 0)} ms |`,
  ];
}
