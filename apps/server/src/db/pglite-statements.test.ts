import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { rawQueries, rawQueriesThenCommit, rawQuery } from './raw.ts';

// PGlite transactions of connect.ts: BEGIN sent with the first statement, COMMIT with the
// last when asked (pglite-statements.ts). What callers see must be PGlite's semantics.

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await t.db.execute(
    sql.raw(`create table tx_probe (id int primary key, label text not null, data json)`),
  );
});
afterAll(() => t.close());

const INSERT = 'insert into tx_probe (id, label, data) values ($1::int, $2::text, $3::json)';
const labels = () => rawQuery(t.db, 'select id, label from tx_probe order by id', []);

async function clear(): Promise<void> {
  await t.db.execute(sql`delete from tx_probe`);
}

describe('PGlite transactions', () => {
  it('commits raw and drizzle statements together, and a COMMIT sent with the last ends it', async () => {
    await clear();
    let later: Promise<unknown> = Promise.resolve();
    await t.db.transaction(async (tx) => {
      await rawQuery(tx, INSERT, [1, 'first', null]);
      // drizzle's own query in the same transaction sees the raw statement's row
      const seen = await tx.$count(sql`tx_probe`);
      expect(seen).toBe(1);
      const [returned] = await rawQueriesThenCommit(tx, [
        [`${INSERT} returning label`, [2, 'second', null]],
      ]);
      expect(returned).toEqual([{ label: 'second' }]);
      later = rawQuery(tx, INSERT, [3, 'too late', null]);
    });
    await expect(later).rejects.toThrow('Transaction is closed');
    expect(await labels()).toEqual([
      { id: 1, label: 'first' },
      { id: 2, label: 'second' },
    ]);
  });

  it('rolls back every statement, the first one sent with BEGIN included, when the callback throws', async () => {
    await clear();
    await expect(
      t.db.transaction(async (tx) => {
        await rawQuery(tx, INSERT, [1, 'kept?', null]);
        await tx.execute(sql`insert into tx_probe (id, label) values (2, 'kept?')`);
        throw new Error('use case failed');
      }),
    ).rejects.toThrow('use case failed');
    expect(await labels()).toEqual([]);
  });

  it('stops a batch at its first error, throws the database error and rolls back', async () => {
    await clear();
    let error: unknown;
    await t.db
      .transaction(async (tx) => {
        await rawQueries(tx, [
          [INSERT, [1, 'one', null]],
          [INSERT, [1, 'duplicate', null]],
          [INSERT, [2, 'never', null]],
        ]);
      })
      .catch((e: unknown) => (error = e));
    expect(error).toMatchObject({ code: '23505', constraint: 'tx_probe_pkey' });
    expect(await labels()).toEqual([]);
    // The statements stay usable afterwards.
    await t.db.transaction((tx) => rawQueriesThenCommit(tx, [[INSERT, [5, 'after', null]]]));
    expect(await labels()).toEqual([{ id: 5, label: 'after' }]);
  });

  it('keeps a statement that failed to parse unprepared, so it fails the same way again', async () => {
    const broken = 'select no_such_column from tx_probe where id = $1::int';
    for (let i = 0; i < 2; i++) {
      await expect(t.db.transaction((tx) => rawQuery(tx, broken, [1]))).rejects.toThrow(
        'column "no_such_column" does not exist',
      );
    }
  });

  it('a statement parsed in a batch that failed later can run again', async () => {
    await clear();
    // the first text parses (and is prepared) before the second one's error ends the call
    const fresh = 'select count(*)::int as n from tx_probe where id > $1::int';
    const failing = 'select 1 / $1::int as x';
    await expect(
      t.db.transaction((tx) =>
        rawQueries(tx, [
          [fresh, [0]],
          [failing, [0]],
        ]),
      ),
    ).rejects.toThrow('division by zero');
    const other = 'select count(*)::int as n from tx_probe where id < $1::int';
    const rows = await t.db.transaction((tx) =>
      rawQueries(tx, [
        [other, [0]],
        [fresh, [0]],
      ]),
    );
    expect(rows).toEqual([[{ n: '0' }], [{ n: '0' }]]);
  });

  it('sends a parameter longer than the message buffer whole', async () => {
    await clear();
    const long = 'x'.repeat(20_000);
    await t.db.transaction((tx) => rawQueriesThenCommit(tx, [[INSERT, [7, long, null]]]));
    const [row] = await rawQuery(t.db, 'select length(label)::int as n from tx_probe', []);
    expect(row).toEqual({ n: 20_000 });
  });

  it('holds the database: a query outside waits until the transaction has committed', async () => {
    await clear();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = t.db.transaction(async (tx) => {
      await rawQuery(tx, INSERT, [1, 'inside', null]);
      await held;
      await rawQueriesThenCommit(tx, [[INSERT, [2, 'last', null]]]);
    });
    let outside: unknown = null;
    const reader = labels().then((rows) => (outside = rows));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outside).toBeNull();
    release();
    await transaction;
    await reader;
    expect(outside).toEqual([
      { id: 1, label: 'inside' },
      { id: 2, label: 'last' },
    ]);
  });

  it('sends and reads bytes as the bytes themselves (bytea), as outside a transaction', async () => {
    const bytes = Buffer.from(new Float64Array([1.5, -2.25, Number.MIN_VALUE]).buffer);
    const query = `select $1::bytea as whole, substring($1::bytea from 9 for 8) as part,
      length($1::bytea) as size`;
    const [inside] = await t.db.transaction((tx) => rawQuery(tx, query, [bytes]));
    expect(Buffer.from(inside?.whole as Uint8Array).equals(bytes)).toBe(true);
    expect(Buffer.from(inside?.part as Uint8Array).equals(bytes.subarray(8, 16))).toBe(true);
    expect(Number(inside?.size)).toBe(24);
    const [outside] = await rawQuery(t.db, query, [bytes]);
    expect(Buffer.from(outside?.whole as Uint8Array).equals(bytes)).toBe(true);
  });

  it('reads values as the driver does: text, JSON parsed, NULL as null, any UTF-8', async () => {
    await clear();
    const label = `Zürich — 東京 ${'x'.repeat(80)}`;
    const rows = await t.db.transaction((tx) =>
      rawQueriesThenCommit(tx, [
        [`${INSERT} returning id, label, data`, [7, label, JSON.stringify({ a: [1, 'é'] })]],
        ['select null::text as nothing, 12.50::numeric(10,2) as money', []],
      ]),
    );
    expect(rows).toEqual([
      [{ id: '7', label, data: { a: [1, 'é'] } }],
      [{ nothing: null, money: '12.50' }],
    ]);
  });
});
