import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { Centrifuge } from 'centrifuge';
import pg from 'pg';
import WebSocket from 'ws';
import {
  Node,
  createUserWithAccounts,
  loginAs,
  loginDemo,
  request,
  startPostgres,
  startRedis,
  waitUntil,
  type Stoppable,
  type Trader,
} from '@ct/server/cluster-harness';

/*
 * The multi-node layout measured on this machine (issue 17): a throwaway PostgreSQL and
 * Redis (Debian's packages, Unix sockets), API nodes, an active and a standby feed.
 *  - market orders/s through HTTP on 1 and 2 API nodes, p50/p99 ack, next to the raw
 *    committed single-row INSERT rate of the same PostgreSQL with as many connections;
 *  - live fan-out: ticks republished by the feed load reach N clients through 1 or 2 API
 *    nodes and Redis (delivered share, messages/s, p50/p99 publish-to-receive);
 *  - feed takeover: kill -9 of the active feed until the standby is elected and until the
 *    first tick of the new feed reaches a client.
 */

export type ClusterBenchOptions = {
  /**
   * Concurrent keep-alive HTTP clients placing orders (split over the API nodes), each on
   * a trading account of its own (at most 20, a user's limit) and, in one more run, all of
   * them on the demo user's three accounts.
   */
  clients: number;
  /** Measured seconds of each order run (after one second of warm-up). */
  seconds: number;
  /** Live connections of the fan-out runs (split over the API nodes). */
  connections: number;
  /** Republished ticks per second of the fan-out's symbol. */
  rate: number;
};

export const DEFAULT_CLUSTER_OPTIONS: ClusterBenchOptions = {
  clients: 16,
  seconds: 8,
  connections: 200,
  rate: 20,
};

/** CPU milliseconds per operation of the measured seconds: PostgreSQL's processes, the API nodes. */
type CpuPerOp = { postgresMs: number; apiMs: number };

type Rate = {
  count: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  cpu: CpuPerOp;
};

const CLOCK_TICKS_PER_SECOND = 100; // Linux's USER_HZ, the unit of /proc/<pid>/stat times

/** CPU seconds used so far by the processes `pids` (user + system; 0 for one gone). */
function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // the fields after the command's closing parenthesis: utime and stime are 12th, 13th
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
      ticks += Number(fields?.[11] ?? 0) + Number(fields?.[12] ?? 0);
    } catch {
      // the process ended
    }
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** The PostgreSQL server's processes (the bench's throwaway server: the only one it runs). */
function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** What the CPU of PostgreSQL and of the API nodes `api` reads now (seconds). */
function cpuNow(api: readonly Node[]): { postgres: number; api: number } {
  return {
    postgres: cpuSeconds(postgresPids()),
    api: cpuSeconds(api.map((n) => n.child.pid ?? 0)),
  };
}

export type ClusterBenchResult = {
  options: ClusterBenchOptions;
  inserts: Rate;
  /**
   * `accounts`: how many trading accounts the clients' orders went to; `commit`: the API
   * nodes' ORDER_COMMIT (`single`: a transaction per order, as before group commit).
   */
  orders: { nodes: number; accounts: number; commit: 'group' | 'single'; rate: Rate }[];
  fanout: {
    nodes: number;
    expected: number;
    received: number;
    perSecond: number;
    p50Ms: number;
    p99Ms: number;
  }[];
  takeover: { electedMs: number; firstTickMs: number };
};

const SYMBOL = 'ETHUSDT';
const LOAD_SYMBOL = 'BTCUSDT';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function rateOf(
  latencies: number[],
  failed: number,
  seconds: number,
  cpu: { postgres: number; api: number },
): Rate {
  latencies.sort((a, b) => a - b);
  const perOp = (cpuSeconds: number) => (1000 * cpuSeconds) / Math.max(1, latencies.length);
  return {
    count: latencies.length,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failed,
    cpu: { postgresMs: perOp(cpu.postgres), apiMs: perOp(cpu.api) },
  };
}

/**
 * Runs `once` from `clients` loops for one warm-up second plus `seconds`: the latencies of
 * the measured part, and the CPU PostgreSQL and the API nodes `api` used meanwhile.
 */
