import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { DatabaseLockedError } from './db/lock.ts';
import { migrateDatabase } from './db/migrate.ts';
import { DEMO_EMAIL, demoPasswordStillWorks, seedDemoUser } from './modules/users/seed-demo.ts';

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrateDatabase(database);
    await seedDemoUser(database.db, { password: config.demoPassword, nowMs: Date.now() });
    // stdout carries only the two lines below (the e2e harness reads them); logs go to stderr.
    app = await buildApp({
      db: database.db,
      config,
      logger: { level: config.logLevel, stream: process.stderr },
      runFeed: true,
    });
    // checks the strategy sandbox with a trivial run and pre-starts its interpreters; the
    // outcome is logged (runs are refused when it cannot work) and start-up does not wait
    void app.services.backtest.sandbox.start();
    await app.listen({ port: config.port, host: config.host });
    // the `worker` role: AI strategy tasks, including those a stopped server left behind
    app.services.ai.worker.start();
  } catch (error) {
    await app?.close();
    await database.close();
    throw error;
  }

  const { port } = app.server.address() as AddressInfo;
  const demoLine = (await demoPasswordStillWorks(database.db, config.demoPassword))
    ? `Demo login: ${DEMO_EMAIL} / ${config.demoPassword}`
    : `Demo login: ${DEMO_EMAIL} (password changed)`;
  process.stdout.write(
    `Chart Terminal is running at http://${urlHost(config.host)}:${port}\n${demoLine}\n`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second Ctrl-C: do not wait any longer
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    void (async () => {
      try {
        await app.close();
        await database.close();
        process.exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      }
    })();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
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
