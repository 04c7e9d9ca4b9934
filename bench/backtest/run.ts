// Backtest benchmark: end-to-end time of POST /api/backtest/code through HTTP (sandbox start
// included), next to the same Python function run directly by python3 without the sandbox,
// in the same run. `runBacktestBench()` returns the figures; `printBacktestBench()` prints them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatContractDate, parseOhlcvCsv, type Bar, type HistoricalBar } from '@ct/domain';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPglite } from '../../apps/server/src/db/connect.ts';
import { migrateDatabase } from '../../apps/server/src/db/migrate.ts';
import {
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxSettings,
} from '../../apps/server/src/modules/backtest/sandbox/settings.ts';
import { DEFAULT_STRATEGY_FILE } from '../../apps/server/src/modules/strategy/template.ts';
import { createUser } from '../../apps/server/src/modules/users/service.ts';

const GOOG_CSV = fileURLToPath(new URL('../../apps/server/data/market/GOOG.csv', import.meta.url));
const DIRECT_DRIVER = fileURLToPath(new URL('./direct.py', import.meta.url));
const STRATEGY_FILE = fileURLToPath(DEFAULT_STRATEGY_FILE);

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

async function startServer(sandbox: SandboxSettings): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-backtest-'));
  const database = await openPglite(path.join(dir, 'pglite'));
  await migrateDatabase(database);
  const email = 'bench@example.com';
  const password = 'bench-password';
  await createUser(
    database.db,
    { email, password, nickName: 'Bench', accounts: [{ name: 'Bench', level: 1, type: 1 }] },
    Date.now(),
  );
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), sandbox };
  const app = await buildApp({ db: database.db, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const login = await fetch(`${url}/user/api/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 1, login_type: 2, user_name: email, password, device: 1 }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  await app.services.backtest.sandbox.start();
  return {
    url,
    cookie,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
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
  const datasets = [
    { name: 'GOOG daily (GOOG.csv)', symbol: 'GOOG', period: 'day', bars: googBars() },
    {
      name: `generated 1m bars`,
      symbol: 'GEN',
      period: '1m',
      bars: generatedBars(options.generatedBars ?? 100_000),
    },
  ];
  const python = DEFAULT_SANDBOX_SETTINGS.python;
  const warm = await startServer({ ...DEFAULT_SANDBOX_SETTINGS, warm: 2, uidBase: 63_000 });
  const cold = await startServer({ ...DEFAULT_SANDBOX_SETTINGS, warm: 0, uidBase: 63_000 });
  const rows: BacktestBenchRow[] = [];
  try {
    for (const dataset of datasets) {
      const body = JSON.stringify({
        code,
        filename: 'default_strategy.py',
        symbol: dataset.symbol,
        period: dataset.period,
        historical_data: toHistorical(dataset.bars),
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