async function loadFor(
  clients: number,
  seconds: number,
  api: readonly Node[],
  once: (client: number, i: number) => Promise<boolean>,
): Promise<Rate> {
  const measureFrom = performance.now() + 1000;
  const until = measureFrom + seconds * 1000;
  const latencies: number[] = [];
  let failed = 0;
  let sequence = 0;
  let cpuFrom = cpuNow(api);
  const warmedUp = setTimeout(() => (cpuFrom = cpuNow(api)), 1000);
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < until) {
        const sent = performance.now();
        const ok = await once(client, sequence++);
        if (sent < measureFrom) continue;
        if (ok) latencies.push(performance.now() - sent);
        else failed += 1;
      }
    }),
  );
  clearTimeout(warmedUp);
  const cpuTo = cpuNow(api);
  return rateOf(latencies, failed, seconds, {
    postgres: cpuTo.postgres - cpuFrom.postgres,
    api: cpuTo.api - cpuFrom.api,
  });
}

/** Committed single-row INSERTs on `clients` connections of the same PostgreSQL database. */
async function insertBaseline(url: string, clients: number, seconds: number): Promise<Rate> {
  const connections = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  const [first] = connections;
  if (!first) throw new Error('no connection');
  await first.query(`create table bench_inserts (
    id bigint generated always as identity primary key,
    uuid text not null, symbol text not null, cmd smallint not null,
    volume numeric(20, 8) not null, price numeric(30, 10) not null, created_at bigint not null)`);
  try {
    return await loadFor(clients, seconds, [], async (c, i) => {
      await connections[c]?.query(
        'insert into bench_inserts (uuid, symbol, cmd, volume, price, created_at) values ($1, $2, $3, $4, $5, $6)',
        ['bench-account', SYMBOL, 1 + (i % 2), '0.01', '3000.25', Date.now()],
      );
      return true;
    });
  } finally {
    await first.query('drop table bench_inserts');
    await Promise.all(connections.map((c) => c.end()));
  }
}

async function ordersThrough(
  nodes: Node[],
  login: { cookie: string; traders: Trader[] },
  clients: number,
  seconds: number,
  tag: string,
): Promise<Rate> {
  const agents = nodes.map(() => new http.Agent({ keepAlive: true, maxSockets: clients }));
  try {
    return await loadFor(clients, seconds, nodes, async (c, i) => {
      const node = nodes[c % nodes.length] as Node;
      // orders of one account wait for each other's lock: with fewer accounts than clients,
      // the clients of an account take turns
      const trader = login.traders[c % login.traders.length] as Trader;
      const reply = await request(
        node.port,
        'POST',
        '/trading/order/open',
        {
          uuid: trader.uuid,
          token: trader.token,
          symbol: SYMBOL,
          cmd: 1 + (i % 2),
          volume: 0.01,
          clientOrderId: `bench-${tag}-${i}`,
        },
        login.cookie,
        agents[c % nodes.length],
      );
      return reply.status === 200 && (JSON.parse(reply.body) as { code: number }).code === 0;
    });
  } finally {
    for (const agent of agents) agent.destroy();
  }
}

async function fanoutThrough(
  nodes: Node[],
  login: { cookie: string },
  options: ClusterBenchOptions,
): Promise<ClusterBenchResult['fanout'][number]> {
  const latencies: number[] = [];
  let measuring = false;
  const clients: Centrifuge[] = [];
  for (let i = 0; i < options.connections; i++) {
    const node = nodes[i % nodes.length] as Node;
    const client = new Centrifuge(`ws://127.0.0.1:${node.port}/connection/websocket`, {
      websocket: WebSocket,
      data: { type: 1 },
    });
    const sub = client.newSubscription(`public:${LOAD_SYMBOL}`);
    sub.on('publication', (ctx) => {
      if (measuring) latencies.push(Date.now() - (ctx.data as { tm: number }).tm);
    });
    sub.subscribe();
    client.connect();
    clients.push(client);
  }
  try {
    await Promise.all(clients.map((c) => c.ready(60_000)));
    const seconds = options.seconds;
    const started = await request(
      nodes[0]?.port ?? 0,
      'POST',
      '/api/market/load',
      { symbols: [LOAD_SYMBOL], ticksPerSecond: options.rate, durationSeconds: seconds + 2 },
      login.cookie,
    );
    if (started.status !== 200) throw new Error(`load refused: ${started.status} ${started.body}`);
    // one second to settle, then `seconds` measured
    const from = Date.now() + 1000;
    await waitUntil('the settle second', () => Date.now() >= from, 5000, 20);
    measuring = true;
    await waitUntil(
      'the measured seconds',
      () => Date.now() >= from + seconds * 1000,
      seconds * 1000 + 5000,
      20,
    );
    measuring = false;
    await request(nodes[0]?.port ?? 0, 'DELETE', '/api/market/load', undefined, login.cookie);
    // the feed's own ticks of the symbol come on top of the load's, as for a user
    // each tick is two messages (the bid and the offer)
    const expected = options.connections * options.rate * 2 * seconds;
    latencies.sort((a, b) => a - b);
    return {
      nodes: nodes.length,
      expected,
      received: latencies.length,
      perSecond: latencies.length / seconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
    };
  } finally {
    for (const client of clients) client.disconnect();
  }
}

