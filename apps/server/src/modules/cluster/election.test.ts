import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvisoryLockElection, LocalElection, feedLeaderExists } from './election.ts';
import { hasPostgres, startPostgres, waitUntil } from '../../test/cluster.ts';

const silent = { info: () => {}, warn: () => {} };

describe('the feed election on PGlite', () => {
  it('makes the one process the leader at once', async () => {
    const election = new LocalElection(() => 42);
    const elected: string[] = [];
    election.run({ elected: () => void elected.push('yes'), lost: () => {} });
    await waitUntil('the election', () => elected.length > 0);
    expect(elected).toEqual(['yes']);
    expect(election.status()).toEqual({ state: 'leader', since: 42 });
    await election.stop();
    expect(election.status()).toEqual({ state: 'off', since: null });
  });
});

// PostgreSQL: TEST_DATABASE_URL's server (npm test) or a throwaway one of its own.
describe.skipIf(!hasPostgres() && !process.env.TEST_DATABASE_URL)(
  'the feed election on PostgreSQL',
  () => {
    let postgres: Awaited<ReturnType<typeof startPostgres>>;
    let pool: pg.Pool;
    const elections: AdvisoryLockElection[] = [];
    const campaign = () => {
      const election = new AdvisoryLockElection({
        connectionString: postgres.url,
        pollMs: 100,
        checkMs: 200,
        log: silent,
      });
      elections.push(election);
      const events: string[] = [];
      election.run({
        elected: () => void events.push('elected'),
        lost: (reason) => void events.push(`lost: ${reason}`),
      });
      return { election, events };
    };
    const leaderKnown = () => feedLeaderExists((text, params) => pool.query(text, params));

    beforeAll(async () => {
      postgres = await startPostgres();
      pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
    }, 60_000);
    afterAll(async () => {
      await Promise.all(elections.map((e) => e.stop()));
      await pool?.end();
      await postgres?.stop();
    }, 30_000);

    it('elects one feed; the standby takes over the moment the leader is gone', async () => {
      expect(await leaderKnown()).toBe(false);
      const first = campaign();
      await waitUntil('the first leader', () => first.election.status().state === 'leader');
      const second = campaign();
      await waitUntil('the standby to wait', async () => {
        const { rows } = await pool.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where application_name = 'ct-feed-election'",
        );
        return rows[0]?.n === 2;
      });
      expect(second.election.status().state).toBe('standby');
      expect(await leaderKnown()).toBe(true);
      const stoppedAt = Date.now();
      await first.election.stop();
      await waitUntil('the takeover', () => second.events.includes('elected'), 5000, 5);
      expect(Date.now() - stoppedAt).toBeLessThan(2000);
      expect(first.events).toEqual(['elected']);
      expect(await leaderKnown()).toBe(true);
    });

    it('steps down when its connection is cut, so that another may lead', async () => {
      const leader = elections.find((e) => e.status().state === 'leader');
      const { rows } = await pool.query<{ pid: number }>(
        `select pid from pg_stat_activity where application_name = 'ct-feed-election'`,
      );
      expect(leader).toBeDefined();
      for (const { pid } of rows) await pool.query('select pg_terminate_backend($1)', [pid]);
      await waitUntil('the leader to notice', () => leader?.status().state !== 'leader', 5000);
    });
  },
);
