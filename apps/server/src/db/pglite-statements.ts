import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlRow } from './raw.ts';

/*
 * PGlite runs a parameterised query as six calls into its WebAssembly backend (parse,
 * describe, bind, describe, execute, sync) and parses and plans its text every time. Inside
 * a transaction the trading venue's constant statements go instead as one call of the
 * extended protocol: a named prepared statement (parsed once per database, planned by
 * PostgreSQL's plan cache), bound, executed and synced in one message. Only inside a
 * transaction: there PGlite runs nothing else (its transaction holds the database), and the
 * commit writes to the file system as before.
 */

const PGLITE = Symbol('pglite');
type TaggedTransaction = Transaction & { [PGLITE]?: PGlite };

const encoder = new TextEncoder();
const prepared = new WeakMap<PGlite, Map<string, string>>();

/** Makes the transactions of `client` carry it, so their statements can take the fast path. */
export function tagTransactions(client: PGlite): void {
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> =>
    transaction((tx) => {
      (tx as TaggedTransaction)[PGLITE] = client;
      return fn(tx);
    });
}

/** The PGlite database of a tagged transaction client, else null. */
export function pgliteOfTransaction(client: unknown): PGlite | null {
  return (client as TaggedTransaction | null)?.[PGLITE] ?? null;
}

class Writer {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  bytes(b: Uint8Array): this {
    this.parts.push(b);
    this.size += b.length;
    return this;
  }
  cstring(s: string): this {
    return this.bytes(encoder.encode(`${s}\0`));
  }
  int16(n: number): this {
    const b = new Uint8Array(2);
    new DataView(b.buffer).setInt16(0, n);
    return this.bytes(b);
  }
  int32(n: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, n);
    return this.bytes(b);
  }
  /** The body as a message of `type`: type byte, length, body. */
  message(type: string): Uint8Array {
    const out = new Uint8Array(5 + this.size);
    out[0] = type.charCodeAt(0);
    new DataView(out.buffer).setInt32(1, 4 + this.size);
    let at = 5;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return JSON.stringify(value);
}

const JSON_TYPES = new Set([114, 3802]);

type BackendMessage = {
  name: string;
  fields?: ({ name: string; dataTypeID: number } | string | null)[];
};

/** Runs `text` with `params` as a named prepared statement in one protocol call; its rows. */
export async function runPrepared(
  pglite: PGlite,
  text: string,
  params: readonly unknown[],
): Promise<SqlRow[]> {
  const [rows] = await runPreparedBatch(pglite, [[text, params]]);
  return rows ?? [];
}

/**
 * Runs statements one after the other as named prepared statements in one protocol call
 * (one sync: the first error stops the rest and is thrown); the rows of each.
 */
export async function runPreparedBatch(
  pglite: PGlite,
  statements: readonly (readonly [string, readonly unknown[]])[],
): Promise<SqlRow[][]> {
  let names = prepared.get(pglite);
  if (!names) {
    names = new Map();
    prepared.set(pglite, names);
  }
  const messages: Uint8Array[] = [];
  const parsed: [string, string][] = [];
  for (const [text, params] of statements) {
    const known = names.get(text) ?? parsed.find(([t]) => t === text)?.[1];
    const name = known ?? `ct_${names.size + parsed.length + 1}`;
    if (!known) {
      parsed.push([text, name]);
      messages.push(new Writer().cstring(name).cstring(text).int16(0).message('P'));
    }
    const bind = new Writer().cstring('').cstring(name).int16(0).int16(params.length);
    for (const value of params) {
      const v = paramText(value);
      if (v === null) {
        bind.int32(-1);
      } else {
        const b = encoder.encode(v);
        bind.int32(b.length).bytes(b);
      }
    }
    messages.push(bind.int16(0).message('B'));
    messages.push(new Writer().bytes(encoder.encode('P')).cstring('').message('D'));
    messages.push(new Writer().cstring('').int32(0).message('E'));
  }
  messages.push(new Writer().message('S'));
  const total = messages.reduce((n, m) => n + m.length, 0);
  const buffer = new Uint8Array(total);
  let at = 0;
  for (const m of messages) {
    buffer.set(m, at);
    at += m.length;
  }
  // Throws the database error (the transaction then rolls back); the name is kept only once
  // its statement parsed.
  const { messages: replies } = (await pglite.execProtocol(buffer, { syncToFs: false })) as {
    messages: BackendMessage[];
  };
  for (const [text, name] of parsed) names.set(text, name);
  const results: SqlRow[][] = [];
  let columns: { name: string; dataTypeID: number }[] = [];
  let rows: SqlRow[] = [];
  for (const reply of replies) {
    if (reply.name === 'rowDescription') {
      columns = (reply.fields ?? []) as { name: string; dataTypeID: number }[];
    } else if (reply.name === 'dataRow') {
      const row: SqlRow = {};
      (reply.fields ?? []).forEach((value, i) => {
        const column = columns[i];
        if (!column) return;
        row[column.name] =
          typeof value === 'string' && JSON_TYPES.has(column.dataTypeID)
            ? (JSON.parse(value) as unknown)
            : value;
      });
      rows.push(row);
    } else if (reply.name === 'commandComplete') {
      results.push(rows);
      rows = [];
      columns = [];
    }
  }
  return results;
}
