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
