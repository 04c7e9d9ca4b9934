import type { PositionView } from '@ct/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/connect.ts';
import { rawQueriesThenCommit } from '../../db/raw.ts';
import { startPostgres } from '../../test/cluster.ts';
import { rawQuery } from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';
import { openTestDatabase } from '../../test/helpers.ts';
import { BatchRolledBack, OrderWriter } from './order-writer.ts';
import {
  get,
  openPostgresTestDatabase,
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
    expect(writer.stats).toEqual({
      batches: 1,
      commands: 12,
      largestBatch: 12,
      reruns: 0,
      together: 0,
    });
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

  it('writes a batch whose commands all come batched with options.batch, one by one when it rolls back', async () => {
    await db.execute(sql`delete from writes`);
    let rollBack = true;
    const writer = new OrderWriter<number>(db, {
      maxBatch: 64,
      windowMs: 0,
      batch: async (tx, seqs) => {
        if (rollBack) {
          await rawQuery(tx, INSERT, ['batch', 99]);
          throw new BatchRolledBack(new Error('refused'));
        }
        const ids = await Promise.all(seqs.map((seq) => rawQuery(tx, INSERT, ['batch', seq])));
        return ids.map((rows) => ({ ok: true, value: `batch ${String(rows[0]?.id)}` }));
      },
    });
    const submit = (seq: number, batched = true) =>
      writer.submit(
        `acct-${seq}`,
        async (tx) => `work ${String((await rawQuery(tx, INSERT, ['work', seq]))[0]?.id)}`,
        batched ? seq : undefined,
      );
    // rolled back: each command's own work, one by one
    const first = await Promise.all([1, 2, 3].map((seq) => submit(seq)));
    expect(first.every((answer) => answer.startsWith('work '))).toBe(true);
    expect(writer.stats).toMatchObject({ batches: 1, reruns: 1, together: 0 });
    rollBack = false;
    const second = await Promise.all([4, 5].map((seq) => submit(seq)));
    expect(second.every((answer) => answer.startsWith('batch '))).toBe(true);
    expect(writer.stats).toMatchObject({ batches: 2, reruns: 1, together: 1 });
    // a command without its batched form: the batch runs each command's work
    const mixed = await Promise.all([submit(6), submit(7, false)]);
    expect(mixed.every((answer) => answer.startsWith('work '))).toBe(true);
    expect(writer.stats).toMatchObject({ batches: 3, together: 1 });
    expect((await rows()).map((r) => `${r.uuid} ${r.seq}`)).toEqual([
      'work 1',
      'work 2',
      'work 3',
      'batch 4',
      'batch 5',
      'work 6',
      'work 7',
    ]);
  });

  it('gathers the commands arriving while a batch commits into the next batch', async () => {
    await db.execute(sql`delete from writes`);
    const writer = new OrderWriter(db, { maxBatch: 4, windowMs: 0 });
    const sent = Array.from({ length: 10 }, (_, i) =>
      writer.submit(`acct-${i}`, (tx) => rawQuery(tx, INSERT, [`acct-${i}`, 1])),
    );
    await Promise.all(sent);
    expect(writer.stats).toEqual({
      batches: 3,
      commands: 10,
      largestBatch: 4,
      reruns: 0,
      together: 0,
    });
  });
});

// PostgreSQL where a server is given (npm test starts one), as for the writer above
const MARKET_DATABASES = [
  { name: 'PGlite', open: openTestDatabase },
  ...(SERVER_URL ? [{ name: 'PostgreSQL', open: openPostgresTestDatabase }] : []),
];

