import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/*
 * Market orders per second through the HTTP API of the real server (apps/server/src/main.ts
 * on PGlite in a temporary DATA_DIR, every order committed before it is answered), with the
 * acknowledgement latency, next to the baseline measured in the same run: single-row
 * committed INSERTs straight into PGlite in a temporary directory.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type OrdersOptions = {
  /** Concurrent keep-alive HTTP clients. */
  clients: number;
  /** Measured seconds (after one second of warm-up). */
  seconds: number;
  symbol: string;
  volume: number;
};

export const DEFAULT_ORDERS_OPTIONS: OrdersOptions = {
  clients: 4,
  seconds: 10,
  symbol: 'ETHUSDT',
  volume: 0.01,
};

export type OrdersResult = {
  clients: number;
  orders: number;
  failed: number;
  ordersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  inserts: number;
  insertsPerSecond: number;
  /** ordersPerSecond / insertsPerSecond */
  ratio: number;
  /**
   * CPU time (user + system) per order of the server process over the measured seconds, and
   * per insert of the baseline's process; null where /proc is not readable. Less sensitive to
   * other load on the machine than the rates.
   */
  cpuMsPerOrder: number | null;
  cpuMsPerInsert: number;
};

/** CPU time (user + system, ms) a process has used so far, from /proc; null elsewhere. */
function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

// USER_HZ, the unit of /proc/<pid>/stat times: 100 on every Linux build Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * Single-row autocommitted INSERTs into a fresh PGlite for `seconds`; leaves the directory
 * initialised. Inserts per second and the process's CPU ms per insert.
 */
async function insertBaseline(
  dir: string,
  seconds: number,
): Promise<{ perSecond: number; cpuMs: number }> {
  const db = await PGlite.create(dir);
  try {
    await db.exec(`create table bench_inserts (
      id bigint generated always as identity primary key,
      uuid text not null, symbol text not null, cmd smallint not null,
      volume numeric(20, 8) not null, price numeric(30, 10) not null, created_at bigint not null)`);
    const until = performance.now() + 1000 + seconds * 1000;
    const measureFrom = performance.now() + 1000;
    let counted = 0;
    let cpuFrom: NodeJS.CpuUsage | null = null;
    for (let i = 0; performance.now() < until; i++) {
      if (!cpuFrom && performance.now() >= measureFrom) cpuFrom = process.cpuUsage();
      await db.query(
        'insert into bench_inserts (uuid, symbol, cmd, volume, price, created_at) values ($1, $2, $3, $4, $5, $6)',
        ['bench-account', 'ETHUSDT', 1 + (i % 2), '0.01', '3000.25', Date.now()],
      );
      if (cpuFrom) counted += 1;
    }
    const cpu = process.cpuUsage(cpuFrom ?? undefined);
    await db.exec('drop table bench_inserts');
    return { perSecond: counted / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / counted };
  } finally {
    await db.close();
  }
}

