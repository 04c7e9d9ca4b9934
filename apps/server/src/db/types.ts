import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

export type Schema = typeof schema;

/** A drizzle database or transaction over either driver (PGlite or node-postgres). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
