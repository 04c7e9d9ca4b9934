import {
  TransactionAbortedError,
  messages,
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { query as templatedQuery } from '@electric-sql/pglite/template';
import type { SqlRow } from './types.ts';

/*
 * PGlite runs in this process on one thread, and every call into its WebAssembly backend
 * costs: its own `query` makes six calls per statement (parse, describe, bind, describe,
 * execute, sync) and parses the text every time, its `transaction` two more each for BEGIN
 * and COMMIT. Here, for the database opened by connect.ts:
 *
 * - Transactions (`installTransactions`, which replaces `client.transaction`, so drizzle's
 *   transactions are these) hold PGlite's transaction lock like its own, but send BEGIN
 *   together with the transaction's first statement and, when the caller says which is
 *   the last (`runPreparedBatch` with `commit`), COMMIT together with it. A transaction that
 *   ran nothing sends nothing; one that throws is rolled back.
 * - The constant statements of db/raw.ts go as named prepared statements (parsed once per
 *   database, planned by PostgreSQL's plan cache), several of them with one sync in one
 *   call, and their answer is read straight from the protocol bytes.
 * - Any other statement in a transaction (drizzle's queries) runs as PGlite's `query` does —
 *   parse, describe its parameters, bind with PGlite's serializers, execute, read with its
 *   parsers — in two calls instead of six.
 *
 * A transaction takes PGlite's two locks once (its transaction lock, then its query lock, the
 * order PGlite's own queries take them) and holds both until it ends; its calls into the
 * backend take no lock of their own.
 *
 * Durability: in Node, PGlite's file systems (a directory: NodeFS; memory) write through:
 * the commit's writes reach the file system during the call, and PGlite's `syncToFs` does
 * nothing for them, so none is awaited after a commit (docs/architecture.md).
 */

const STATE = Symbol('pglite transaction');

type TransactionState = {
  pglite: PGlite;
  /** BEGIN has been sent. */
  begun: boolean;
  /** COMMIT or ROLLBACK has been sent: nothing more may run in it. */
  closed: boolean;
};

type StatefulTransaction = Transaction & { [STATE]: TransactionState };

/** The state of a transaction made by `installTransactions`, else null. */
function stateOf(tx: unknown): TransactionState | null {
  return (tx as Partial<StatefulTransaction> | null)?.[STATE] ?? null;
}

/** The PGlite database of a transaction made by `installTransactions`, else null. */
export function pgliteOfTransaction(tx: unknown): PGlite | null {
  return stateOf(tx)?.pglite ?? null;
}

// ---------------------------------------------------------------------------------------
// Frontend messages.

const encoder = new TextEncoder();

/**
 * A growing buffer of protocol messages. One is reused for every message built here (they
 * are built synchronously and copied out by `done`).
 */
class MessageWriter {
  private buffer = new Uint8Array(4096);
  private view = new DataView(this.buffer.buffer);
  private at = 0;
  private messageStart = -1;

  /** Empties the buffer for a new message. */
  reset(): this {
    this.at = 0;
    return this;
  }

  private room(n: number): void {
    if (this.at + n <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.at + n + 1024));
    next.set(this.buffer.subarray(0, this.at));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  /** Starts a message of `type`; its length is filled in by `end`. */
  begin(type: number): this {
    this.room(5);
    this.buffer[this.at] = type;
    this.messageStart = this.at + 1;
    this.at += 5;
    return this;
  }

  end(): this {
    this.view.setInt32(this.messageStart, this.at - this.messageStart);
    return this;
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buffer.set(b, this.at);
    this.at += b.length;
    return this;
  }

  int16(n: number): this {
    this.room(2);
    this.view.setInt16(this.at, n);
    this.at += 2;
    return this;
  }

  int32(n: number): this {
    this.room(4);
    this.view.setInt32(this.at, n);
    this.at += 4;
    return this;
  }

  /** The UTF-8 bytes of `s` (at most 3 per UTF-16 unit); their count. */
  private utf8(s: string): number {
    this.room(s.length * 3);
    const { written } = encoder.encodeInto(s, this.buffer.subarray(this.at));
    this.at += written;
    return written;
  }

  /** A NUL-terminated string. */
  cstring(s: string): this {
    this.utf8(s);
    this.room(1);
    this.buffer[this.at++] = 0;
    return this;
  }

  /** A length-prefixed text value (-1: NULL). */
  value(text: string | null): this {
    if (text === null) return this.int32(-1);
    const lengthAt = this.at;
    this.int32(0);
    // written first: writing may grow the buffer, and `this.view` with it
    const written = this.utf8(text);
    this.view.setInt32(lengthAt, written);
    return this;
  }

  done(): Uint8Array {
    return this.buffer.slice(0, this.at);
  }
}

const writer = new MessageWriter();

const code = (c: string) => c.charCodeAt(0);

function constantMessage(write: (w: MessageWriter) => MessageWriter): Uint8Array {
  return write(writer.reset()).done();
}

/** Describe the unnamed portal, execute it without a row limit, then sync. */
const DESCRIBE_PORTAL = constantMessage((w) =>
  w
    .begin(code('D'))
    .bytes(new Uint8Array([code('P'), 0]))
    .end(),
);
const EXECUTE = constantMessage((w) => w.begin(code('E')).cstring('').int32(0).end());
const SYNC = constantMessage((w) => w.begin(code('S')).end());

function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // bytes as bytea's hex text, as the driver sends them (JSON.stringify made them the text
  // {"type":"Buffer","data":[…]}, stored as those characters' bytes)
  if (value instanceof Uint8Array) {
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------
// Backend messages of a prepared statement batch, read from the bytes.

const decoder = new TextDecoder();

const JSON_TYPES = new Set([114, 3802]);
/** bytea: read from its hex text into the bytes, as the drivers give them. */
const BYTEA = 17;

/** Error and notice fields by their protocol code. */
const ERROR_FIELDS: Record<string, keyof messages.DatabaseError> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

function databaseError(bytes: Uint8Array, from: number, to: number): messages.DatabaseError {
  const fields: Record<string, string> = {};
  let at = from;
  while (at < to && bytes[at] !== 0) {
    const field = String.fromCharCode(bytes[at] ?? 0);
    const stop = bytes.indexOf(0, at + 1);
    fields[field] = decoder.decode(bytes.subarray(at + 1, stop));
    at = stop + 1;
  }
  const error = new messages.DatabaseError(fields.M ?? 'database error', to - from + 4, 'error');
  for (const [field, name] of Object.entries(ERROR_FIELDS)) {
    const value = fields[field];
    if (value !== undefined) (error as unknown as Record<string, string>)[name] = value;
  }
  return error;
}

type Completed = { rows: SqlRow[][]; tags: string[] };

/** The rows and command tag of each completed statement in `bytes`; the first error is thrown. */
function readResults(bytes: Uint8Array): Completed {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Node's UTF-8 decoding of a Buffer costs half of TextDecoder's on short values.
  const utf8 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const results: SqlRow[][] = [];
  const tags: string[] = [];
  let names: string[] = [];
  let types: number[] = [];
  let rows: SqlRow[] = [];
  let error: messages.DatabaseError | null = null;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at];
    const end = at + 1 + view.getInt32(at + 1);
    let p = at + 5;
    if (type === 0x54 /* T: row description */) {
      const count = view.getInt16(p);
      p += 2;
      names = [];
      types = [];
      for (let i = 0; i < count; i++) {
        const stop = bytes.indexOf(0, p);
        names.push(utf8.toString('utf8', p, stop));
        p = stop + 1;
        types.push(view.getInt32(p + 6));
        p += 18;
      }
    } else if (type === 0x44 /* D: data row */) {
      const count = view.getInt16(p);
      p += 2;
      const row: SqlRow = {};
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(p);
        p += 4;
        let value: unknown = null;
        if (length >= 0) {
          const text = utf8.toString('utf8', p, p + length);
          p += length;
          const oid = types[i] ?? 0;
          value = JSON_TYPES.has(oid)
            ? (JSON.parse(text) as unknown)
            : oid === BYTEA && text.startsWith('\\x')
              ? Buffer.from(text.slice(2), 'hex')
              : text;
        }
        row[names[i] ?? `?column${i}`] = value;
      }
      rows.push(row);
    } else if (type === 0x43 /* C: command complete */) {
      tags.push(utf8.toString('utf8', p, end - 1));
      results.push(rows);
      rows = [];
      names = [];
      types = [];
    } else if (type === 0x45 /* E: error */ && !error) {
      error = databaseError(bytes, p, end);
    }
    at = end;
  }
  if (error) throw error;
  return { rows: results, tags };
}

