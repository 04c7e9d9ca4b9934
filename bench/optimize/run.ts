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
  /** Where the worker processes' time went (the service's per-batch debug lines), summed. */
  phases?: Record<string, number>;
};

const PHASES = ['read', 'open', 'sandbox', 'main', 'evaluate', 'keep', 'summary', 'total'];

/** The per-batch timings the worker processes logged in `outputs` (pino JSON lines), summed. */
function phasesOf(outputs: readonly string[]): Record<string, number> {
  const sums: Record<string, number> = { batches: 0, trials: 0 };
  for (const output of outputs) {
    for (const line of output.split('\n')) {
      if (!line.includes('optimisation trial batch timed')) continue;
      const entry = JSON.parse(line) as Record<string, number>;
      sums.batches = (sums.batches ?? 0) + 1;
      sums.trials = (sums.trials ?? 0) + (entry.trials ?? 0);
      for (const phase of PHASES) sums[phase] = (sums[phase] ?? 0) + (entry[`${phase}Ms`] ?? 0);
    }
  }
  return sums;
}

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

/** `optimise`, with the phases its worker nodes logged meanwhile. */
async function optimiseOn(
  port: number,
  nodes: readonly Node[],
  bars: number,
  setup: string,
): Promise<OptimizeBenchRow> {
  const from = nodes.map((node) => node.output.length);
  const row = await optimise(port, bars, setup);
  // the last batch's line may follow its COMPLETED by a moment
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { ...row, phases: phasesOf(nodes.map((node, i) => node.output.slice(from[i]))) };
}

/** A node's start on this shared 2-core host (migrations on a fresh PGlite) can pass a minute. */
const START_TIMEOUT_MS = 300_000;

const COMMON = {
  // the trial batches' timings are debug lines (phasesOf)
  LOG_LEVEL: 'debug',
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
    rows.push(await optimiseOn(single.port, [single], bars, 'PGlite, 1 worker process'));
  } finally {
    await stopChild(single.child);
  }
  const postgres = await startPostgres();
  try {
    const env = { ...COMMON, DATABASE_URL: postgres.url };
    const api = await Node.start('opt-pg-1', 'api,feed,worker', env, START_TIMEOUT_MS);
    try {
      rows.push(await optimiseOn(api.port, [api], bars, 'PostgreSQL, 1 worker process'));
      const second = await Node.start(
        'opt-pg-2',
        'worker',
        { ...env, BACKTEST_UID_BASE: '54000' },
        START_TIMEOUT_MS,
      );
      try {
        rows.push(
          await optimiseOn(api.port, [api, second], bars, 'PostgreSQL, 2 worker processes'),
        );
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
    'Where the worker processes spent it (ms summed over batches; pieces overlap):',
    ...bench.rows.map(
      (row) =>
        `  ${row.setup}: ${Object.entries(row.phases ?? {})
          .map(([phase, value]) => `${phase} ${Math.round(value)}`)
          .join(', ')}`,
    ),
  ];
}
