import type { FastifyInstance } from 'fastify';
import { rawQuery } from '../db/raw.ts';
import type { Db } from '../db/types.ts';

/*
 * What the fuzz and authorization tests share: the routes the app serves (read from
 * Fastify itself), URL encoding that can carry any string (NUL, lone surrogates) and a
 * cheap digest of everything stored.
 */

/** `METHOD /path` of every route the app serves (HEAD and the web app's catch-all left out). */
export function servedRoutes(app: FastifyInstance): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const path = stack.join('') + (match[2] ?? '');
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method === '' || method === 'HEAD' || path === '*') continue;
      found.add(`${method} ${path}`);
    }
  }
  return [...found].sort();
}

/**
 * Percent-encodes any JS string, including lone surrogates (sent as their 3-byte
 * generalized UTF-8 form, which no decoder accepts as text), so a URL can carry them.
 */
export function encodeAny(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c >= 0xd800 && c <= 0xdfff) {
      const bytes = [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

/** A query string from a generated value: objects become key=value pairs (arrays repeat). */
export function queryString(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `?${encodeAny(typeof value === 'string' ? value : JSON.stringify(value))}`;
  }
  const pairs: string[] = [];
  const text = (item: unknown) =>
    typeof item === 'string' ? item : item === null ? '' : JSON.stringify(item);
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const items = Array.isArray(item) ? item : [item];
    for (const one of items) pairs.push(`${encodeAny(key)}=${encodeAny(text(one))}`);
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

let tableNames: string[] | null = null;

/**
 * A digest of every table: its row count and the sum of its rows' creating transaction ids
 * (xmin). An insert or delete changes the count, an update gives the row a newer xmin, so
 * equal digests mean nothing was stored, changed or deleted. One statement, no row is read
 * as text: it stays cheap as the fuzz stores thousands of rows.
 */
export async function stateDigest(db: Db): Promise<string> {
  if (!tableNames) {
    const rows = await rawQuery<{ name: string }>(
      db,
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
      [],
    );
    tableNames = rows.map((row) => row.name);
  }
  const parts = tableNames.map(
    (name) =>
      `select '${name}' as t, count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text as d from "${name}"`,
  );
  const rows = await rawQuery<{ t: string; d: string }>(db, parts.join(' union all '), []);
  return rows.map((row) => `${row.t}=${row.d}`).join(';');
}

/**
 * The next transaction id PostgreSQL will hand out. Reading it assigns none, and every
 * transaction that writes (even one rolled back) takes one: an unchanged mark means nothing
 * wrote in between, without reading any table.
 */
export async function writeMark(db: Db): Promise<string> {
  const [row] = await rawQuery<{ mark: string }>(
    db,
    'select pg_snapshot_xmax(pg_current_snapshot())::text as mark',
    [],
  );
  return row?.mark ?? '';
}

/** The tables whose part of two digests differ (for a readable failure). */
export function changedTables(before: string, after: string): string[] {
  const a = new Map(before.split(';').map((part) => part.split('=') as [string, string]));
  return after
    .split(';')
    .map((part) => part.split('=') as [string, string])
    .filter(([table, digest]) => a.get(table) !== digest)
    .map(([table]) => table);
}

let ownerColumns: Map<string, string[]> | null = null;

/**
 * A digest of one user's rows only: tables with a `user_id` column filtered by the user,
 * tables with a `uuid` or `trader_uuid` column by the user's trading accounts, and tables
 * with neither (versions, task messages, imported bars) whole. Another user's calls may
 * change their own rows; this digest moves only when this user's data (or shared rows) do.
 */
/** Tables whose rows belong to a user through another column than user_id/uuid. */
const OWNED_THROUGH: Record<string, (userId: number) => string> = {
  jobs: (userId) => `group_key = 'user:${userId}'`,
  optimization_trials: (userId) =>
    `optimization_id in (select id from optimizations where user_id = ${userId})`,
};

export async function userDigest(
  db: Db,
  userId: number,
  uuids: readonly string[],
): Promise<string> {
  if (!ownerColumns) {
    const rows = await rawQuery<{ t: string; c: string }>(
      db,
      `select table_name as t, column_name as c from information_schema.columns
        where table_schema = 'public' and column_name in ('user_id', 'uuid', 'trader_uuid')`,
      [],
    );
    ownerColumns = new Map();
    for (const row of rows) ownerColumns.set(row.t, [...(ownerColumns.get(row.t) ?? []), row.c]);
  }
  await stateDigest(db); // loads the table names
  const uuidList = uuids.map((u) => `'${u.replace(/'/g, "''")}'`).join(',') || "''";
  const parts = (tableNames ?? []).map((name) => {
    const columns = ownerColumns?.get(name) ?? [];
    const linked = OWNED_THROUGH[name]?.(Number(userId));
    const where = linked
      ? `where ${linked}`
      : columns.includes('user_id')
        ? `where user_id = ${Number(userId)}`
        : columns.length > 0
          ? `where "${columns[0]}" in (${uuidList})`
          : '';
    return `select '${name}' as t, count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text as d from "${name}" ${where}`;
  });
  const rows = await rawQuery<{ t: string; d: string }>(db, parts.join(' union all '), []);
  return rows.map((row) => `${row.t}=${row.d}`).join(';');
}
