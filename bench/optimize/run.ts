// Optimisation benchmark: trials per second of a grid of 100 trials of the Default strategy
// (a moving-average crossover, PARAMS fast × slow) on GOOG daily bars, through the product
// (POST /api/optimizations until COMPLETED), next to a plain CPython loop of the same 100
// backtests measured in the same run; on PGlite with one worker process, and on PostgreSQL
// with one and with two worker processes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Node, loginDemo, request, startPostgres, stopChild } from '@ct/server/cluster-harness';
import { formatContractDate, parseOhlcvCsv } from '@ct/domain';

const GOOG_CSV = fileURLToPath(new URL('../../apps/server/data/market/GOOG.csv', import.meta.url));
const DIRECT_DRIVER = fileURLToPath(new URL('./direct.py', import.meta.url));
const STRATEGY_FILE = fileURLToPath(
  new URL('../../apps/server/src/modules/strategy/default_strategy.py', import.meta.url),
);
const PYTHON = process.env.BACKTEST_PYTHON ?? '/usr/bin/python3';
const FAST = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const SLOW = [20, 24, 28, 32, 36, 40, 44, 48, 52, 56];

export type OptimizeBenchRow = {
  setup: string;
  trials: number;
  seconds: number;
  trialsPerSecond: number;
};

export type OptimizeBench = { bars: number; direct: OptimizeBenchRow; rows: OptimizeBenchRow[] };

async function runDirect(bars: number): Promise<OptimizeBenchRow> {
  const parsed = parseOhlcvCsv(fs.readFileSync(GOOG_CSV, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const rows = parsed.bars
    .slice(-bars)
    .map((b) => [
      formatContractDate(b.time),
      'GOOG',
      'day',
      b.open,
      b.high,
      b.low,
      b.close,
      b.volume,
    ]);
  const trials = FAST.flatMap((fast) => SLOW.map((slow) => ({ fast, slow })));
  const child = spawn(PYTHON, [DIRECT_DRIVER, STRATEGY_FILE], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify({ rows, trials }));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`direct python failed: ${stderr}`);
  const report = JSON.parse(stderr.trim().split('\n').at(-1) ?? '{}') as { loop_ms: number };
  const seconds = report.loop_ms / 1000;
  return {
    setup: 'plain CPython loop (no sandbox)',
    trials: trials.length,
    seconds,
    trialsPerSecond: trials.length / seconds,
  };
}

/** One optimisation through the API on `port`: seconds from the request to COMPLETED. */
async function optimise(port: number, bars: number, setup: string): Promise<OptimizeBenchRow> {
  const { cookie } = await loginDemo(port);
  const started = performance.now();
  const created = await request(
    port,
    'POST',
    '/api/optimizations',
    {
      strategy_name: 'Default',
      symbol_id: 'GOOG',
      period: 'day',
      bars,
      params: { fast: { values: FAST }, slow: { values: SLOW } },
      objective: 'sharpe',
      method: 'grid',
    },
    cookie,
  );
  if (created.status !== 200) throw new Error(`optimisation refused: ${created.body}`);
  const { id, trials_total: total } = JSON.parse(created.body) as {
    id: string;
    trials_total: number;
  };
  for (;;) {
    const res = await request(port, 'GET', `/api/optimizations/${id}?limit=1`, undefined, cookie);
    const view = JSON.parse(res.body) as { status: string; trials: { error?: string }[] };
    if (view.status === 'COMPLETED') break;
    if (view.status !== 'PENDING' && view.status !== 'PROCESSING') throw new Error(res.body);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  return { setup, trials: total, seconds, trialsPerSecond: total / seconds };
}

/** A node's start on this shared 2-core host (migrations on a fresh PGlite) can pass a minute. */
const START_TIMEOUT_MS = 300_000;

const COMMON = {
  LOG_LEVEL: 'warn',
  BACKTEST_PYTHON: PYTHON,
  BACKTEST_UID_BASE: '55000',
  OPTIMIZATION_MAX_ACTIVE_PER_USER: '4',
  OPTIMIZATION_MAX_ACTIVE_PER_RUN: '4',
  OPTIMIZATION_CONCURRENCY: '1',
};

export async function runOptimizeBench(options: { bars?: number } = {}): Promise<OptimizeBench> {
  const bars = options.bars ?? 2148;
  const direct = await runDirect(bars);
  const rows: OptimizeBenchRow[] = [];
  // the product as `npm start` runs it: PGlite, one process with every role
  const single = await Node.start('opt-pglite', 'api,feed,worker', COMMON, START_TIMEOUT_MS);
  try {
    rows.push(await optimise(single.port, bars, 'PGlite, 1 worker process'));
  } finally {
    await stopChild(single.child);
  }
  const postgres = await startPostgres();
  try {
    const env = { ...COMMON, DATABASE_URL: postgres.url };
    const api = await Node.start('opt-pg-1', 'api,feed,worker', env, START_TIMEOUT_MS);
    try {
      rows.push(await optimise(api.port, bars, 'PostgreSQL, 1 worker process'));
      const second = await Node.start(
        'opt-pg-2',
        'worker',
        { ...env, BACKTEST_UID_BASE: '54000' },
        START_TIMEOUT_MS,
      );
      try {
        rows.push(await optimise(api.port, bars, 'PostgreSQL, 2 worker processes'));
      } finally {
        await stopChild(second.child);
      }
    } finally {
      await stopChild(api.child);
    }
  } finally {
    await postgres.stop();
  }
  return { bars, direct, rows };
}

export function optimizeReport(bench: OptimizeBench): string[] {
  const f = (n: number, d = 2) => n.toFixed(d);
  return [
    `Optimisation: grid of 100 trials, Default strategy (fast × slow), GOOG daily, ${bench.bars} bars`,
    '| setup | trials | seconds | trials/s | time / plain loop |',
    '|---|---:|---:|---:|---:|',
    `| ${bench.direct.setup} | ${bench.direct.trials} | ${f(bench.direct.seconds)} | ${f(bench.direct.trialsPerSecond, 1)} | 1.00× |`,
    ...bench.rows.map(
      (row) =>
        `| ${row.setup} | ${row.trials} | ${f(row.seconds)} | ${f(row.trialsPerSecond, 1)} | ${f(row.seconds / bench.direct.seconds)}× |`,
    ),
  ];
}
