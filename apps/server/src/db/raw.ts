import pg from 'pg';
import { pgliteOfTransaction, runPreparedBatch } from './pglite-statements.ts';
import { pipelinedTransactionOf, sendPipelined } from './postgres-transactions.ts';
import type { Db, SqlRow } from './types.ts';

/*
 * Constant SQL texts with positional parameters, run on the driver under a drizzle database
 * or transaction (PGlite or node-postgres: both take `query(text, params)` and answer
 * `{ rows }`). The hot paths of the trading venue use it: their statements are written
 * once as text instead of being rebuilt by the query builder on every call, and several
 * changes go in one statement (data-modifying CTEs). Values come back as the driver reads
 * them: numeric as text, bigint as a number (PGlite) or text (node-postgres), so callers
 * read them with Number().
 */

export type { SqlRow } from './types.ts';

type DriverClient = {
  query(
    query: string | { name: string; text: string },
    params?: unknown[],
  ): Promise<{ rows: SqlRow[] }>;
};

// node-postgres: a query with a name is parsed and planned once per connection, then only
// bound and executed. The texts here are constants, so each gets one name for the process.
// (PGlite outside installTransactions' transactions takes a text: its own query.)
const statementNames = new Map<string, string>();

function named(client: DriverClient, text: string): string | { name: string; text: string } {
  if (!(client instanceof pg.Pool || client instanceof pg.Client)) return text;
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `ct_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text };
}

function clientOf(db: Db): DriverClient {
  // drizzle keeps the driver's client (or the transaction's) on its session.
  const client = (db as unknown as { session?: { client?: DriverClient } }).session?.client;
  if (!client || typeof client.query !== 'function') {
    throw new Error('database handle has no driver client');
  }
  return client;
}

/** Runs `text` with `params` ($1, $2, …) in `db` (a database or a transaction); its rows. */
export async function rawQuery<R extends SqlRow = SqlRow>(
  db: Db,
  text: string,
  params: readonly unknown[],
): Promise<R[]> {
  const client = clientOf(db);
  if (pgliteOfTransaction(client)) {
    const [rows] = await runPreparedBatch(client, [[text, params]]);
    return (rows ?? []) as R[];
  }
  const pipelined = pipelinedTransactionOf(client);
  if (pipelined) {
    const [rows] = await sendPipelined(client, pipelined, [[named(client, text), params]]);
    return (rows ?? []) as R[];
  }
  const result = await client.query(named(client, text), [...params]);
  return result.rows as R[];
}

/**
 * Runs statements one after the other in `db`; the rows of each. Each statement sees what
 * the ones before it did and waited for (inside a transaction they go together: on PGlite
 * in one protocol call, on PostgreSQL pipelined in one round trip; elsewhere one by one).
 */
export async function rawQueries(
  db: Db,
  statements: readonly (readonly [string, readonly unknown[]])[],
): Promise<SqlRow[][]> {
  const client = clientOf(db);
  if (pgliteOfTransaction(client)) return runPreparedBatch(client, statements);
  const pipelined = pipelinedTransactionOf(client);
  if (pipelined) return sendPipelined(client, pipelined, namedAll(client, statements));
  return runOneByOne(client, statements);
}

function namedAll(
  client: DriverClient,
  statements: readonly (readonly [string, readonly unknown[]])[],
): (readonly [string | { name: string; text: string }, readonly unknown[]])[] {
  return statements.map(([text, params]) => [named(client, text), params] as const);
}

async function runOneByOne(
  client: DriverClient,
  statements: readonly (readonly [string, readonly unknown[]])[],
): Promise<SqlRow[][]> {
  const results: SqlRow[][] = [];
  for (const [text, params] of statements) {
    results.push((await client.query(named(client, text), [...params])).rows);
  }
  return results;
}

/**
 * The last statements of the transaction `tx`, as rawQueries. The COMMIT goes with them (on
 * PGlite in the same call, on PostgreSQL in the same round trip), and the transaction is
 * over once they ran: a later statement in it throws, and what the transaction's callback
 * does after them can no longer be rolled back, so call this as the callback's last step.
 * Outside such a transaction it commits when its callback returns, as always.
 */
export async function rawQueriesThenCommit(
  tx: Db,
  statements: readonly (readonly [string, readonly unknown[]])[],
): Promise<SqlRow[][]> {
  const client = clientOf(tx);
  if (pgliteOfTransaction(client)) return runPreparedBatch(client, statements, { commit: true });
  const pipelined = pipelinedTransactionOf(client);
  if (pipelined) {
    return sendPipelined(client, pipelined, namedAll(client, statements), { commit: true });
  }
  return runOneByOne(client, statements);
}
