// One user's strategies are bounded in count, in versions per strategy and in bytes of code
// and versions together (STRATEGY_MAX_PER_USER, STRATEGY_VERSIONS_KEPT, STRATEGY_STORAGE_MB):
// clear refusals, versions give way to code, deleting frees what a strategy held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { MIB } from '../backtest/sandbox/settings.ts';
import { caller, login } from '../../test/backtest.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    config: { strategyLimits: { maxStrategies: 6, versionsPerStrategy: 2, quotaBytes: MIB } },
  });
});
afterAll(() => t.close());

async function newUser() {
  return caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
}

/** 250,000 bytes of code: four fit in 1 MiB (1,048,576 bytes), five do not. */
const big = (letter: string) => `# ${letter.repeat(250_000 - 2)}`;

type Listed = { name: string; code: string; created_at: number; updated_at: number };

async function listed(as: Awaited<ReturnType<typeof newUser>>): Promise<Listed[]> {
  const res = await as('GET', '/api/strategies/');
  expect(res.statusCode).toBe(200);
  return res.json<{ strategies: Listed[] }>().strategies;
}

async function versionCount(as: Awaited<ReturnType<typeof newUser>>, name: string) {
  const res = await as('GET', `/api/strategies/${name}/versions`);
  return res.json<{ versions: unknown[] }>().versions.length;
}

describe('strategy bounds per user', () => {
  it('refuses a strategy past the count, replacing one still works, deleting one makes room', async () => {
    const as = await newUser();
    for (let i = 1; i <= 6; i++) {
      const res = await as('POST', '/api/strategies/', {
        name: `S${i}`,
        code: 'pass',
        create: true,
      });
      expect(res.statusCode).toBe(200);
    }
    const refused = await as('POST', '/api/strategies/', { name: 'S7', code: 'pass' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 40000,
      detail: 'Too many strategies (at most 6); delete one first',
    });
    expect((await as('POST', '/api/strategies/', { name: 'S1', code: 'x = 1' })).statusCode).toBe(
      200,
    );
    expect((await as('DELETE', '/api/strategies/S2')).statusCode).toBe(200);
    expect((await as('POST', '/api/strategies/', { name: 'S7', code: 'pass' })).statusCode).toBe(
      200,
    );
    // the list keeps its shape: name, code and times of each
    expect((await listed(as)).map((s) => Object.keys(s).sort())).toContainEqual([
      'code',
      'created_at',
      'name',
      'updated_at',
    ]);
  });

  it('keeps the newest versions per strategy by the setting', async () => {
    const as = await newUser();
    await as('POST', '/api/strategies/', { name: 'V', code: 'x = 0', create: true });
    for (let n = 1; n <= 4; n++) {
      await as('POST', '/api/strategies/', { name: 'V', code: `x = ${n}`, keep_version: true });
    }
    expect(await versionCount(as, 'V')).toBe(2);
  });

  it('refuses code past the storage quota with a clear message, storing nothing; deleting frees it', async () => {
    const as = await newUser();
    for (const name of ['A', 'B', 'C', 'D']) {
      const res = await as('POST', '/api/strategies/', { name, code: big(name), create: true });
      expect(res.statusCode).toBe(200);
    }
    const refused = await as('POST', '/api/strategies/', { name: 'E', code: big('e') });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 42200,
      detail:
        'Strategies would take 1.19 MiB of your 1 MiB; delete strategies you no longer need first',
    });
    // growing a strategy past it is refused too: bytes count (300,000 for 150,000 'é')
    const grown = await as('POST', '/api/strategies/', { name: 'A', code: 'é'.repeat(150_000) });
    expect(grown.statusCode).toBe(422);
    expect((await listed(as)).map((s) => s.name)).toEqual(['A', 'B', 'C', 'D']);
    expect((await listed(as)).find((s) => s.name === 'A')?.code).toBe(big('A'));
    expect((await as('DELETE', '/api/strategies/B')).statusCode).toBe(200);
    const after = await as('POST', '/api/strategies/', { name: 'E', code: big('e') });
    expect(after.statusCode).toBe(200);
  });

  it('lets versions give way to code, oldest first, of any strategy', async () => {
    const as = await newUser();
    await as('POST', '/api/strategies/', { name: 'S1', code: big('a'), create: true });
    await as('POST', '/api/strategies/', { name: 'S1', code: big('b'), keep_version: true });
    await as('POST', '/api/strategies/', { name: 'S2', code: big('p'), create: true });
    await as('POST', '/api/strategies/', { name: 'S3', code: big('x'), create: true });
    expect(await versionCount(as, 'S1')).toBe(1);
    // code 750,000 and versions 500,000 bytes would pass 1 MiB: S1's older version goes
    await as('POST', '/api/strategies/', { name: 'S3', code: big('y'), keep_version: true });
    expect(await versionCount(as, 'S1')).toBe(0);
    expect(await versionCount(as, 'S3')).toBe(1);
    // a new strategy whose code fits pushes the last version out
    const res = await as('POST', '/api/strategies/', { name: 'S4', code: big('z'), create: true });
    expect(res.statusCode).toBe(200);
    expect(await versionCount(as, 'S3')).toBe(0);
    // and code that does not fit even without versions is refused
    const refused = await as('POST', '/api/strategies/', { name: 'S5', code: big('w') });
    expect(refused.statusCode).toBe(422);
  });
});