// ---------------------------------------------------------------------------------------
// Calls into PGlite.

/** The answer's chunks of the call running now (calls run one at a time, see `call`). */
const received: Uint8Array[] = [];

// One options object for every call: no closure made per call.
const RAW_OPTIONS = {
  syncToFs: false,
  onRawData(chunk: Uint8Array): void {
    // A view into the backend's memory: copied before the backend runs on.
    received.push(chunk.slice());
  },
};

/**
 * Sends `message` (ending in a sync) and returns every byte of the answer. PGlite runs the
 * message synchronously inside `execProtocolRawStream` (its promise only follows a file
 * system sync, not asked for here), so the answer is complete, and taken, before any other
 * code runs.
 */
async function call(pglite: PGlite, message: Uint8Array): Promise<Uint8Array> {
  received.length = 0;
  const running = pglite.execProtocolRawStream(message, RAW_OPTIONS);
  const answer = concat(...received);
  received.length = 0;
  await running;
  return answer;
}

/** Named prepared statements of each database: text → name. */
const prepared = new WeakMap<PGlite, Map<string, string>>();
/**
 * Names are never reused: when a call fails, the statements it parsed before the error are
 * prepared in the backend but not remembered here, and parsing one of them again under the
 * same name would fail with "prepared statement already exists".
 */
