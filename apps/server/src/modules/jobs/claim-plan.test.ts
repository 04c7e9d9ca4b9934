import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { planKeptAfterGrowth } from '../../test/plans.ts';
import { CLAIM } from './store.ts';

/*
 * A claim reads the jobs waiting and running, and one newest start per group, however many
 * jobs have ended: every optimisation trial is a job, so a user's history grows by thousands.
 * (On PGlite, which runs no ANALYZE, a claim planned while few jobs had ended read every job
 * of the queue once per waiting job: 960 ms a claim with 50,000 ended jobs and 50 waiting.)
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const ENDED = 20_000;

const ended = (from: number, to: number) =>
  t.db.execute(
    sql.raw(`insert into jobs (queue, group_key, batch_key, payload, state, max_attempts,
        created_ms, started_ms, finished_ms)
      select 'probe', 'user-' || (i % 3), 'run-' || (i / 100), '{}'::jsonb, 'done', 3, 0, i, i
      from generate_series(${from}, ${to}) i`),
  );

describe("a claim's plan", () => {
  it('reads only live jobs and one start per group, also as planned while few jobs had ended', async () => {
    await ended(1, 500);
    await t.db.execute(
      sql.raw(`insert into jobs (queue, group_key, batch_key, payload, state, max_attempts, created_ms)
        select 'probe', 'user-1', 'run-new', '{}'::jsonb, 'queued', 3, 0 from generate_series(1, 50)`),
    );
    const lines = await planKeptAfterGrowth(t.db, {
      types: ['text', 'text', 'bigint', 'bigint', 'int', 'int'],
      statement: CLAIM,
      before: (run) => `'probe', 'w1', ${1e12 + run}, 30000, 100, 100`,
      after: `'probe', 'w1', ${2e12}, 30000, 100, 100`,
      grow: () => ended(501, ENDED),
    });
    const text = lines.join('\n');
    expect(text).not.toContain('Seq Scan on jobs');
    // every scan of the jobs table for waiting or running jobs goes through the live jobs' index
    const scans = lines.filter((line) => /Scan.* on jobs /.test(line));
    for (const scan of scans) {
      expect(scan).toMatch(/jobs_live_idx|jobs_pkey|Backward using jobs_group_started_idx/);
    }
    // the newest start of each group: one step back from the end of its index entries
    const newest = lines.findIndex((line) =>
      line.includes('Index Only Scan Backward using jobs_group_started_idx'),
    );
    const parent = lines.slice(0, newest).findLast((line) => line.includes('->'));
    expect(parent).toContain('Limit');
  });
});
