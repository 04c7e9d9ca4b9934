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

/*
 * Group commit (modules/trading/order-writer.ts): a transaction that carries several orders
 * must not commit with an order's last statement, and its savepoints travel with the
 * order's first and last calls instead of costing a call each.
 */
/**
 * The transactions whose COMMIT the caller sends (releaseCommit); with `pending`, the last
 * statements of each command (rawQueriesThenCommit) are sent and not waited for, their
 * answers awaited with the COMMIT (PostgreSQL: the COMMIT leaves right behind them).
 */
const heldCommits = new WeakMap<object, { pending: Promise<unknown>[] | null }>();
const deferred = new WeakMap<object, [string, readonly unknown[]][]>();

/**
 * A statement sent ahead of the COMMIT (holdCommit's `lastWithCommit`) failed: the
 * transaction was aborted and its COMMIT rolled it back, nothing of it was committed.
 */
export class RolledBackError extends Error {
  constructor(readonly reason: unknown) {
    super(`the transaction was rolled back: ${String(reason)}`);
  }
}

/**
 * `rawQueriesThenCommit` in `tx` runs its statements without the COMMIT from now on. With
 * `lastWithCommit` (PostgreSQL only; ignored on PGlite, whose calls do not wait on a
 * connection) it sends them and returns at once (no rows); releaseCommit then sends the
 * COMMIT behind them and waits for all: one round trip fewer.
 */
export function holdCommit(tx: Db, options: { lastWithCommit?: boolean } = {}): void {
  const client = clientOf(tx);
  const pipelined = options.lastWithCommit === true && pipelinedTransactionOf(client) !== null;
  heldCommits.set(client, { pending: pipelined ? [] : null });
}

/**
 * Forgets `tx`'s held COMMIT and deferred statements without sending them (its callback is
 * about to throw: the transaction rolls back). A pooled connection keeps none of it.
 */
export function abandonCommit(tx: Db): void {
  const client = clientOf(tx);
  heldCommits.delete(client);
  deferred.delete(client);
}

/**
 * Commits `tx` with its deferred statements (a transaction of `holdCommit`). Throws
 * RolledBackError when a statement sent ahead of it failed (then nothing was committed);
 * a failure of the COMMIT itself is thrown as it is (it may or may not have committed).
 */
export async function releaseCommit(tx: Db): Promise<void> {
  const client = clientOf(tx);
  const held = heldCommits.get(client);
  heldCommits.delete(client);
  const pending = held?.pending ?? [];
  if (pending.length === 0) {
    await rawQueriesThenCommit(tx, []);
    return;
  }
  const commit = rawQueriesThenCommit(tx, []);
  const settled = await Promise.allSettled(pending);
  await commit;
  // an error aborts a PostgreSQL transaction: its COMMIT then rolls back
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw new RolledBackError(failed.reason);
}

/**
 * Sends `text` (a statement without rows, e.g. SAVEPOINT) in `tx` with its next raw call,
 * before that call's statements; its answer is not read.
 */
export function deferStatement(tx: Db, text: string): void {
  const client = clientOf(tx);
  const list = deferred.get(client) ?? [];
  list.push([text, []]);
  deferred.set(client, list);
}

/** Drops the statements deferred in `tx` and not sent yet; true when there were any. */
export function dropDeferred(tx: Db): boolean {
  const client = clientOf(tx);
  const list = deferred.get(client);
  deferred.delete(client);
  return (list?.length ?? 0) > 0;
}

/** `statements` with the deferred ones of `client` before them, and how many those are. */
function withDeferred(
  client: object,
  statements: readonly (readonly [string, readonly unknown[]])[],
): [readonly (readonly [string, readonly unknown[]])[], number] {
  const list = deferred.get(client);
  if (!list || list.length === 0) return [statements, 0];
  deferred.delete(client);
  return [[...list, ...statements], list.length];
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
  if (deferred.has(client)) return (await rawQueries(db, [[text, params]]))[0] as R[];
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
  given: readonly (readonly [string, readonly unknown[]])[],
): Promise<SqlRow[][]> {
  const client = clientOf(db);
  const [statements, skip] = withDeferred(client, given);
  let rows: SqlRow[][];
  if (pgliteOfTransaction(client)) rows = await runPreparedBatch(client, statements);
  else {
    const pipelined = pipelinedTransactionOf(client);
    rows = pipelined
      ? await sendPipelined(client, pipelined, namedAll(client, statements))
      : await runOneByOne(client, statements);
  }
  return skip > 0 ? rows.slice(skip) : rows;
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
  given: readonly (readonly [string, readonly unknown[]])[],
): Promise<SqlRow[][]> {
  const client = clientOf(tx);
  const held = heldCommits.get(client);
  if (held?.pending) {
    // sent now (in order), answered with the COMMIT (releaseCommit)
    const sent = rawQueries(tx, given);
    sent.catch(() => undefined);
    held.pending.push(sent);
    return given.map(() => []);
  }
  if (held) return rawQueries(tx, given);
  const [statements, skip] = withDeferred(client, given);
  let rows: SqlRow[][];
  if (pgliteOfTransaction(client)) {
    rows = await runPreparedBatch(client, statements, { commit: true });
  } else {
    const pipelined = pipelinedTransactionOf(client);
    rows = pipelined
      ? await sendPipelined(client, pipelined, namedAll(client, statements), { commit: true })
      : await runOneByOne(client, statements);
  }
  return skip > 0 ? rows.slice(skip) : rows;
}