let lastName = 0;

const BEGIN = 'begin';
const COMMIT = 'commit';
const ROLLBACK = 'rollback';

/**
 * Writes `statements` as named prepared statements (Parse for those not yet prepared, then
 * Bind, Describe, Execute); returns the statements it parses, to be remembered once the
 * call succeeded.
 */
function writeStatements(
  w: MessageWriter,
  names: Map<string, string>,
  statements: readonly (readonly [string, readonly unknown[]])[],
): [string, string][] {
  const parsed: [string, string][] = [];
  for (const [text, params] of statements) {
    let name = names.get(text) ?? parsed.find(([t]) => t === text)?.[1];
    if (!name) {
      lastName += 1;
      name = `ct_${lastName}`;
      parsed.push([text, name]);
      w.begin(code('P')).cstring(name).cstring(text).int16(0).end();
    }
    w.begin(code('B')).cstring('').cstring(name).int16(0).int16(params.length);
    for (const value of params) w.value(paramText(value));
    w.int16(0).end();
    w.bytes(DESCRIBE_PORTAL).bytes(EXECUTE);
  }
  return parsed;
}

/** Runs statements in one call with one sync (the first error stops the rest and is thrown). */
async function runStatements(
  pglite: PGlite,
  statements: readonly (readonly [string, readonly unknown[]])[],
): Promise<Completed> {
  let names = prepared.get(pglite);
  if (!names) {
    names = new Map();
    prepared.set(pglite, names);
  }
  const parsed = writeStatements(writer.reset(), names, statements);
  const message = writer.bytes(SYNC).done();
  const answer = await call(pglite, message);
  const results = readResults(answer);
  // A statement's name is kept only once its text parsed (a failed Parse prepares nothing).
  for (const [text, name] of parsed) names.set(text, name);
  return results;
}

/**
 * Runs statements, one after the other, in a transaction made by `installTransactions` in
 * one call: BEGIN first when the transaction has not begun, and with `commit` the COMMIT
 * after them (the transaction is then over: later statements in it throw). The rows of
 * each of `statements`; the first error stops the rest and is thrown (the transaction then
 * rolls back).
 */
export async function runPreparedBatch(
  tx: unknown,
  statements: readonly (readonly [string, readonly unknown[]])[],
  options: { commit?: boolean } = {},
): Promise<SqlRow[][]> {
  const state = stateOf(tx);
  if (!state) throw new Error('not a PGlite transaction of installTransactions');
  if (state.closed) throw new Error('Transaction is closed');
  const begin = !state.begun;
  const all: (readonly [string, readonly unknown[]])[] = [
    ...(begin ? [[BEGIN, []] as const] : []),
    ...statements,
    ...(options.commit ? [[COMMIT, []] as const] : []),
  ];
  state.begun = true;
  // On an error the transaction stays open (aborted) for the caller's rollback.
  const { rows, tags } = await runStatements(state.pglite, all);
  if (options.commit) {
    state.closed = true;
    if (tags[tags.length - 1] === 'ROLLBACK') throw new TransactionAbortedError();
  }
  return rows.slice(begin ? 1 : 0, (begin ? 1 : 0) + statements.length);
}