describe.each(MARKET_DATABASES)('market orders through the order writer on $name', ({ open }) => {
  let t: TradingTestApp;
  useTradingTestApp((app) => (t = app), { open });

  const writer = () => {
    const w = t.app.services.trading.context.writer;
    if (!w) throw new Error('the app runs without an order writer');
    return w;
  };

  /** The account's balance, its ledger's sum, its exposure and its open positions' lots. */
  const books = async (uuid: string) => {
    const [row] = await rawQuery(
      t.db,
      `select (select balance::float8 from trading_accounts where uuid = $1) as balance,
        (select sum(amount)::float8 from account_ledger where uuid = $1) as ledger,
        (select coalesce(sum(volume), 0)::float8 from account_exposure where uuid = $1) as exposed,
        (select coalesce(sum(volume - settled_vol), 0)::float8 from positions
          where uuid = $1 and status = 'open') as open`,
      [uuid],
    );
    return {
      balance: Number(row?.balance),
      ledger: Number(row?.ledger),
      exposed: Number(row?.exposed),
      open: Number(row?.open),
    };
  };

  it('fills concurrent orders of many accounts, one refused without failing the others', async () => {
    const sessions = await Promise.all(Array.from({ length: 8 }, () => traderSession(t)));
    // the seventh reuses a clientOrderId of its own for other parameters: a conflict found
    // inside the batch's transaction, after its account's lock
    const reused = sessions[6];
    if (!reused) throw new Error('no session');
    expect((await placeOrder(t, reused, { clientOrderId: 'once' })).json<Answer>().code).toBe(0);
    const { batches, together } = writer().stats;
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
    // fewer transactions than orders: they were committed together, in one statement each
    expect(writer().stats.batches - batches).toBeLessThan(8);
    expect(writer().stats.together).toBeGreaterThan(together);
    for (const [i, answer] of answers.entries()) {
      if (i === 6) continue;
      const order = answer.json<Answer<{ order: PositionView }>>().data.order;
      expect(order.price).toBe(2000.5); // the published ask
    }
    for (const s of sessions) {
      const b = await books(s.uuid);
      expect(b.ledger).toBeCloseTo(b.balance, 6);
      expect(b.exposed).toBeCloseTo(b.open, 8);
    }
  });

  it("fills one account's concurrent orders in the order they reached the writer", async () => {
    const s = await traderSession(t);
    // Concurrent requests may reach the writer in another order than they were sent (on
    // PostgreSQL their sessions are read side by side): the order kept is the writer's.
    const w = writer();
    const reached: string[] = [];
    const submit = w.submit.bind(w);
    w.submit = ((uuid, work, batched) => {
      if (batched) reached.push(batched.ticket.req.clientOrderId ?? '');
      return submit(uuid, work, batched);
    }) as typeof w.submit;
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          placeOrder(t, s, { clientOrderId: `seq-${i}`, volume: 0.01 * (i + 1) }),
        ),
      );
      const orders = answers.map((a) => a.json<Answer<{ order: PositionView }>>().data.order);
      expect(orders.map((o) => o.clientOrderId)).toEqual(
        Array.from({ length: 6 }, (_, i) => `seq-${i}`),
      );
      expect(reached).toHaveLength(6);
      const idOf = new Map(orders.map((o) => [o.clientOrderId, Number(o.orderId)]));
      const ids = reached.map((id) => idOf.get(id));
      expect(ids).toEqual([...ids].sort((a, b) => (a ?? 0) - (b ?? 0)));
    } finally {
      w.submit = submit;
    }
  });

  it("checks each order's margin against the orders of its account before it in the batch", async () => {
    const [s, neighbour] = await Promise.all([traderSession(t), traderSession(t)]);
    if (!s || !neighbour) throw new Error('no session');
    const { together, reruns } = writer().stats;
    // 4 lots cost 40030 USD (margin and commission): two fit in 100000, the third does not
    const answers = await Promise.all([
      ...[0, 1, 2].map((i) => placeOrder(t, s, { clientOrderId: `big-${i}`, volume: 4 })),
      placeOrder(t, neighbour, { clientOrderId: 'small', volume: 0.5 }),
    ]);
    const codes = answers.map((a) => a.json<Answer>().code);
    expect([...codes.slice(0, 3)].sort()).toEqual([0, 0, 42200]);
    expect(codes[3]).toBe(0);
    const refused = codes.indexOf(42200);
    expect(answers[refused]?.json<Answer>().msg).toMatch(/^Insufficient margin: /);
    expect(writer().stats.together).toBeGreaterThan(together);
    expect(writer().stats.reruns).toBe(reruns);
    // the refused one came last (its account's orders in their order of arrival); it is
    // logged and remembered: its resend answers it again without a new row
    const logs = async () =>
      (await get(t, s, '/trading/order/logs', s.creds)).json<
        Answer<{ orders: { orderStatus: number; clientOrderId: string | null }[] }>
      >().data.orders;
    expect((await logs()).map((l) => l.orderStatus)).toEqual([1, 2, 2]);
    expect((await logs())[0]?.clientOrderId).toBe(`big-${refused}`);
    const again = await placeOrder(t, s, { clientOrderId: `big-${refused}`, volume: 4 });
    expect(again.json<Answer>().msg).toBe(answers[refused]?.json<Answer>().msg);
    expect(await logs()).toHaveLength(3);
    const b = await books(s.uuid);
    expect(b.balance).toBe(100_000 - 40); // two open commissions of 20 USD
    expect(b.ledger).toBeCloseTo(b.balance, 6);
    expect(b.exposed).toBe(8);
    expect(b.open).toBe(8);
  });

  it('answers a bad TP/SL or a closed market in a batch on its own, and a resend with the first', async () => {
    const sessions = await Promise.all(Array.from({ length: 4 }, () => traderSession(t)));
    const [badTp, closed, twice, plain] = sessions;
    if (!badTp || !closed || !twice || !plain) throw new Error('no session');
    const { together, reruns } = writer().stats;
    const answers = await Promise.all([
      // a buy's TP below its price: refused by the rules before anything is written
      placeOrder(t, badTp, { clientOrderId: 'tp', tp: 1990 }),
      // US shares at 09:00 UTC: refused and logged
      placeOrder(t, closed, { clientOrderId: 'goog', symbol: 'GOOG', volume: 1 }),
      placeOrder(t, twice, { clientOrderId: 'twice' }),
      placeOrder(t, twice, { clientOrderId: 'twice' }),
      placeOrder(t, plain),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([400, 422, 200, 200, 200]);
    expect(answers[1]?.json<Answer>().msg).toBe('The market for GOOG is closed');
    expect(writer().stats.together).toBeGreaterThan(together);
    expect(writer().stats.reruns).toBe(reruns);
    // the resend answered the same order: one position
    const [first, second] = [answers[2], answers[3]].map(
      (a) => a?.json<Answer<{ order: PositionView }>>().data.order,
    );
    expect(second).toEqual(first);
    const positions = (await get(t, twice, '/trading/order/position', twice.creds)).json<
      Answer<{ orders: PositionView[] }>
    >().data.orders;
    expect(positions.map((p) => p.orderId)).toEqual([first?.orderId]);
    // nothing of the bad TP was written; the closed market's refusal was
    expect((await books(badTp.uuid)).ledger).toBe(100_000);
    const closedLogs = (await get(t, closed, '/trading/order/logs', closed.creds)).json<
      Answer<{ orders: { orderStatus: number; message: string }[] }>
    >().data.orders;
    expect(closedLogs).toMatchObject([
      { orderStatus: 1, message: 'The market for GOOG is closed' },
    ]);
  });
});
