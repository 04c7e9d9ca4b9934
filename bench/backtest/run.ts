// Backtest benchmark: end-to-end time of POST /api/backtest/code through HTTP (sandbox start
// included), next to the same Python function run directly by python3 without the sandbox,
// in the same run. `runBacktestBench()` returns the figures; `printBacktestBench()` prints them.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  formatContractDate,
  historicalColumnsOf,
  parseOhlcvCsv,
  type Bar,
  type HistoricalBar,
} from '@ct/domain';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GOOG_CSV = fileURLToPath(new URL('../../apps/server/data/market/GOOG.csv', import.meta.url));
const DIRECT_DRIVER = fileURLToPath(new URL('./direct.py', import.meta.url));
// the strategy the product ships as its default (the editor's template)
const STRATEGY_FILE = fileURLToPath(
  new URL('../../apps/server/src/modules/strategy/default_strategy.py', import.meta.url),
);
// the interpreter the product's sandbox runs (BACKTEST_PYTHON, docs/backtest.md)
const PYTHON = process.env.BACKTEST_PYTHON ?? '/usr/bin/python3';
const DEMO_EMAIL = 'demo@example.com';
const DEMO_PASSWORD = 'bench-password';

export type BacktestBenchRow = {
  dataset: string;
  bars: number;
  trades: number;
  /** Median ms of POST /api/backtest/code, request sent to answer parsed, warm pool of 2. */
  apiWarmMs: number;
  /** The same with no pre-started sandbox: every run starts bwrap and python in the request. */
  apiColdMs: number;
  /** Median ms of `python3 direct.py` (interpreter start, JSON rows, main()), no sandbox. */
  directMs: number;
  /** Median ms inside main(): in the sandbox and directly. */
  strategyMsSandbox: number;
  strategyMsDirect: number;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const pad = (n: number) => String(n).padStart(2, '0');

function clientTime(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

function toHistorical(bars: Bar[]): HistoricalBar[] {
  return bars.map((bar) => ({
    Time: clientTime(bar.time),
    Open: bar.open,
    High: bar.high,
    Low: bar.low,
    Close: bar.close,
    Volume: bar.volume,
  }));
}

function googBars(): Bar[] {
  const parsed = parseOhlcvCsv(fs.readFileSync(GOOG_CSV, 'utf8'));
  if (!parsed.ok) throw new Error(`GOOG.csv: ${parsed.error.message}`);
  return parsed.bars;
}

/** A seeded random walk of 1-minute bars (the same every run). */
function generatedBars(count: number): Bar[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const bars: Bar[] = [];
  let price = 100;
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < count; i++) {
    const open = price;
    const close = Math.max(1, open * (1 + (random() - 0.5) * 0.004));
    const high = Math.max(open, close) * (1 + random() * 0.001);
    const low = Math.min(open, close) * (1 - random() * 0.001);
    bars.push({
      time: start + i * 60_000,
      open,
      high,
      low,
      close,
      volume: Math.round(random() * 1000),
    });
    price = close;
  }
  return bars;
}

/** The rows main() receives, as the server builds them. */
function rowsOf(bars: Bar[], symbol: string, period: string): string {
  return JSON.stringify(
    bars.map((b) => [
      formatContractDate(b.time),
      symbol,
      period,
      b.open,
      b.high,
      b.low,
      b.close,
      b.volume,
    ]),
  );
}

async function runDirect(
  python: string,
  rows: string,
): Promise<{ ms: number; mainMs: number; trades: number }> {
  const started = performance.now();
  const child = spawn(python, [DIRECT_DRIVER, STRATEGY_FILE], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(rows);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`direct python failed: ${stderr}`);
  const report = JSON.parse(stderr.trim().split('\n').at(-1) ?? '{}') as {
    main_ms: number;
    trades: number;
  };
  return { ms, mainMs: report.main_ms, trades: report.trades };
}

type Server = { url: string; cookie: string; close: () => Promise<void> };

/** Stops a child process and waits for its exit. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The product as users run it (apps/server/src/main.ts, the server `npm start` runs, without
 * the web app) on a fresh DATA_DIR, with `pool` sandboxes started ahead of time; logged in
 * as the demo user.
 */
async function startServer(pool: number): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-backtest-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      WEB_DIST: path.join(dir, 'no-web'),
      LOG_LEVEL: 'warn',
      DEMO_PASSWORD,
      BACKTEST_PYTHON: PYTHON,
      BACKTEST_POOL_SIZE: String(pool),
      BACKTEST_UID_BASE: '63000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const close = async () => {
    await stopChild(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /running at (http:\/\/\S+)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it ran`)));
    });
    const login = await fetch(`${url}/user/api/v1/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 1,
        login_type: 2,
        user_name: DEMO_EMAIL,
        password: DEMO_PASSWORD,
        device: 1,
      }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    if (!cookie) throw new Error(`demo login failed: ${await login.text()}`);
    return { url, cookie, close };
  } catch (error) {
    await close();
    throw error;
  }
}

