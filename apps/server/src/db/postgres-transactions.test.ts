import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type Stoppable } from '../test/cluster.ts';
import { openPostgres, type Database } from './connect.ts';
import { rawQueries, rawQueriesThenCommit, rawQuery } from './raw.ts';
import type { Db } from './types.ts';

// Pipelined transactions on a real PostgreSQL server (npm test starts a throwaway one and
// sets TEST_DATABASE_URL): the statements of a transaction go without waiting for each
// other, and still behave as statements run one by one.
const SERVER_URL = process.env.TEST_DATABASE_URL || undefined;

describe.skipIf(!SERVER_URL)('transactions on PostgreSQL, pipelined', () => {
  let server: Stoppable & { url: string };
  let database: Extract<Database, { kind: 'pg' }>;
  let db: Db;

  const LOCK = 'select value from counters where id = $1::int for update';
  const READ_NOTE = 'select note from notes where counter_id = $1::int';
  const valueOf = async (id: number) =>
    Number((await rawQuery(db, 'select value from counters where id = $1::int', [id]))[0]?.value);

  beforeAll(async () => {
    server = await startPostgres();
    const opened = await openPostgres(server.url, 4);
    if (opened.kind !== 'pg') throw new Error('not PostgreSQL');
    database = opened;
    db = opened.db;
    await db.execute(sql`create table counters (id int primary key, value int not null)`);
    await db.execute(sql`create table notes (counter_id int primary key, note text not null)`);
    await db.execute(sql`insert into counters values (1, 0), (2, 0), (3, 0), (4, 0)`);
  });

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('runs the statements handed over together in order, each seeing the ones before', async () => {
    const rows = await db.transaction((tx) =>
      rawQueries(tx, [
        ['update counters set value = value + 5 where id = $1::int', [1]],
        ['insert into notes values ($1::int, $2::text)', [1, 'five']],
        [
          'select c.value, n.note from counters c join notes n on n.counter_id = c.id where c.id = $1::int',
          [1],
        ],
      ]),
    );
    expect(rows[2]).toEqual([{ value: 5, note: 'five' }]);
    expect(await valueOf(1)).toBe(5);
  });

  it('a statement sent behind a lock reads what the lock waited for', async () => {
    await rawQuery(db, 'insert into notes values ($1::int, $2::text)', [2, 'before']);
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstLocked!: () => void;
    const locked = new Promise<void>((resolve) => (firstLocked = resolve));
    const first = db.transaction(async (tx) => {
      await rawQuery(tx, LOCK, [2]);
      firstLocked();
      await firstHolds;
      await rawQuery(tx, 'update notes set note = $2::text where counter_id = $1::int', [
        2,
        'after',
      ]);
    });
    await locked;
    const second = db.transaction((tx) =>
      rawQueries(tx, [
        [LOCK, [2]],
        [READ_NOTE, [2]],
      ]),
    );
    // the second is sent and waits on the lock; the first then changes the note and commits
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseFirst();
    await first;
    const [, note] = await second;
    expect(note).toEqual([{ note: 'after' }]);
  });

  it('commits with the last statements, and refuses a statement after them', async () => {
    let seenOutside: unknown[] = [];
    let after: unknown;
    await db.transaction(async (tx) => {
      await rawQuery(tx, 'update counters set value = value + 1 where id = $1::int', [3]);
      await rawQueriesThenCommit(tx, [['insert into notes values ($1::int, $2::text)', [3, 'x']]]);
      // committed already: another connection sees it before the callback returns
      seenOutside = await rawQuery(db, READ_NOTE, [3]);
      after = await rawQuery(tx, 'select 1', []).catch((error: Error) => error.message);
    });
    expect(seenOutside).toEqual([{ note: 'x' }]);
    expect(after).toMatch(/already been committed/);
    expect(await valueOf(3)).toBe(1);
  });

  it('a failing statement rolls the whole transaction back, the ones after it included', async () => {
    const failed = await db
      .transaction((tx) =>
        rawQueries(tx, [
          ['update counters set value = value + 1 where id = $1::int', [4]],
          ['insert into notes values ($1::int, $2::text)', [1, 'duplicate key']],
          ['update counters set value = value + 100 where id = $1::int', [4]],
        ]),
      )
      .catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/duplicate key/);
    expect(await valueOf(4)).toBe(0);
    // the connection went back to the pool in a usable state
    await db.transaction((tx) =>
      rawQuery(tx, 'update counters set value = value + 1 where id = $1::int', [4]),
    );
    expect(await valueOf(4)).toBe(1);
  });

  it('a callback that throws after its statements rolls them back', async () => {
    const before = await valueOf(1);
    await expect(
      db.transaction(async (tx) => {
        await rawQueries(tx, [['update counters set value = value + 1 where id = $1::int', [1]]]);
        await tx.execute(sql`update counters set value = value + 1 where id = 1`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await valueOf(1)).toBe(before);
  });

  it('concurrent transactions on one locked row lose no update', async () => {
    const before = await valueOf(2);
    await Promise.all(
      Array.from({ length: 24 }, () =>
        db.transaction(async (tx) => {
          const [locked] = await rawQueries(tx, [[LOCK, [2]]]);
          const row = locked?.[0];
          await rawQueriesThenCommit(tx, [
            ['update counters set value = $2::int where id = $1::int', [2, Number(row?.value) + 1]],
          ]);
        }),
      ),
    );
    expect(await valueOf(2)).toBe(before + 24);
  });
});