/** Runs the cluster benchmark once (a few minutes on two cores). */
export async function runClusterBench(
  options: Partial<ClusterBenchOptions> = {},
): Promise<ClusterBenchResult> {
  const o = { ...DEFAULT_CLUSTER_OPTIONS, ...options };
  const stoppables: Stoppable[] = [];
  const nodes: Node[] = [];
  try {
    const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    stoppables.push(redis, postgres);
    const env = {
      DATABASE_URL: postgres.url,
      DATABASE_POOL_SIZE: String(Math.max(4, o.clients)),
      REDIS_URL: redis.url,
      LIVE_TOKEN_SECRET: 'bench-secret-of-the-cluster-run-0123456789',
      MARKET_LOAD_CONTROL: '1',
      LOG_LEVEL: 'info',
      BACKTEST_POOL_SIZE: '0',
    };
    const start = async (name: string, roles: string) => {
      const node = await Node.start(name, roles, env, 180_000);
      nodes.push(node);
      return node;
    };
    const inserts = await insertBaseline(postgres.url, o.clients, o.seconds);
    // first the API nodes as before group commit (a transaction per order), then the same
    // orders through group-committing nodes (ORDER_COMMIT), in the same run
    const single = { ...env, ORDER_COMMIT: 'single' };
    const startApi = async (name: string, commit: Record<string, string>) => {
      const node = await Node.start(name, 'api', commit, 180_000);
      nodes.push(node);
      return node;
    };
    const [singleA, singleB, feed1, feed2] = await Promise.all([
      startApi('api-single-a', single),
      startApi('api-single-b', single),
      start('feed-1', 'feed'),
      start('feed-2', 'feed'),
    ]);
    const login = await loginDemo(singleA.port);
    const accounts = Math.min(o.clients, 20);
    const bench = { email: 'bench@example.com', password: 'bench-password', accounts };
    await createUserWithAccounts(postgres.url, bench);
    const own = await loginAs(singleA.port, bench.email, bench.password);
    await waitUntil('an active feed', () => feed1.isActiveFeed || feed2.isActiveFeed, 60_000);
    const run = async (
      through: Node[],
      user: typeof login,
      commit: 'group' | 'single',
      tag: string,
    ) => ({
      nodes: through.length,
      accounts: Math.min(o.clients, user.traders.length),
      commit,
      rate: await ordersThrough(through, user, o.clients, o.seconds, `${commit}-${tag}`),
    });
    const orders = [
      await run([singleA], own, 'single', 'one'),
      await run([singleA, singleB], own, 'single', 'two'),
    ];
    await Promise.all([singleA.kill('SIGKILL'), singleB.kill('SIGKILL')]);
    const [apiA, apiB] = await Promise.all([startApi('api-a', env), startApi('api-b', env)]);
    orders.push(
      await run([apiA], own, 'group', 'one'),
      await run([apiA, apiB], own, 'group', 'two'),
      await run([apiA], login, 'group', 'shared'),
    );
    const fanout = [
      await fanoutThrough([apiA], login, o),
      await fanoutThrough([apiA, apiB], login, o),
    ];

    // takeover: a client on A sees the new feed's first tick of the symbol
    const active = feed1.isActiveFeed ? feed1 : feed2;
    const standby = active === feed1 ? feed2 : feed1;
    const ticks: number[] = [];
    const client = new Centrifuge(`ws://127.0.0.1:${apiA.port}/connection/websocket`, {
      websocket: WebSocket,
      data: { type: 1 },
    });
    const sub = client.newSubscription(`public:${SYMBOL}`);
    sub.on('publication', () => ticks.push(Date.now()));
    sub.subscribe();
    client.connect();
    await waitUntil('a tick before the kill', () => ticks.length > 0, 30_000);
    const killedAt = Date.now();
    await active.kill('SIGKILL');
    await waitUntil('the standby to take over', () => standby.isActiveFeed, 60_000, 10);
    await waitUntil(
      'the first tick of the new feed',
      () => ticks.some((t) => t > (standby.activeFeedAt ?? Infinity)),
      60_000,
      10,
    );
    client.disconnect();
    const firstTick = ticks.find((t) => t > (standby.activeFeedAt ?? Infinity)) ?? killedAt;
    return {
      options: o,
      inserts,
      orders,
      fanout,
      takeover: {
        electedMs: (standby.activeFeedAt ?? killedAt) - killedAt,
        firstTickMs: firstTick - killedAt,
      },
    };
  } finally {
    await Promise.all(nodes.map((n) => n.kill('SIGKILL')));
    for (const s of stoppables.reverse()) await s.stop().catch(() => undefined);
  }
}

