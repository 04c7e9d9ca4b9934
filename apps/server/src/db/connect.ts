import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { acquireLock } from './lock.ts';
import { installTransactions } from './pglite-statements.ts';
import { installPipelinedTransactions } from './postgres-transactions.ts';

export type Database =
  | { kind: 'pglite'; db: PgliteDatabase; close(): Promise<void> }
  | { kind: 'pg'; db: NodePgDatabase; pool: pg.Pool; close(): Promise<void> };

/** PGlite's data directory inside DATA_DIR. */
export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/**
 * PostgreSQL when `databaseUrl` is set, otherwise PGlite in `<dataDir>/pglite`, locked
 * against a second process (throws DatabaseLockedError).
 */
export async function openDatabase(options: {
  dataDir: string;
  databaseUrl: string | null;
  /** Connections of the PostgreSQL pool (DATABASE_POOL_SIZE); node-postgres's 10 when absent. */
  databasePoolSize?: number;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.databasePoolSize);
  fs.mkdirSync(options.dataDir, { recursive: true });
  const lock = acquireLock(path.join(options.dataDir, 'pglite.lock'));
  try {
    const database = await openPglite(pgliteDir(options.dataDir));
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Opens (creating when empty) a PGlite directory without locking; tests use it on copies. */
export async function openPglite(dir: string): Promise<Database> {
  const client = await PGlite.create(dir);
  installTransactions(client);
  // without the schema: no relational query builders (unused) built for every transaction
  const db = drizzlePglite({ client });
  return { kind: 'pglite', db, close: () => client.close() };
}

export async function openPostgres(connectionString: string, max = 10): Promise<Database> {
  // pipeline mode: a transaction's statements go without waiting for each other's answers
  // (postgres-transactions.ts); a query outside a transaction runs as before
  const pool = new pg.Pool({ connectionString, max, pipeline: true } as pg.PoolConfig);
  // An idle connection the server ends (a restart, an outage, an administrator) reports
  // here; the pool drops it and opens another on the next query. Unheard, the event would
  // end the process: the outage shows in /readyz and in the failing requests instead.
  pool.on('error', (error) => {
    process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`);
  });
  // Fail at start, not on the first request, when the database is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg({ client: pool });
  installPipelinedTransactions(db, pool);
  return { kind: 'pg', db, pool, close: () => pool.end() };
}
