import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/connect.ts';
import { migrateDatabase } from '../../db/migrate.ts';
import { aiTasks } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { buildUser } from '../../test/factories.ts';
import { openTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import {
  appendMessage,
  claimTask,
  releaseTask,
  renewLease,
  taskWithLease,
  updateHeldTask,
} from './tasks-store.ts';
import { queueTaskJobs } from '../../test/ai.ts';

/*
 * Claiming AI tasks in the database, on PGlite and on a real PostgreSQL server (when
 * TEST_DATABASE_URL is set, as `npm test` does): concurrent workers never claim one task
 * twice; a lease that ran out is claimed again, a live one never; writes need the lease.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL || undefined;
if (!SERVER_URL) {
  console.warn('tasks-claim.test.ts: the PostgreSQL half is skipped: TEST_DATABASE_URL is not set');
}

const NOW = Date.UTC(2026, 0, 5, 9);
const LEASE_MS = 60_000;

/** The same server's `database`; accepts the `postgresql://user@/db?host=/socket` form. */
function databaseUrl(serverUrl: string, database: string): string {
  const placeholder = 'no-host.invalid';
  const emptyHost = /^[a-z]+:\/\/[^/?#]*@\//i.test(serverUrl);
  const url = new URL(emptyHost ? serverUrl.replace('@/', `@${placeholder}/`) : serverUrl);
  url.pathname = `/${database}`;
  return emptyHost ? url.href.replace(`@${placeholder}/`, '@/') : url.href;
}

async function pendingTasks(db: Db, count: number): Promise<number[]> {
  const { user } = await buildUser(db);
  const rows = await db
    .insert(aiTasks)
    .values(
      Array.from({ length: count }, (_, i) => ({
        userId: user.id,
        status: 'PENDING',
        taskType: 'strategy',
        prompt: `task ${i}`,
        provider: 'lab',
        model: 'm',
        baseUrl: 'http://127.0.0.1:1/v1',
        symbolId: 'BTCUSDT',
        period: 'day',
        maxRetries: 3,
        createdAt: NOW / 1000,
        updatedAt: NOW / 1000,
      })),
    )
    .returning({ id: aiTasks.id, userId: aiTasks.userId });
  await queueTaskJobs(db, rows, NOW);
  return rows.map((r) => r.id);
}

function claimSuite(name: string, open: () => Promise<{ db: Db; close: () => Promise<void> }>) {
  describe(name, () => {
    let db: Db;
    let close: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      ({ db, close } = await open());
    }, 60_000);
    afterAll(() => close());

    it('hands each task to exactly one of many concurrent workers', async () => {
      const ids = await pendingTasks(db, 24);
      const claimed = new Map<number, string[]>();
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          const owner = `worker-${w}`;
          for (;;) {
            const task = await claimTask(db, owner, NOW, LEASE_MS);
            if (!task) return;
            claimed.set(task.id, [...(claimed.get(task.id) ?? []), owner]);
            expect(task).toMatchObject({ status: 'PROCESSING', leaseOwner: owner, claims: 1 });
          }
        }),
      );
      expect([...claimed.keys()].sort((a, b) => a - b)).toEqual(ids);
      expect([...claimed.values()].every((owners) => owners.length === 1)).toBe(true);
      // everything is held: nothing more to claim while the leases live
      expect(await claimTask(db, 'late', NOW + LEASE_MS - 1, LEASE_MS)).toBeNull();
      for (const [id, [owner]] of claimed) {
        expect(
          await updateHeldTask(db, id, owner ?? '', { status: 'COMPLETED', updatedAt: 0 }),
        ).toBe(true);
      }
      expect(await claimTask(db, 'late', NOW + 10 * LEASE_MS, LEASE_MS)).toBeNull();
    });

    it('claims a task again once its lease ran out; writes need the lease', async () => {
      const [id] = await pendingTasks(db, 1);
      if (id === undefined) throw new Error('no task');
      const later = NOW + 2 * LEASE_MS;
      const first = await claimTask(db, 'dead', later, LEASE_MS);
      expect(first?.id).toBe(id);
      // a live lease is left alone
      expect(await claimTask(db, 'other', later + LEASE_MS - 1, LEASE_MS)).toBeNull();
      // the dead worker stopped renewing: the task is taken over
      const again = await claimTask(db, 'other', later + LEASE_MS + 1, LEASE_MS);
      expect(again).toMatchObject({ id, leaseOwner: 'other', claims: 2, status: 'PROCESSING' });
      // the old owner can no longer write or renew
      expect(await renewLease(db, id, 'dead', later + 10 * LEASE_MS)).toBe(false);
      expect(
        await appendMessage(db, 'dead', {
          taskId: id,
          role: 'ai',
          content: 'late',
          stepType: 'error',
          retryNumber: 0,
          createdAt: 0,
        }),
      ).toBeNull();
      expect(await updateHeldTask(db, id, 'dead', { retryCount: 3, updatedAt: 0 })).toBe(false);
      expect(await renewLease(db, id, 'other', later + 10 * LEASE_MS)).toBe(true);
      // an orderly stop gives it back at once, not counted as a crash
      await releaseTask(db, id, 'other', 0);
      const row = await taskWithLease(db, id);
      expect(row).toMatchObject({ status: 'PENDING', leaseOwner: null, claims: 1, retryCount: 0 });
    });

    it('takes tasks round robin over users: a later user does not wait for an earlier queue', async () => {
      const at = NOW + 100 * LEASE_MS;
      // whatever earlier tests left claimable is finished first
      for (;;) {
        const left = await claimTask(db, 'drain', at, LEASE_MS);
        if (!left) break;
        await updateHeldTask(db, left.id, 'drain', { status: 'COMPLETED', updatedAt: 0 });
      }
      const heavy = await pendingTasks(db, 5);
      const neighbour = await pendingTasks(db, 2);
      const taken: number[] = [];
      for (;;) {
        const task = await claimTask(db, 'worker', at, LEASE_MS);
        if (!task) break;
        taken.push(task.id);
      }
      const [h0, h1, h2, h3, h4] = heavy;
      const [n0, n1] = neighbour;
      // each next claim: the oldest task of the user with the fewest running ones (ties: whose
      // oldest waiting task is older), so the neighbour's first task is the second one taken
      expect(taken).toEqual([h0, n0, h1, n1, h2, h3, h4]);

      for (const id of taken) {
        await updateHeldTask(db, id, 'worker', { status: 'COMPLETED', updatedAt: 0 });
      }

      // the report's case: one user's queue is running and waiting when another user's task
      // arrives; it is the next one taken, before the rest of the earlier queue
      const queue = await pendingTasks(db, 6);
      const first = await claimTask(db, 'w1', at, LEASE_MS);
      const second = await claimTask(db, 'w2', at, LEASE_MS);
      expect([first?.id, second?.id]).toEqual(queue.slice(0, 2));
      const [late] = await pendingTasks(db, 1);
      expect((await claimTask(db, 'w3', at, LEASE_MS))?.id).toBe(late);
      expect((await claimTask(db, 'w4', at, LEASE_MS))?.id).toBe(queue[2]);
      for (const [id, owner] of [
        [first?.id, 'w1'],
        [second?.id, 'w2'],
        [late, 'w3'],
        [queue[2], 'w4'],
      ] as const) {
        await updateHeldTask(db, id ?? 0, owner, { status: 'COMPLETED', updatedAt: 0 });
      }
      for (;;) {
        const left = await claimTask(db, 'drain', at, LEASE_MS);
        if (!left) break;
        await updateHeldTask(db, left.id, 'drain', { status: 'COMPLETED', updatedAt: 0 });
      }

      // one task at a time: when the heavy user's running task ends, both users run none;
      // the one served least recently (the neighbour, never) goes next, not the older queue
      const alone = await pendingTasks(db, 3);
      const running = await claimTask(db, 'solo', at, LEASE_MS);
      expect(running?.id).toBe(alone[0]);
      const [newcomer] = await pendingTasks(db, 1);
      await updateHeldTask(db, running?.id ?? 0, 'solo', { status: 'COMPLETED', updatedAt: 0 });
      const order: number[] = [];
      for (;;) {
        const next = await claimTask(db, 'solo', at, LEASE_MS);
        if (!next) break;
        order.push(next.id);
        await updateHeldTask(db, next.id, 'solo', { status: 'COMPLETED', updatedAt: 0 });
      }
      expect(order).toEqual([newcomer, alone[1], alone[2]]);
    });
  });
}

claimSuite('claiming on PGlite', async () => {
  const testDb: TestDatabase = await openTestDatabase();
  return { db: testDb.db, close: testDb.close };
});

describe.skipIf(!SERVER_URL)('on PostgreSQL', () => {
  const name = `ct_ai_tasks_${process.pid}_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client | undefined;
  beforeAll(async () => {
    if (!SERVER_URL) return;
    admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
  });
  afterAll(async () => {
    await admin?.query(`drop database if exists "${name}"`);
    await admin?.end();
  });

  claimSuite('claiming on PostgreSQL (a pool: truly concurrent)', async () => {
    const database: Database = await openDatabase({
      dataDir: '/nonexistent',
      databaseUrl: databaseUrl(SERVER_URL ?? '', name),
    });
    await migrateDatabase(database);
    return { db: database.db, close: () => database.close() };
  });
});
