import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  hasPostgres,
  Node,
  REPO_ROOT,
  redisServerBinary,
  request,
  startRedis,
  waitUntil,
  type Stoppable,
} from '../../test/cluster.ts';

/*
 * An API node on a PostgreSQL server of its own (not the suite's shared one: this test stops
 * it): /readyz says not ready while the database is down and ready again once it is back,
 * and the node itself keeps running through the outage.
 */

const READY = redisServerBinary() !== null && hasPostgres();

const readySchema = z.object({
  status: z.string(),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.string().optional() })),
});

function postgres(action: 'start' | 'stop' | 'pause' | 'resume', dir: string): string {
  const run = spawnSync('bash', ['scripts/test-postgres.sh', action, dir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`test-postgres.sh ${action}: ${run.stderr}`);
  return run.stdout.trim();
}

describe.skipIf(!READY)('/readyz through a PostgreSQL outage', () => {
  const stoppables: Stoppable[] = [];
  let dir = '';
  let node: Node | undefined;

  const readyz = async () => {
    const reply = await request(node?.port ?? 0, 'GET', '/readyz');
    return { http: reply.status, ...readySchema.parse(JSON.parse(reply.body)) };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-readyz-pg-'));
    fs.chmodSync(dir, 0o755);
    const url = postgres('start', dir);
    const redis = await startRedis();
    stoppables.push(redis);
    node = await Node.start('api', 'api', { DATABASE_URL: url, REDIS_URL: redis.url }, 150_000);
  }, 180_000);

  afterAll(async () => {
    await node?.kill('SIGKILL');
    for (const s of stoppables) await s.stop().catch(() => undefined);
    if (dir) postgres('stop', dir);
  }, 60_000);

  it('goes not ready when PostgreSQL stops and ready again when it is back', async () => {
    await waitUntil('the database check to pass', async () => (await readyz()).checks.database?.ok);

    postgres('pause', dir);
    const down = await waitUntil('/readyz to see the outage', async () => {
      const answer = await readyz();
      return answer.checks.database?.ok === false ? answer : undefined;
    });
    expect(down.http).toBe(503);
    expect(down.status).toBe('not ready');
    expect(down.checks.database?.detail).toBeTruthy();
    // the process did not die with its database: it answers and comes back with it
    expect((await request(node?.port ?? 0, 'GET', '/healthz')).status).toBe(200);

    postgres('resume', dir);
    await waitUntil(
      'the database check to pass again',
      async () => (await readyz()).checks.database?.ok,
      30_000,
    );
    expect(node?.alive).toBe(true);
  }, 120_000);
});