function startServer(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  // BENCH_SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: profile the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'warn',
        WEB_DIST: path.join(dataDir, 'no-web'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /running at http:\/\/[^:]+:(\d+)/.exec(stdout);
      if (match?.[1]) resolve({ child, port: Number(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it ran`)));
  });
}

type Reply = { status: number; body: string; cookie: string | undefined };

function request(
  agent: http.Agent,
  port: number,
  method: string,
  url: string,
  body: unknown,
  cookie?: string,
): Promise<Reply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(cookie ? { cookie: `ct_sid=${cookie}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const setCookie = res.headers['set-cookie']?.join(';') ?? '';
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            cookie: /ct_sid=([^;]+)/.exec(setCookie)?.[1],
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Runs the order benchmark once: baseline first (its PGlite directory, already through
 * initdb, then becomes the server's database), then `clients` keep-alive clients placing
 * market orders on the demo VIP account for `seconds`.
 */
export async function runOrders(options: Partial<OrdersOptions> = {}): Promise<OrdersResult> {
  const o = { ...DEFAULT_ORDERS_OPTIONS, ...options };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-orders-'));
  let child: ChildProcess | undefined;
  try {
    const baseline = await insertBaseline(path.join(root, 'pglite'), o.seconds);
    const insertsPerSecond = baseline.perSecond;
    const server = await startServer(root);
    child = server.child;
    const agent = new http.Agent({ keepAlive: true, maxSockets: o.clients });
    const login = await request(agent, server.port, 'POST', '/user/api/v1/account/login', {
      channel: 1,
      login_type: 2,
      user_name: 'demo@example.com',
      password: process.env.DEMO_PASSWORD ?? 'demo1234',
      device: 1,
    });
    const traders = (
      JSON.parse(login.body) as {
        data: { traders: { uuid: string; token: string; level: number }[] }[];
      }
    ).data[0]?.traders;
    const vip = traders?.reduce((best, t) => (t.level > best.level ? t : best));
    if (!login.cookie || !vip) throw new Error(`demo login failed: ${login.body}`);

    const latencies: number[] = [];
    let failed = 0;
    let sequence = 0;
    const startedAt = performance.now();
    const measureFrom = startedAt + 1000;
    const until = measureFrom + o.seconds * 1000;
    let serverCpuFrom: number | null = null;
    let serverCpuTo: number | null = null;
    const cpuMarks = [
      setTimeout(() => (serverCpuFrom = processCpuMs(child?.pid)), measureFrom - startedAt),
      setTimeout(() => (serverCpuTo = processCpuMs(child?.pid)), until - startedAt),
    ];
    const client = async () => {
      while (performance.now() < until) {
        const i = sequence++;
        const sent = performance.now();
        const reply = await request(
          agent,
          server.port,
          'POST',
          '/trading/order/open',
          {
            uuid: vip.uuid,
            token: vip.token,
            symbol: o.symbol,
            cmd: 1 + (i % 2),
            volume: o.volume,
            channel: 1,
            device: 1,
            clientOrderId: `bench-${i}`,
          },
          login.cookie,
        );
        const acked = performance.now();
        const ok = reply.status === 200 && (JSON.parse(reply.body) as { code: number }).code === 0;
        if (sent < measureFrom) continue;
        if (ok) latencies.push(acked - sent);
        else failed += 1;
      }
    };
    await Promise.all(Array.from({ length: o.clients }, client));
    for (const mark of cpuMarks) clearTimeout(mark);
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const ordersPerSecond = latencies.length / o.seconds;
    return {
      clients: o.clients,
      orders: latencies.length,
      failed,
      ordersPerSecond,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      inserts: Math.round(insertsPerSecond * o.seconds),
      insertsPerSecond,
      ratio: ordersPerSecond / insertsPerSecond,
      cpuMsPerOrder:
        serverCpuFrom !== null && serverCpuTo !== null && latencies.length > 0
          ? (serverCpuTo - serverCpuFrom) / latencies.length
          : null,
      cpuMsPerInsert: baseline.cpuMs,
    };
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The report lines of a run, as bench/run.ts prints its tables. */
export function ordersReport(r: OrdersResult): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  return [
    `Market orders through the HTTP API (PGlite, committed before the answer), ${r.clients} keep-alive clients`,
    '| measure | count | per second | p50 ms | p99 ms | CPU ms each |',
    '|---|---:|---:|---:|---:|---:|',
    `| market orders (POST /trading/order/open) | ${r.orders} | ${fmt(r.ordersPerSecond)} | ${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${r.cpuMsPerOrder === null ? 'n/a' : fmt(r.cpuMsPerOrder, 3)} |`,
    `| baseline: single-row committed INSERT into PGlite | ${r.inserts} | ${fmt(r.insertsPerSecond)} | | | ${fmt(r.cpuMsPerInsert, 3)} |`,
    `| ratio orders / inserts | | ${fmt(r.ratio, 3)}× | | | ${r.cpuMsPerOrder === null ? 'n/a' : `${fmt(r.cpuMsPerInsert / r.cpuMsPerOrder, 3)}×`} |`,
    ...(r.failed > 0 ? [`(${r.failed} orders were refused during the run)`] : []),
  ];
}
