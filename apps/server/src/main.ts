import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { ConfigError, DEFAULT_SHUTDOWN_GRACE_MS, loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { DatabaseLockedError } from './db/lock.ts';
import { migrateDatabase } from './db/migrate.ts';
import { shutdownOnSignals } from './lifecycle/shutdown.ts';
import { Cluster } from './modules/cluster/cluster.ts';
import { RedisRateLimitStore } from './modules/cluster/rate-limit-store.ts';
import type { ClusterLog } from './modules/cluster/redis.ts';
import { ROLES, RolesError, rolesFromArgv } from './modules/cluster/roles.ts';
import { alsoToCentrifugo, CentrifugoPublisher } from './modules/gateway/centrifugo-publisher.ts';
import { registerClusterProbes } from './modules/health/cluster-probes.ts';
import { DEMO_EMAIL, demoPasswordStillWorks, seedDemoUser } from './modules/users/seed-demo.ts';

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The environment with `--role` of the command line (`npm start -- --role=api`) as ROLES. */
function environment(): NodeJS.ProcessEnv {
  let fromArgv: string | undefined;
  try {
    fromArgv = rolesFromArgv(process.argv.slice(2));
  } catch (error) {
    if (error instanceof RolesError) throw new ConfigError(error.message);
    throw error;
  }
  return fromArgv === undefined ? process.env : { ...process.env, ROLES: fromArgv };
}

async function main(): Promise<void> {
  const config = loadConfig(environment());
  const roles = config.roles ?? [...ROLES];
  const database = await openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let cluster: Cluster | undefined;
  // the cluster's parts log through the app's logger once it exists (Redis comes first)
  const log: ClusterLog = {
    info: (details, message) => app?.log.info(details, message),
    warn: (details, message) => app?.log.warn(details, message),
    error: (details, message) =>
      app ? app.log.error(details, message) : process.stderr.write(`${message}\n`),
  };
  try {
    await migrateDatabase(database);
    if (roles.includes('api')) {
      await seedDemoUser(database.db, { password: config.demoPassword, nowMs: Date.now() });
    }
    cluster = await Cluster.open({ config, database, log });
    const shared = cluster;
    // stdout carries only the two lines below (the e2e harness reads them); logs go to stderr.
    app = await buildApp({
      db: database.db,
      config,
      logger: { level: config.logLevel, stream: process.stderr },
      // the feed and the engine's timers start when this process is elected (below)
      runFeed: false,
      // CENTRIFUGO_API_URL: every publication also goes, once, to Centrifugo's HTTP API
      broker: config.centrifugo
        ? alsoToCentrifugo(
            shared.broker,
            new CentrifugoPublisher({ ...config.centrifugo, warn: (m) => log.warn({}, m) }),
          )
        : shared.broker,
      testPins: (local) => shared.testPins(local),
      rateLimitStore: shared.redis ? new RedisRateLimitStore(shared.redis) : undefined,
    });
    app.decorate('cluster', shared);
    await shared.attach(app.services);
    // /readyz: Redis (when configured) and "a feed leader is known"
    registerClusterProbes(app.operations.readiness, shared);
    if (roles.includes('api') || roles.includes('worker')) {
      // checks the strategy sandbox with a trivial run and pre-starts its interpreters; the
      // outcome is logged (runs are refused when it cannot work) and start-up does not wait
      void app.services.backtest.sandbox.start();
    }
    if (roles.includes('api')) await app.listen({ port: config.port, host: config.host });
    else await app.ready();
    // the `worker` role: AI strategy tasks, including those a stopped server left behind
    if (roles.includes('worker')) app.services.ai.worker.start();
    // live runs (forward tests on paper): claimed with a lease, so each runs on one worker
    if (roles.includes('worker')) app.services.liveRuns.startRunner();
    // optimisation trials (modules/jobs): claimed with a lease, fair across users
    if (roles.includes('worker')) app.services.optimization.startWorker();
    // the `feed` role: the one active feed of the cluster (PGlite: this process at once)
    const running = app;
    shared.runFeed((reason) => {
      running.log.fatal({ reason }, 'feed leadership lost: stopping so that a standby takes over');
      running.services.feed.stop();
      running.services.trading.engine.stop();
      running.services.alerts.engine.stop();
      process.exit(1);
    });
  } catch (error) {
    await app?.close();
    await cluster?.close();
    await database.close();
    throw error;
  }

  if (roles.includes('api')) {
    const { port } = app.server.address() as AddressInfo;
    const demoLine = (await demoPasswordStillWorks(database.db, config.demoPassword))
      ? `Demo login: ${DEMO_EMAIL} / ${config.demoPassword}`
      : `Demo login: ${DEMO_EMAIL} (password changed)`;
    process.stdout.write(
      `Chart Terminal is running at http://${urlHost(config.host)}:${port}\n${demoLine}\n`,
    );
  } else {
    process.stdout.write(`Chart Terminal ${roles.join(', ')} node is running (no HTTP)\n`);
  }

  const started = { app, cluster };
  // SIGTERM/SIGINT: drain (503, live sockets closed with 3001, running requests and backtests
  // given SHUTDOWN_GRACE_MS), close the app, then the cluster (frees the feed lock: a standby
  // takes over at once; closes Redis) and the database; a second signal exits at once
  shutdownOnSignals(started.app, {
    graceMs: config.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
    closeResources: async () => {
      await started.cluster.close();
      await database.close();
    },
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(
      `The port is already in use (${(error as Error).message}). Stop the other server or set PORT.\n`,
    );
  } else {
    process.stderr.write(
      `Chart Terminal failed to start: ${(error as Error).stack ?? String(error)}\n`,
    );
  }
  process.exit(1);
});
