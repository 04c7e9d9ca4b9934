import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimTask } from '../modules/ai/tasks-store.ts';
import { claimJob } from '../modules/jobs/store.ts';
import { LIVE_RUN_QUEUE } from '../modules/live-runs/store.ts';
import { openPglite, type Database } from './connect.ts';
import { migrateDatabase } from './migrate.ts';
import { buildTrader, buildUser } from '../test/factories.ts';
import { migrationsUpTo } from '../test/migrations.ts';
import { rawQuery } from './raw.ts';

/*
 * The upgrade that moved AI tasks and live runs onto the job queue: an install with a task
 * waiting, a task its dead worker left running and a running live run keeps all three; the
 * first worker after the upgrade takes them up.
 */

const BEFORE = '0015_jobs_and_optimizations';
const NOW = Date.UTC(2026, 0, 5, 9);

let dir: string;
let database: Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-migrate-jobs-'));
  database = await openPglite(path.join(dir, 'pglite'));
}, 60_000);
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('keeps waiting and running AI tasks and running live runs across the upgrade', async () => {
  if (database.kind !== 'pglite') throw new Error('tests run on PGlite');
  await migrate(database.db, { migrationsFolder: migrationsUpTo(dir, BEFORE) });
  const db = database.db;
  const { user } = await buildUser(db, { accounts: 1 });
  const userId = user.id;
  const trader = await buildTrader(db, userId);
  const task = (status: string, extra: string) =>
    rawQuery(
      db,
      `insert into ai_tasks (user_id, status, task_type, prompt, provider, model, base_url, symbol_id,
         period, max_retries, created_at, updated_at ${extra === '' ? '' : ', claims, lease_owner, lease_until_ms, started_at'})
       values ($1, $2, 'strategy', 'p', 'lab', 'm', 'http://127.0.0.1:1/v1', 'BTCUSDT', 'day', 3, 1, 1
         ${extra}) returning id`,
      [userId, status],
    );
  const [waiting] = await task('PENDING', '');
  const [left] = await task('PROCESSING', `, 1, 'dead-worker', ${NOW - 1}, 2`);
  await task('COMPLETED', '');
  const run = (id: string, status: string, lease: string) =>
    rawQuery(
      db,
      `insert into live_runs (id, user_id, trader_uuid, strategy_name, code, symbol, period, lots,
         max_positions, status, start_bar_time, started_at, max_failures, lease_owner, lease_until_ms)
       values ($1, $2, $3, 'S', 'def main(d): return []', 'XAUUSD', '1m', 1, 1, $4, 0, 0, 3, ${lease})`,
      [id, userId, trader.uuid, status],
    );
  await run('run-held', 'running', `'dead-runner', ${NOW - 1}`);
  await run('run-stopped', 'stopped', 'null, null');

  await migrateDatabase(database);

  const first = await claimTask(db, 'new-worker', NOW, 60_000);
  const second = await claimTask(db, 'new-worker', NOW, 60_000);
  expect([first?.id, second?.id].sort()).toEqual([Number(waiting?.id), Number(left?.id)].sort());
  expect(first).toMatchObject({ status: 'PROCESSING', leaseOwner: 'new-worker' });
  // the task its dead worker held counts that claim
  const resumed = [first, second].find((t) => t?.id === Number(left?.id));
  expect(resumed?.claims).toBe(2);
  expect(await claimTask(db, 'new-worker', NOW, 60_000)).toBeNull();
  const bounds = { maxPerGroup: 10, maxPerBatch: 1 };
  const liveJob = await claimJob(db, LIVE_RUN_QUEUE, 'runner', NOW, 60_000, bounds);
  expect(liveJob?.payload).toEqual({ runId: 'run-held' });
  expect(await claimJob(db, LIVE_RUN_QUEUE, 'runner', NOW, 60_000, bounds)).toBeNull();
});
