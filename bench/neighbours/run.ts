import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startProduct, startTestModel, stopChild } from '../support/server.ts';
import type { BenchLogin, HeavyOperation } from './types.ts';

/*
 * The noisy-neighbour bench: for every module of `operations/` (read from the directory, so
 * operations added there are measured without a change here), the product is started as a
 * process with two users; the neighbour's health, order and kline calls are measured on the
 * idle server, then while the heavy user runs the operation once, in the same run.
 */

const PASSWORD = 'neighbour-pass-1';
const IDLE_ROUNDS = 40;
const CALLS = ['health', 'order', 'kline'] as const;
type Call = (typeof CALLS)[number];

export type NeighbourRow = {
  operation: string;
  heavyMs: number;
  rounds: number;
  calls: Record<Call, { idle: number[]; heavy: number[] }>;
};

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} exited ${code}`)),
    );
  });
}

/** The two users, made with the product's own user CLI before the server starts. */
async function createUsers(dataDir: string): Promise<void> {
  for (const who of ['heavy', 'neighbour']) {
    await run(
      [
        'apps/server/src/cli/user-create.ts',
        '--email',
        `${who}@example.com`,
        '--password',
        PASSWORD,
        '--nick',
        who,
        '--accounts',
        '1',
      ],
      { DATA_DIR: dataDir },
    );
  }
}

async function login(url: string, email: string): Promise<BenchLogin> {
  const res = await fetch(`${url}/user/api/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      channel: 1,
      login_type: 2,
      user_name: email,
      password: PASSWORD,
      device: 1,
    }),
  });
  const cookie = /ct_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  const body = (await res.json()) as { data: { traders: { uuid: string; token: string }[] }[] };
  const trader = body.data[0]?.traders[0];
  if (!cookie || !trader) throw new Error(`login of ${email} failed (${res.status})`);
  return { email, cookie, uuid: trader.uuid, token: trader.token };
}

async function timed(call: () => Promise<Response>): Promise<number> {
  const start = performance.now();
  const res = await call();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`neighbour call answered ${res.status}`);
  return performance.now() - start;
}

/** One round of the neighbour's calls; each call's latency in ms. */
async function round(url: string, who: BenchLogin): Promise<Record<Call, number>> {
  const headers = { cookie: `ct_sid=${who.cookie}`, 'content-type': 'application/json' };
  const creds = { uuid: who.uuid, token: who.token, channel: 1, device: 1 };
  const health = await timed(() => fetch(`${url}/api/health`));
  let orderId = '';
  const order = await timed(async () => {
    const res = await fetch(`${url}/trading/order/open`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...creds, symbol: 'BTCUSDT', cmd: 1, volume: 0.01 }),
    });
    const body = (await res.clone().json()) as { data?: { order?: { orderId?: string } } };
    orderId = body.data?.order?.orderId ?? '';
    return res;
  });
  // closed again (not timed), so that many rounds never run the account out of margin
  const closed = await fetch(`${url}/trading/order/close`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...creds, orderId, volume: 0.01 }),
  });
  if (!closed.ok) throw new Error(`neighbour close answered ${closed.status}`);
  await closed.arrayBuffer();
  const kline = await timed(() =>
    fetch(`${url}/trading/kline/lists?symbol=BTCUSDT&cycel=1m&limit=100`, { headers }),
  );
  return { health, order, kline };
}

/** The operations of `operations/`; with `names`, only the modules of those names. */
async function operations(names?: readonly string[]): Promise<HeavyOperation[]> {
  const dir = path.join(REPO_ROOT, 'bench/neighbours/operations');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .filter((f) => !names || names.includes(f.replace(/\.ts$/, '')))
    .sort();
  const found: HeavyOperation[] = [];
  for (const file of files) {
    const module = (await import(path.join(dir, file))) as { operation?: HeavyOperation };
    if (module.operation) found.push(module.operation);
  }
  return found;
}

async function measure(op: HeavyOperation, dataDir: string): Promise<NeighbourRow> {
  let model: ChildProcess | undefined;
  let product: ChildProcess | undefined;
  try {
    let modelBase: string | undefined;
    if (op.needsModel) {
      const test = await startTestModel();
      model = test.child;
      modelBase = test.base;
    }
    const started = await startProduct(dataDir, {
      ...(modelBase ? { OLLAMA_BASE_URL: modelBase } : {}),
      ...op.env,
    });
    product = started.child;
    const url = started.origin;
    const heavy = await login(url, 'heavy@example.com');
    const neighbour = await login(url, 'neighbour@example.com');
    const calls: NeighbourRow['calls'] = {
      health: { idle: [], heavy: [] },
      order: { idle: [], heavy: [] },
      kline: { idle: [], heavy: [] },
    };
    for (let i = 0; i < IDLE_ROUNDS; i++) {
      const r = await round(url, neighbour);
      for (const c of CALLS) calls[c].idle.push(r[c]);
    }
    let ended = false;
    const start = performance.now();
    const work = op
      .run({ url, heavy, ...(modelBase ? { modelBase } : {}) })
      .finally(() => (ended = true));
    work.catch(() => undefined);
    let rounds = 0;
    while (!ended) {
      const r = await round(url, neighbour);
      for (const c of CALLS) calls[c].heavy.push(r[c]);
      rounds += 1;
    }
    await work;
    return { operation: op.name, heavyMs: performance.now() - start, rounds, calls };
  } finally {
    await stopChild(product);
    await stopChild(model);
  }
}

/** `names`: module names of `operations/` to measure (all when absent), e.g. ['optimization']. */
export async function runNeighboursBench(names?: readonly string[]): Promise<NeighbourRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-neighbours-'));
  try {
    await createUsers(dataDir);
    const rows: NeighbourRow[] = [];
    for (const op of await operations(names)) rows.push(await measure(op, dataDir));
    return rows;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

const ms = (n: number) => (Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(1) : n.toFixed(0));
const ratio = (a: number, b: number) => (Number.isNaN(a) || !b ? '–' : `${(a / b).toFixed(1)}×`);

export function neighboursReport(rows: NeighbourRow[]): string[] {
  const lines = [
    "Noisy neighbour: another user's calls while one user runs a heavy operation (ms; same run's idle server as the baseline)",
    '',
    '| heavy operation | its time | neighbour rounds during it | call | idle p50 | idle p99 | during p50 | during p99 | p50 ratio | p99 ratio |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    for (const c of CALLS) {
      const { idle, heavy } = row.calls[c];
      const [i50, i99, h50, h99] = [
        percentile(idle, 50),
        percentile(idle, 99),
        percentile(heavy, 50),
        percentile(heavy, 99),
      ];
      lines.push(
        `| ${row.operation} | ${(row.heavyMs / 1000).toFixed(1)} s | ${row.rounds} | ${c} | ${ms(i50)} | ${ms(i99)} | ${ms(h50)} | ${ms(h99)} | ${ratio(h50, i50)} | ${ratio(h99, i99)} |`,
      );
    }
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of neighboursReport(await runNeighboursBench())) console.log(line);
}
