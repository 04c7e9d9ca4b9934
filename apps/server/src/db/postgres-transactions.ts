import { NodePgSession, NodePgTransaction, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Writable } from 'node:stream';
import type pg from 'pg';

/*
 * Transactions on PostgreSQL, pipelined. The pool's connections run in node-postgres's
 * pipeline mode (`pipeline: true`): a query is written to the server at once, without
 * waiting for the answer of the one before, and the server runs them in the order sent,
 * each with its own Sync (so each is still a statement of its own, with its own snapshot,
 * and an error fails it and, inside the transaction, the ones after it).
 *
 * `installPipelinedTransactions` replaces drizzle's transaction on the database so that:
 * - BEGIN is sent and not waited for: the transaction's first statement goes right behind
 *   it, in the same round trip;
 * - the statements a caller hands over together (raw.ts `rawQueries`) are sent together;
 * - the caller may send COMMIT with its last statements (raw.ts `rawQueriesThenCommit`);
 *   the transaction then sends no COMMIT of its own;
 * - what goes together leaves in one write to the socket (`holdWrites`).
 * On the trading venue's market order that is three round trips instead of six
 * (docs/architecture.md, "Trading engine").
 *
 * Outside a transaction nothing changes: a query on the pool checks a connection out, runs
 * and gives it back.
 */

type PipelinedState = {
  /** BEGIN's answer: awaited with the statements sent behind it and before the end. */
  begun: Promise<unknown>;
  /** COMMIT has been sent with the last statements: nothing more may run in it. */
  committed: boolean;
};

const transactions = new WeakMap<object, PipelinedState>();

/** The state of a pipelined transaction running on `client` (a pool's connection), else null. */
export function pipelinedTransactionOf(client: object): PipelinedState | null {
  return transactions.get(client) ?? null;
}

/**
 * Holds the connection's writes until this tick's work is done (node's cork / uncork on the
 * next tick): the queries sent meanwhile leave in one write instead of one each. On this
 * kind of machine a loopback write that wakes the server costs more than the statements'
 * planning (docs/architecture.md).
 */
function holdWrites(client: object): void {
  const stream = (client as { connection?: { stream?: Partial<Writable> } }).connection?.stream;
  if (!stream?.cork || !stream.uncork) return;
  stream.cork();
  process.nextTick(() => stream.uncork?.());
}

type DriverQuery = { name: string; text: string } | string;
type QueryClient = {
  query(query: DriverQuery, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
};

/**
 * Sends `statements` (and COMMIT after them when `commit`) on the connection of the
 * transaction `state` without waiting in between; the rows of each. BEGIN's failure is
 * reported first, then the first statement that failed (those after it fail with it).
 */
export async function sendPipelined(
  client: QueryClient,
  state: PipelinedState,
  statements: readonly (readonly [DriverQuery, readonly unknown[]])[],
  options: { commit?: boolean } = {},
): Promise<Record<string, unknown>[][]> {
  if (state.committed) throw new Error('the transaction has already been committed');
  if (statements.length > 1 || options.commit) holdWrites(client);
  const sent = statements.map(([query, params]) => client.query(query, [...params]));
  if (options.commit) {
    state.committed = true;
    sent.push(client.query('commit'));
  }
  const [, ...results] = await Promise.all([state.begun, ...sent]);
  return results.slice(0, statements.length).map((r) => r.rows);
}

type SessionInternals = {
  dialect: PgDialect;
  schema: undefined;
  options: ConstructorParameters<typeof NodePgSession>[3];
  transaction: (fn: (tx: NodePgTransaction<never, never>) => Promise<unknown>) => Promise<unknown>;
};

/**
 * Makes `db`'s transactions pipelined (above). `pool` must have been made with
 * `pipeline: true`. Like drizzle's, a transaction commits when its callback resolves and
 * rolls back when it throws; a connection whose ROLLBACK failed is dropped from the pool.
 * drizzle's transaction options (isolation level, access mode) are not taken: the code
 * uses none (every transaction is READ COMMITTED and locks what it changes).
 */
export function installPipelinedTransactions(db: NodePgDatabase, pool: pg.Pool): void {
  const session = (db as unknown as { session: SessionInternals }).session;
  session.transaction = async (fn) => {
    const client = await pool.connect();
    const txSession = new NodePgSession(client, session.dialect, session.schema, session.options);
    const tx = new NodePgTransaction<never, never>(session.dialect, txSession, session.schema);
    // BEGIN and the first statements leave together
    holdWrites(client);
    const begun = client.query('begin');
    // awaited below; a failure is reported there, never as an unhandled rejection
    begun.catch(() => undefined);
    const state: PipelinedState = { begun, committed: false };
    transactions.set(client, state);
    let broken: Error | undefined;
    try {
      const result = await fn(tx);
      await begun;
      if (!state.committed) await client.query('commit');
      return result;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch (rollbackError) {
        broken = rollbackError as Error;
      }
      throw error;
    } finally {
      transactions.delete(client);
      client.release(broken);
    }
  };
}
