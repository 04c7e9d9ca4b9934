import type { PositionView } from '@ct/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/connect.ts';
import { rawQueriesThenCommit } from '../../db/raw.ts';
import { startPostgres } from '../../test/cluster.ts';
import { rawQuery } from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';
import { openTestDatabase } from '../../test/helpers.ts';
import { OrderWriter } from './order-writer.ts';
import {
  placeOrder,
  traderSession,
  useTradingTestApp,
  type Answer,
  type TradingTestApp,
} from '../../test/trading.ts';

const INSERT = 'insert into writes (uuid, seq) values ($1::text, $2::int) returning id';

// PostgreSQL too where a server is given (npm test starts a throwaway one)
const SERVER_URL = process.env.TEST_DATABASE_URL || undefined;

/** A database for the writer's tests: PGlite, or a fresh database on PostgreSQL. */
type Opened = { db: Db; close(): Promise<void> };

async function openPostgresDatabase(): Promise<Opened> {
  const server = await startPostgres();
  const database = await openPostgres(server.url, 4);
  return {
    db: database.db,
    close: async () => {
      await database.close();
      await server.stop();
    },
  };
}

describe.each([
  { name: 'PGlite', skip: false, open: (): Promise<Opened> => openTestDatabase() },
  { name: 'PostgreSQL', skip: !SERVER_URL, open: openPostgresDatabase },
])('the order writer (group commit) on $name', ({ skip, open }) => {
  let test: Opened | undefined;
  let db: Db;

  beforeAll(async () => {
    if (skip) return;
    test = await open();
    db = test.db;
    await db.execute(
      sql`create table writes (id int generated always as identity primary key, uuid text not null, seq int not null, unique (uuid, seq))`,
    );
  });
  afterAll(() => test?.close());
  beforeEach((ctx) => {
    if (skip) ctx.skip();
  });

  const rows = async () =>
    (await rawQuery(db, 'select id, uuid, seq from writes order by id', [])).map((r) => ({
      id: Number(r.id),
      uuid: String(r.uuid),
      seq: Number(r.seq),
    }));

  it('commits the commands of many accounts that arrive together in one transaction', async () => {
    await db.execute(sql`delete from writes`);
    const writer = new OrderWriter(db, { maxBatch: 64, windowMs: 0 });
    const accounts = Array.from({ length: 12 }, (_, i) => `acct-${i}`);
    const ids = await Promise.all(
      accounts.map((uuid) =>
        writer.submit(uuid, async (tx) => Number((await rawQuery(tx, INSERT, [uuid, 1]))[0]?.id)),
      ),
    );
    expect(ids.every((id) => id > 0)).toBe(true);
    expect(writer.stats).toEqual({ batches: 1, commands: 12, largestBatch: 12, reruns: 0 });
    expect((await rows()).map((r) => r.uuid).sort()).toEqual([...accounts].sort());
  });

  it('rolls a failing command back to its own savepoint and commits its neighbours', async () => {
    await db.execute(sql`delete from writes`);
    const writer = new OrderWriter(db, { maxBatch: 64, windowMs: 0 });
    const before = writer.submit('a', (tx) => rawQuery(tx, INSERT, ['a', 1]));
    // a statement that fails after one that succeeded: both are undone
    const failing = writer.submit('b', async (tx) => {
      await rawQuery(tx, INSERT, ['b', 1]);
      await rawQuery(tx, INSERT, ['b', 1]); // duplicate key
    });
    // an error of the command's own code after its statement
    const thrown = writer.submit('c', async (tx) => {
      await rawQuery(tx, INSERT, ['c', 1]);
      throw new Error('refused by the use case');
    });
    const after = writer.submit('d', (tx) => rawQuery(tx, INSERT, ['d', 1]));
    const settled = await Promise.allSettled([before, failing, thrown, after]);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/duplicate key/);
    expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/refused by the use case/);
    // run side by side first, then again one by one with a savepoint each: one commit
    expect(writer.stats).toMatchObject({ batches: 1, reruns: 1 });
    expect((await rows()).map((r) => r.uuid)).toEqual(['a', 'd']);
  });

  it('runs the commands of different accounts side by side, after locking all the accounts', async () => {
    await db.execute(sql`delete from writes`);
    const locked: string[][] = [];
    const writer = new OrderWriter(db, {
      maxBatch: 64,
      windowMs: 0,
      lockAll: async (tx, uuids) => {
        locked.push([...uuids]);
        await rawQuery(tx, 'select 1', []);
      },
    });
    const events: string[] = [];
    const command = (uuid: string, seq: number) =>
      writer.submit(uuid, async (tx) => {
        events.push(`${uuid}${seq} starts`);
        await rawQuery(tx, INSERT, [uuid, seq]);
        events.push(`${uuid}${seq} ends`);
      });
    await Promise.all([command('b', 1), command('a', 1), command('b', 2)]);
    expect(locked).toEqual([['a', 'b']]);
    // a's command does not wait for b's, b's second waits for its first
    expect(events.slice(0, 2)).toEqual(['a1 starts', 'b1 starts']);
    expect(events.indexOf('b2 starts')).toBeGreaterThan(events.indexOf('b1 ends'));
    expect(writer.stats).toMatchObject({ batches: 1, reruns: 0 });
    expect((await rows()).map((r) => `${r.uuid}${r.seq}`).sort()).toEqual(['a1', 'b1', 'b2']);
  });

  it('runs a batch again one by one when a last statement sent ahead of the COMMIT fails', async () => {
    await db.execute(sql`delete from writes`);
    const writer = new OrderWriter(db, { maxBatch: 64, windowMs: 0 });
    // each command's last statement goes as the stored answer does (rawQueriesThenCommit)
    const last = (uuid: string, seq: number) =>
      writer.submit(uuid, async (tx) => {
        await rawQueriesThenCommit(tx, [[INSERT, [uuid, seq]]]);
      });
    const first = writer.submit('x', (tx) => rawQuery(tx, INSERT, ['x', 1]));
    const settled = await Promise.allSettled([first, last('x', 1), last('y', 1), last('z', 1)]);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/duplicate key/);
    expect(writer.stats).toMatchObject({ batches: 1, reruns: 1 });
    expect((await rows()).map((r) => `${r.uuid}${r.seq}`).sort()).toEqual(['x1', 'y1', 'z1']);
  });

  it("keeps each account's commands in their arrival order", async () => {
    await db.execute(sql`delete from writes`);
    const writer = new OrderWriter(db, { maxBatch: 64, windowMs: 0 });
    const sent: Promise<unknown>[] = [];
    // interleaved arrivals of three accounts, the later accounts' first
    for (let seq = 1; seq <= 5; seq++) {
      for (const uuid of ['z', 'm', 'a']) {
        sent.push(writer.submit(uuid, (tx) => rawQuery(tx, INSERT, [uuid, seq])));
      }
    }
    await Promise.all(sent);
    expect(writer.stats.batches).toBe(1);
    const written = await rows();
    for (const uuid of ['z', 'm', 'a']) {
      expect(written.filter((r) => r.uuid === uuid).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it('gathers the commands arriving while a batch commits into the next batch', async () => {
    await db.execute(sql`delete from writes`);
    const writer = new OrderWriter(db, { maxBatch: 4, windowMs: 0 });
    const sent = Array.from({ length: 10 }, (_, i) =>
      writer.submit(`acct-${i}`, (tx) => rawQuery(tx, INSERT, [`acct-${i}`, 1])),
    );
    await Promise.all(sent);
    expect(writer.stats).toEqual({ batches: 3, commands: 10, largestBatch: 4, reruns: 0 });
  });
});

describe('market orders through the order writer', () => {
  let t: TradingTestApp;
  useTradingTestApp((app) => (t = app));

  const writer = () => {
    const w = t.app.services.trading.context.writer;
    if (!w) throw new Error('the app runs without an order writer');
    return w;
  };

  it('fills concurrent orders of many accounts, one refused without failing the others', async () => {
    const sessions = await Promise.all(Array.from({ length: 8 }, () => traderSession(t)));
    // the seventh reuses a clientOrderId of its own for other parameters: a conflict thrown
    // inside the batch's transaction, after its account's lock
    const reused = sessions[6];
    if (!reused) throw new Error('no session');
    expect((await placeOrder(t, reused, { clientOrderId: 'once' })).json<Answer>().code).toBe(0);
    const batchesBefore = writer().stats.batches;
    const answers = await Promise.all(
      sessions.map((s, i) =>
        placeOrder(t, s, {
          clientOrderId: i === 6 ? 'once' : `many-${i}`,
          volume: i === 6 ? 0.7 : 0.5,
        }),
      ),
    );
    const codes = answers.map((a) => a.json<Answer>().code);
    expect(codes.filter((c) => c === 0)).toHaveLength(7);
    expect(answers[6]?.statusCode).toBe(409);
    // fewer transactions than orders: they were committed together
    expect(writer().stats.batches - batchesBefore).toBeLessThan(8);
    for (const [i, answer] of answers.entries()) {
      if (i === 6) continue;
      const order = answer.json<Answer<{ order: PositionView }>>().data.order;
      expect(order.price).toBe(2000.5); // the published ask
    }
  });

  it("fills one account's concurrent orders in the order they were sent", async () => {
    const s = await traderSession(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        placeOrder(t, s, { clientOrderId: `seq-${i}`, volume: 0.01 * (i + 1) }),
      ),
    );
    const orders = answers.map((a) => a.json<Answer<{ order: PositionView }>>().data.order);
    const ids = orders.map((o) => Number(o.orderId));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(orders.map((o) => o.clientOrderId)).toEqual(
      Array.from({ length: 6 }, (_, i) => `seq-${i}`),
    );
  });
});