type ApiAnswer = { error: string | null; deals: unknown[]; strategy_ms: number | null };

async function runApi(server: Server, body: string): Promise<{ ms: number; answer: ApiAnswer }> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/backtest/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: server.cookie },
    body,
  });
  const answer = (await res.json()) as ApiAnswer;
  const ms = performance.now() - started;
  if (res.status !== 200 || answer.error) {
    throw new Error(`backtest failed: ${res.status} ${answer.error ?? JSON.stringify(answer)}`);
  }
  return { ms, answer };
}

/** Measures both datasets; `repeats` runs of each, medians reported. */
export async function runBacktestBench(
  options: { repeats?: number; generatedBars?: number } = {},
): Promise<BacktestBenchRow[]> {
  const repeats = options.repeats ?? 5;
  const code = fs.readFileSync(STRATEGY_FILE, 'utf8');
  const generated = generatedBars(options.generatedBars ?? 100_000);
  // the body's bars as rows (objects, the spec's form) or as columns (an array per field)
  const datasets = [
    {
      name: 'GOOG daily (GOOG.csv)',
      symbol: 'GOOG',
      period: 'day',
      bars: googBars(),
      columns: false,
    },
    {
      name: 'generated 1m bars, rows',
      symbol: 'GEN',
      period: '1m',
      bars: generated,
      columns: false,
    },
    {
      name: 'generated 1m bars, columns',
      symbol: 'GEN',
      period: '1m',
      bars: generated,
      columns: true,
    },
  ];
  const python = PYTHON;
  const warm = await startServer(2);
  // the second server starts once the first one's sandbox check has run (a run waits for
  // it): two checks at once on this host made both fail (bwrap: execvp … No such file)
  await runApi(
    warm,
    JSON.stringify({
      code,
      filename: 'default_strategy.py',
      symbol: 'GOOG',
      period: 'day',
      historical_data: toHistorical(googBars().slice(0, 100)),
    }),
  ).catch(() => undefined);
  const cold = await startServer(0).catch(async (error: unknown) => {
    await warm.close();
    throw error;
  });
  const rows: BacktestBenchRow[] = [];
  try {
    for (const dataset of datasets) {
      const body = JSON.stringify({
        code,
        filename: 'default_strategy.py',
        symbol: dataset.symbol,
        period: dataset.period,
        historical_data: dataset.columns
          ? historicalColumnsOf(toHistorical(dataset.bars))
          : toHistorical(dataset.bars),
      });
      const pythonRows = rowsOf(dataset.bars, dataset.symbol, dataset.period);
      // one unmeasured round of each, then alternate so that drift hits all three alike
      await runApi(warm, body);
      await runApi(cold, body);
      await runDirect(python, pythonRows);
      const warmMs: number[] = [];
      const coldMs: number[] = [];
      const directMs: number[] = [];
      const insideSandbox: number[] = [];
      const insideDirect: number[] = [];
      let trades = 0;
      for (let i = 0; i < repeats; i++) {
        const a = await runApi(warm, body);
        warmMs.push(a.ms);
        insideSandbox.push(a.answer.strategy_ms ?? Number.NaN);
        trades = a.answer.deals.length;
        coldMs.push((await runApi(cold, body)).ms);
        const d = await runDirect(python, pythonRows);
        directMs.push(d.ms);
        insideDirect.push(d.mainMs);
        if (d.trades !== trades) throw new Error(`trade counts differ: ${d.trades} vs ${trades}`);
      }
      rows.push({
        dataset: dataset.name,
        bars: dataset.bars.length,
        trades,
        apiWarmMs: median(warmMs),
        apiColdMs: median(coldMs),
        directMs: median(directMs),
        strategyMsSandbox: median(insideSandbox),
        strategyMsDirect: median(insideDirect),
      });
    }
  } finally {
    await warm.close();
    await cold.close();
  }
  return rows;
}

export function printBacktestBench(rows: BacktestBenchRow[]): void {
  const f = (n: number) => n.toFixed(1);
  console.log('Backtest: moving-average crossover (default strategy), medians in ms');
  console.log(
    '| data | bars | trades | API, warm pool | API, no pool | python3 direct | ratio warm / direct | ratio no pool / direct | main() sandbox / direct |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.dataset} | ${r.bars} | ${r.trades} | ${f(r.apiWarmMs)} | ${f(r.apiColdMs)} | ${f(r.directMs)} | ` +
        `${(r.apiWarmMs / r.directMs).toFixed(2)}× | ${(r.apiColdMs / r.directMs).toFixed(2)}× | ` +
        `${f(r.strategyMsSandbox)} / ${f(r.strategyMsDirect)} |`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printBacktestBench(await runBacktestBench());
}
