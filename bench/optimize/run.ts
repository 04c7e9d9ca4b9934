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
  /** The median of the runs after the first (the first when there is only one). */
  seconds: number;
  trialsPerSecond: number;
  /** The first optimisation after the node started (its sandbox, body workers and JIT cold). */
  firstSeconds?: number;
  /** Every run's seconds, in order. */
  runs?: number[];
  /** Each run's time over the plain loop's measured right before it, in order. */
  ratios?: number[];
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

/** How often the bench asks whether the optimisation completed. */
const POLL_MS = 10;

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
    // asked often: a run of about half a second is measured to within this much
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const seconds = (performance.now() - started) / 1000;
  return { setup, trials: total, seconds, trialsPerSecond: total / seconds };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};

/**
 * `optimise` `runs` times on the same nodes, each right after a plain loop of the same
 * backtests (a pair: this host's speed moves by 2× within minutes, so each run is compared
 * with its own loop), with the phases the worker nodes logged during the runs after the
 * first (the first's when it is the only one): the first optimisation after a node's start
 * pays its cold sandbox, body workers and JIT; the others are what a user's next ones cost.
 */
async function optimiseOn(
  port: number,
  nodes: readonly Node[],
  bars: number,
  setup: string,
  runs: number,
  /** Each run's plain loop is added here (the bench's plain loop row is their median). */
  loops: OptimizeBenchRow[],
): Promise<OptimizeBenchRow> {
  const seconds: number[] = [];
  const ratios: number[] = [];
  let from = nodes.map((node) => node.output.length);
  let total = 0;
  for (let run = 0; run < runs; run++) {
    const loop = await runDirect(bars);
    loops.push(loop);
    if (run === 1) from = nodes.map((node) => node.output.length);
    const row = await optimise(port, bars, setup);
    seconds.push(row.seconds);
    ratios.push(row.seconds / loop.seconds);
    total = row.trials;
    // the last batch's line may follow its COMPLETED by a moment
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const warm = median(seconds.length > 1 ? seconds.slice(1) : seconds);
  const phases = phasesOf(nodes.map((node, i) => node.output.slice(from[i])));
  // per run: the phases of the runs after the first are summed over all of them
  const measured = Math.max(1, runs - 1);
  for (const key of Object.keys(phases)) phases[key] = (phases[key] ?? 0) / measured;
  return {
    setup,
    trials: total,
    seconds: warm,
    trialsPerSecond: total / warm,
    firstSeconds: seconds[0] as number,
    runs: seconds,
    ratios,
    phases,
  };
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

export async function runOptimizeBench(
  options: { bars?: number; runs?: number } = {},
): Promise<OptimizeBench> {
  const bars = options.bars ?? 2148;
  const runs = options.runs ?? 4;
  // each setup's runs are paired with loops of their own (optimiseOn)
  const loops: OptimizeBenchRow[] = [];
  const rows: OptimizeBenchRow[] = [];
  // the product as `npm start` runs it: PGlite, one process with every role
  const single = await Node.start('opt-pglite', 'api,feed,worker', COMMON, START_TIMEOUT_MS);
  try {
    rows.push(
      await optimiseOn(single.port, [single], bars, 'PGlite, 1 worker process', runs, loops),
    );
  } finally {
    await stopChild(single.child);
  }
  const postgres = await startPostgres();
  try {
    const env = { ...COMMON, DATABASE_URL: postgres.url };
    const api = await Node.start('opt-pg-1', 'api,feed,worker', env, START_TIMEOUT_MS);
    try {
      rows.push(
        await optimiseOn(api.port, [api], bars, 'PostgreSQL, 1 worker process', runs, loops),
      );
      const second = await Node.start(
        'opt-pg-2',
        'worker',
        { ...env, BACKTEST_UID_BASE: '54000' },
        START_TIMEOUT_MS,
      );
      try {
        rows.push(
          await optimiseOn(
            api.port,
            [api, second],
            bars,
            'PostgreSQL, 2 worker processes',
            runs,
            loops,
          ),
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
  const direct = loops.find((row) => row.seconds === median(loops.map((l) => l.seconds)));
  if (!direct) throw new Error('no plain loop measured');
  return { bars, direct, rows };
}

export function optimizeReport(bench: OptimizeBench): string[] {
  const f = (n: number, d = 2) => n.toFixed(d);
  const ratioOf = (row: OptimizeBenchRow) => {
    const warm = row.ratios && row.ratios.length > 1 ? row.ratios.slice(1) : row.ratios;
    return warm && warm.length > 0 ? median(warm) : row.seconds / bench.direct.seconds;
  };
  const firstRatio = (row: OptimizeBenchRow) =>
    row.ratios?.[0] ?? (row.firstSeconds ?? row.seconds) / bench.direct.seconds;
  return [
    `Optimisation: grid of 100 trials, Default strategy (fast × slow), GOOG daily, ${bench.bars} bars`,
    '(each setup: optimisations one after another on the same nodes, each right after a plain loop of its own; "seconds" and "time / plain loop" are the medians of the runs after the first, the ratio taken per pair; "first" is the first run after the nodes started; the plain loop row is the median of all the paired loops)',
    '| setup | trials | seconds | trials/s | time / plain loop | first | first / plain loop | runs (s) | ratios |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    `| ${bench.direct.setup} | ${bench.direct.trials} | ${f(bench.direct.seconds)} | ${f(bench.direct.trialsPerSecond, 1)} | 1.00× | | | | |`,
    ...bench.rows.map(
      (row) =>
        `| ${row.setup} | ${row.trials} | ${f(row.seconds)} | ${f(row.trialsPerSecond, 1)} | ${f(ratioOf(row))}× | ${f(row.firstSeconds ?? row.seconds)} | ${f(firstRatio(row))}× | ${(row.runs ?? []).map((s) => f(s)).join(' ')} | ${(row.ratios ?? []).map((r) => f(r, 1)).join(' ')} |`,
    ),
    'Where the worker processes spent a run after the first (ms summed over its batches; pieces overlap):',
    ...bench.rows.map(
      (row) =>
        `  ${row.setup}: ${Object.entries(row.phases ?? {})
          .map(([phase, value]) => `${phase} ${Math.round(value)}`)
          .join(', ')}`,
    ),
  ];
}