/** The report lines of a run, as bench/run.ts prints its tables. */
export function clusterReport(r: ClusterBenchResult): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const lines = [
    `Cluster: API nodes + active and standby feed on PostgreSQL and Redis (throwaway, Unix sockets), ${r.options.clients} keep-alive clients`,
    '| measure | count | per second | p50 ms | p99 ms | ratio to inserts | PostgreSQL CPU ms/op | API CPU ms/op |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    `| baseline: single-row committed INSERT, ${r.options.clients} connections | ${r.inserts.count} | ${fmt(r.inserts.perSecond)} | ${fmt(r.inserts.p50Ms, 2)} | ${fmt(r.inserts.p99Ms, 2)} | 1.000× | ${fmt(r.inserts.cpu.postgresMs, 3)} | |`,
  ];
  for (const { nodes, accounts, commit, rate } of r.orders) {
    const spread = accounts < r.options.clients ? `${accounts} shared accounts` : 'an account each';
    const how = commit === 'group' ? 'group commit' : 'a transaction per order';
    lines.push(
      `| market orders via ${nodes} API node${nodes > 1 ? 's' : ''}, ${spread}, ${how} | ${rate.count} | ${fmt(rate.perSecond)} | ${fmt(rate.p50Ms, 2)} | ${fmt(rate.p99Ms, 2)} | ${fmt(rate.perSecond / r.inserts.perSecond, 3)}× | ${fmt(rate.cpu.postgresMs, 3)} | ${fmt(rate.cpu.apiMs, 3)} |`,
    );
    if (rate.failed > 0) lines.push(`(${rate.failed} orders were refused in the run above)`);
  }
  const first = r.orders.find((o) => o.commit === 'single');
  if (first && first.rate.cpu.postgresMs > 0 && r.inserts.cpu.postgresMs > 0) {
    // what PostgreSQL's own work per order allows at best, every core its own
    const cores = os.availableParallelism();
    const ceiling = (cores * 1000) / first.rate.cpu.postgresMs;
    lines.push(
      '',
      `PostgreSQL's CPU per market order is ${fmt(first.rate.cpu.postgresMs / r.inserts.cpu.postgresMs)}× a single-row insert's: with all ${cores} cores to itself it would cap orders at ${fmt(ceiling, 0)}/s, ${fmt(ceiling / r.inserts.perSecond, 3)}× the measured insert rate`,
    );
  }
  lines.push(
    '',
    `Live fan-out through Redis: ${r.options.connections} connections, ${r.options.rate} ticks/s republished on one channel`,
    '| API nodes | delivered | msgs/s | p50 ms | p99 ms |',
    '|---:|---:|---:|---:|---:|',
  );
  for (const f of r.fanout) {
    lines.push(
      `| ${f.nodes} | ${fmt((100 * f.received) / f.expected)} % | ${fmt(f.perSecond, 0)} | ${fmt(f.p50Ms, 2)} | ${fmt(f.p99Ms, 2)} |`,
    );
  }
  const [one, two] = r.fanout;
  if (one && two) {
    lines.push(
      `| ratio 2 / 1 | | ${fmt(two.perSecond / one.perSecond, 2)}× | ${fmt(two.p50Ms / Math.max(one.p50Ms, 0.01), 2)}× | ${fmt(two.p99Ms / Math.max(one.p99Ms, 0.01), 2)}× |`,
    );
  }
  lines.push(
    '',
    `Feed takeover after kill -9 of the active feed: standby elected after ${r.takeover.electedMs} ms, first tick of the new feed at a client after ${r.takeover.firstTickMs} ms`,
  );
  return lines;
}