/**
 * A statement other than the constant ones (drizzle's) in the transaction, with the
 * semantics of PGlite's `query` (its serializers, parsers and row modes): parsed and its
 * parameters described in one call (with BEGIN first if due), bound, executed and read in
 * a second.
 */
async function queryInTransaction<T>(
  state: TransactionState,
  text: string,
  params: unknown[] = [],
  options?: QueryOptions,
): Promise<Results<T>> {
  if (state.closed) throw new Error('Transaction is closed');
  const { pglite } = state;
  const { serialize } = protocol;
  const begin = state.begun ? [] : [serialize.query(BEGIN)];
  state.begun = true;
  const described = await pglite.execProtocol(
    concat(
      ...begin,
      serialize.parse({ text, types: options?.paramTypes }),
      serialize.describe({ type: 'S' }),
      serialize.sync(),
    ),
    { syncToFs: false },
  );
  const dataTypeIDs = parse.parseDescribeStatementResults(described.messages);
  const values = params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const oid = dataTypeIDs[i] ?? 0;
    const serializer = options?.serializers?.[oid] ?? pglite.serializers[oid];
    return serializer ? serializer(param) : String(param);
  });
  const executed = await pglite.execProtocol(
    concat(
      serialize.bind({ values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ),
    { syncToFs: false },
  );
  const [result] = parse.parseResults(executed.messages, pglite.parsers, options);
  return result as Results<T>;
}

/** A simple-protocol statement (several allowed) in the transaction, as PGlite's `exec`. */
async function execInTransaction(
  state: TransactionState,
  text: string,
  options?: QueryOptions,
): Promise<Results[]> {
  if (state.closed) throw new Error('Transaction is closed');
  const { pglite } = state;
  const sql = state.begun ? text : `begin; ${text}`;
  const begin = !state.begun;
  state.begun = true;
  const answer = await pglite.execProtocol(
    concat(protocol.serialize.query(sql), protocol.serialize.sync()),
    { syncToFs: false },
  );
  const results = parse.parseResults(answer.messages, pglite.parsers, options);
  return begin ? results.slice(1) : results;
}

/** The parts as one array (the part itself when there is one). */
function concat(...parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Ends the transaction with ROLLBACK (when it began and is not over). */
async function rollback(state: TransactionState): Promise<void> {
  if (state.closed) return;
  state.closed = true;
  if (state.begun) await runStatements(state.pglite, [[ROLLBACK, []]]);
}

/** Ends the transaction with COMMIT (when it began and is not over). */
async function commit(state: TransactionState): Promise<void> {
  if (state.closed) return;
  if (!state.begun) {
    state.closed = true;
    return;
  }
  await runPreparedBatch({ [STATE]: state }, [], { commit: true });
}

/** The handle a transaction's callback gets (drizzle's session runs its statements on it). */
class PgliteTransaction implements StatefulTransaction {
  readonly [STATE]: TransactionState;

  constructor(state: TransactionState) {
    this[STATE] = state;
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return queryInTransaction<T>(this[STATE], text, params, options);
  }

  sql<T>(strings: TemplateStringsArray, ...params: unknown[]): Promise<Results<T>> {
    const { query, params: values } = templatedQuery(strings, ...params);
    return queryInTransaction<T>(this[STATE], query, values);
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return execInTransaction(this[STATE], text, options);
  }

  rollback(): Promise<void> {
    return rollback(this[STATE]);
  }

  listen(
    channel: string,
    callback: (payload: string) => void,
  ): Promise<(tx?: Transaction) => Promise<void>> {
    return this[STATE].pglite.listen(channel, callback, this);
  }

  get closed(): boolean {
    return this[STATE].closed;
  }
}

/**
 * Replaces `client.transaction` (what drizzle's transactions call) with transactions that
 * send BEGIN with their first statement and may send COMMIT with their last (see above).
 * Like PGlite's own, a transaction holds the database against every other query and
 * transaction until it ends (PGlite's transaction lock, then its query lock, held once
 * for the whole transaction); it commits when `fn` resolves and rolls back when it throws.
 */
export function installTransactions(client: PGlite): void {
  client.transaction = async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(() => runTransaction(client, fn)),
    );
  };
}

async function runTransaction<T>(client: PGlite, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  const state: TransactionState = { pglite: client, begun: false, closed: false };
  try {
    const result = await fn(new PgliteTransaction(state));
    await commit(state);
    return result;
  } catch (error) {
    await rollback(state);
    throw error;
  }
}
