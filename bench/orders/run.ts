import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { request as harnessRequest, type Reply } from '@ct/server/cluster-harness';

/*
 * Market orders per second through the HTTP API of the real server (apps/server/src/main.ts
 * on PGlite in a temporary DATA_DIR, every order committed before it is answered), with the
 * acknowledgement latency, next to the baseline measured in the same run, in turns with it:
 * single-row committed INSERTs straight into another PGlite in a temporary directory.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type OrdersOptions = {
  /** Concurrent keep-alive HTTP clients. */
  clients: number;
  /** Measured seconds of each side (one-second slices in turns, after a second of warm-up). */
  seconds: number;
  symbol: string;
  volume: number;
  /** The server's ORDER_COMMIT: `group` (its default) or `single` (a transaction per order). */
  commit: 'group' | 'single';
};

export const DEFAULT_ORDERS_OPTIONS: OrdersOptions = {
  clients: 4,
  seconds: 10,
  symbol: 'ETHUSDT',
  volume: 0.01,
  commit: 'group',
};

export type OrdersResult = {
  clients: number;
  commit: 'group' | 'single';
  orders: number;
  failed: number;
  ordersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  inserts: number;
  insertsPerSecond: number;
  /** ordersPerSecond / insertsPerSecond */
  ratio: number;
  /** The ratio of each pair of slices (a second of each, one after the other). */
  sliceRatios: { min: number; median: number; max: number };
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

/** Single-row autocommitted INSERTs into a PGlite of the bench's own (the baseline). */
class InsertBaseline {
  private i = 0;

  private constructor(private readonly db: PGlite) {}

  static async open(dir: string): Promise<InsertBaseline> {
    const db = await PGlite.create(dir);
    await db.exec(`create table bench_inserts (
      id bigint generated always as identity primary key,
      uuid text not null, symbol text not null, cmd smallint not null,
      volume numeric(20, 8) not null, price numeric(30, 10) not null, created_at bigint not null)`);
    return new InsertBaseline(db);
  }

  /** Inserts one row after the other until `until` (performance.now()); how many committed. */
  async runUntil(until: number): Promise<number> {
    let count = 0;
    while (performance.now() < until) {
      const i = this.i++;
      await this.db.query(
        'insert into bench_inserts (uuid, symbol, cmd, volume, price, created_at) values ($1, $2, $3, $4, $5, $6)',
        ['bench-account', 'ETHUSDT', 1 + (i % 2), '0.01', '3000.25', Date.now()],
      );
      count += 1;
    }
    return count;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function startServer(
  dataDir: string,
  commit: 'group' | 'single',
): Promise<{ child: ChildProcess; port: number }> {
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
        ORDER_COMMIT: commit,
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

/** The cluster harness's keep-alive JSON call, with the agent first the way this file calls it. */
function request(
  agent: http.Agent,
  port: number,
  method: string,
  url: string,
  body: unknown,
  cookie?: string,
): Promise<Reply> {
  return harnessRequest(port, method, url, body, cookie, agent);
}

/**
 * Runs the order benchmark once. The server starts on its own PGlite (DATA_DIR); the baseline
 * inserts into another PGlite in this process. After a second of warm-up of each, they take
 * turns in one-second slices (`seconds` of each), so that both see the machine as it is at
 * that moment: a machine whose speed drifts over the run moves both sides alike. Orders are
 * counted when acknowledged within their slice; the orders in flight at a slice's end finish
 * before the baseline's slice starts and are not counted.
 */
export async function runOrders(options: Partial<OrdersOptions> = {}): Promise<OrdersResult> {
  const o = { ...DEFAULT_ORDERS_OPTIONS, ...options };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-orders-'));
  let child: ChildProcess | undefined;
  let baseline: InsertBaseline | undefined;
  try {
    baseline = await InsertBaseline.open(path.join(root, 'baseline'));
    const server = await startServer(path.join(root, 'server'), o.commit);
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

    let sequence = 0;
    /** Orders from `clients` clients until `until`: the latencies of those acked by then. */
    const ordersUntil = async (until: number) => {
      const latencies: number[] = [];
      let failed = 0;
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
          const ok =
            reply.status === 200 && (JSON.parse(reply.body) as { code: number }).code === 0;
          if (!ok) failed += 1;
          else if (acked <= until) latencies.push(acked - sent);
        }
      };
      await Promise.all(Array.from({ length: o.clients }, client));
      return { latencies, failed };
    };

    // warm-up: a second of each
    await baseline.runUntil(performance.now() + 1000);
    await ordersUntil(performance.now() + 1000);

    const latencies: number[] = [];
    const slices: { inserts: number; orders: number }[] = [];
    let failed = 0;
    let inserts = 0;
    let insertCpuMs = 0;
    let serverCpuMs: number | null = 0;
    for (let k = 0; k < o.seconds; k++) {
      const cpuFrom = process.cpuUsage();
      const inserted = await baseline.runUntil(performance.now() + 1000);
      const cpu = process.cpuUsage(cpuFrom);
      insertCpuMs += (cpu.user + cpu.system) / 1000;
      inserts += inserted;

      const serverFrom = processCpuMs(child.pid);
      const slice = await ordersUntil(performance.now() + 1000);
      const serverTo = processCpuMs(child.pid);
      serverCpuMs =
        serverCpuMs === null || serverFrom === null || serverTo === null
          ? null
          : serverCpuMs + serverTo - serverFrom;
      latencies.push(...slice.latencies);
      failed += slice.failed;
      slices.push({ inserts: inserted, orders: slice.latencies.length });
    }
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const ordersPerSecond = latencies.length / o.seconds;
    const insertsPerSecond = inserts / o.seconds;
    const sliceRatios = slices
      .filter((x) => x.inserts > 0)
      .map((x) => x.orders / x.inserts)
      .sort((a, b) => a - b);
    return {
      clients: o.clients,
      commit: o.commit,
      orders: latencies.length,
      failed,
      ordersPerSecond,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      inserts,
      insertsPerSecond,
      ratio: ordersPerSecond / insertsPerSecond,
      sliceRatios: {
        min: sliceRatios[0] ?? 0,
        median: percentile(sliceRatios, 50),
        max: sliceRatios.at(-1) ?? 0,
      },
      // the server's CPU also counts the orders in flight at each slice's end (a few)
      cpuMsPerOrder:
        serverCpuMs !== null && latencies.length > 0 ? serverCpuMs / latencies.length : null,
      cpuMsPerInsert: inserts > 0 ? insertCpuMs / inserts : 0,
    };
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await baseline?.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The report lines of a run, as bench/run.ts prints its tables. */
export function ordersReport(r: OrdersResult): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  return [
    `Market orders through the HTTP API (PGlite, committed before the answer), ${r.clients} keep-alive clients, ${r.commit === 'group' ? 'group commit (ORDER_COMMIT=group)' : 'a transaction per order (ORDER_COMMIT=single)'}`,
    '| measure | count | per second | p50 ms | p99 ms | CPU ms each |',
    '|---|---:|---:|---:|---:|---:|',
    `| market orders (POST /trading/order/open) | ${r.orders} | ${fmt(r.ordersPerSecond)} | ${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${r.cpuMsPerOrder === null ? 'n/a' : fmt(r.cpuMsPerOrder, 3)} |`,
    `| baseline: single-row committed INSERT into PGlite | ${r.inserts} | ${fmt(r.insertsPerSecond)} | | | ${fmt(r.cpuMsPerInsert, 3)} |`,
    `| ratio orders / inserts | | ${fmt(r.ratio, 3)}× | | | ${r.cpuMsPerOrder === null ? 'n/a' : `${fmt(r.cpuMsPerInsert / r.cpuMsPerOrder, 3)}×`} |`,
    `(ratio of each pair of one-second slices, taken in turns: min ${fmt(r.sliceRatios.min, 3)}×, median ${fmt(r.sliceRatios.median, 3)}×, max ${fmt(r.sliceRatios.max, 3)}×)`,
    ...(r.failed > 0 ? [`(${r.failed} orders were refused during the run)`] : []),
  ];
}
