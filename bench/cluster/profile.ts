// Profiles one API node under the cluster bench's market orders (PostgreSQL, Redis, a feed):
// `node --import tsx bench/cluster/profile.ts --dir=DIR [--seconds=10] [--clients=16]`
// writes the node's `--cpu-prof` profile into DIR (on its exit) and prints the orders' rate
// and, when the server (TEST_DATABASE_URL's, else a throwaway one) preloads
// pg_stat_statements (`shared_preload_libraries`), the statements of the run by time.
import http from 'node:http';
import pg from 'pg';
import {
  Node,
  createUserWithAccounts,
  loginAs,
  request,
  startPostgres,
  startRedis,
  waitUntil,
  type Stoppable,
} from '@ct/server/cluster-harness';

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    return [key ?? '', value] as const;
  }),
);
const dir = args.get('dir') ?? '';
const seconds = Number(args.get('seconds') ?? 10);
const clients = Number(args.get('clients') ?? 16);
const stoppables: Stoppable[] = [];
const nodes: Node[] = [];
try {
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  stoppables.push(redis, postgres);
  const env = {
    DATABASE_URL: postgres.url,
    DATABASE_POOL_SIZE: String(Math.max(4, clients)),
    REDIS_URL: redis.url,
    LIVE_TOKEN_SECRET: 'bench-secret-of-the-cluster-run-0123456789',
    LOG_LEVEL: 'info',
    BACKTEST_POOL_SIZE: '0',
  };
  const profiled = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  const [api, feed] = await Promise.all([
    Node.start('api-prof', 'api', env, 180_000, profiled),
    Node.start('feed-prof', 'feed', env, 180_000),
  ]);
  nodes.push(api, feed);
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  const statements = await admin
    .query('create extension if not exists pg_stat_statements')
    .then(() => true)
    .catch(() => false);
  const bench = { email: 'bench@example.com', password: 'bench-password', accounts: 16 };
  await createUserWithAccounts(postgres.url, bench);
  const user = await loginAs(api.port, bench.email, bench.password);
  await waitUntil('an active feed', () => feed.isActiveFeed, 60_000);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  let done = 0;
  let failed = 0;
  let sequence = 0;
  const until = performance.now() + seconds * 1000;
  if (statements) await admin.query('select pg_stat_statements_reset()').catch(() => undefined);
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < until) {
        const i = sequence++;
        const trader = user.traders[c % user.traders.length];
        if (!trader) return;
        const reply = await request(
          api.port,
          'POST',
          '/trading/order/open',
          {
            uuid: trader.uuid,
            token: trader.token,
            symbol: 'ETHUSDT',
            cmd: 1 + (i % 2),
            volume: 0.01,
            clientOrderId: `prof-${i}`,
          },
          user.cookie,
          agent,
        );
        if (reply.status === 200 && (JSON.parse(reply.body) as { code: number }).code === 0) done++;
        else failed++;
      }
    }),
  );
  agent.destroy();
  console.log(
    `${done} orders in ${seconds} s (${(done / seconds).toFixed(1)}/s), ${failed} failed`,
  );
  if (statements) {
    const rows = await admin
      .query(
        `select calls, round(total_exec_time::numeric, 1) as total_ms,
           round(mean_exec_time::numeric, 3) as mean_ms, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
         from pg_stat_statements order by total_exec_time desc limit 15`,
      )
      .catch(() => ({ rows: [] }));
    console.table(rows.rows);
  }
  await admin.end();
  await api.kill('SIGTERM');
} finally {
  await Promise.all(nodes.map((n) => n.kill('SIGKILL')));
  for (const s of stoppables.reverse()) await s.stop().catch(() => undefined);
}
