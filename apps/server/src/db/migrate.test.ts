import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { migrateDatabase } from './migrate.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

describe('migrateDatabase', () => {
  it('is idempotent on a migrated database', async () => {
    await migrateDatabase(t.database);
    await migrateDatabase(t.database);
    if (t.database.kind !== 'pglite') throw new Error('tests run on PGlite');
    const result = await t.database.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    );
    expect(result.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['sessions', 'trader_tokens', 'traders', 'users']),
    );
  });

  it('enforces lower-case unique emails in the database itself', async () => {
    const insert = (email: string) =>
      t.db.execute(
        sql`insert into users (email, password_hash, created_at, updated_at) values (${email}, 'x', 0, 0)`,
      );
    await insert('dup@example.com');
    await expect(insert('dup@example.com')).rejects.toThrow();
    await expect(insert('Upper@example.com')).rejects.toThrow();
  });
});
