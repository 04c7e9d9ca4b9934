import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

export type Schema = typeof schema;

/**
 * A drizzle database or transaction over either driver (PGlite or node-postgres), built
 * without the schema: the code uses the query builder and constant SQL, never drizzle's
 * relational queries, whose builders drizzle would otherwise make for every table in every
 * transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** One row of a raw query: column name → value as the driver gives it. */
export type SqlRow = Record<string, unknown>;
