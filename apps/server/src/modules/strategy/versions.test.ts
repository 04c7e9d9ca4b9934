import { MAX_STRATEGY_VERSIONS, VERSION_SETTLE_SECONDS } from '@ct/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategies, strategyVersions } from '../../db/schema.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { caller, login } from '../../test/backtest.ts';
import { msgBlankRefused } from './service.ts';

let t: TestApp;
let asAlice: ReturnType<typeof caller>;
let asBob: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  asAlice = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  asBob = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
});
afterAll(() => t.close());

type Summary = { id: number; created_at: number; length: number; lines: number; preview: string };

/** Code number `n` of a strategy: a few lines that differ by their comment. */
function codeV(n: number): string {
  return `\n# version ${n}\ndef main(data_array):\n    return []\n`;
}

async function versions(
  as: ReturnType<typeof caller>,
  name: string,
): Promise<{ status: number; list: Summary[] }> {
  const res = await as('GET', `/api/strategies/${encodeURIComponent(name)}/versions`);
  const body = res.json<{ versions?: Summary[] }>();
  return { status: res.statusCode, list: body.versions ?? [] };
}

async function savedCode(as: ReturnType<typeof caller>, name: string): Promise<string | null> {
  const res = await as('GET', '/api/strategies/');
  const list = res.json<{ strategies: { name: string; code: string }[] }>().strategies;
  return list.find((s) => s.name === name)?.code ?? null;
}

async function versionRows(name: string) {
  const [strategy] = await t.db.select().from(strategies).where(eq(strategies.name, name));
  if (!strategy) return [];
  return t.db.select().from(strategyVersions).where(eq(strategyVersions.strategyId, strategy.id));
}

describe('strategy versions', () => {
  it('each save that changes the code keeps the replaced code, newest first, the last 20 only', async () => {
    const startS = Math.floor(t.clock.now() / 1000);
    await asAlice('POST', '/api/strategies/', { name: 'Versioned', code: codeV(0), create: true });
    expect((await versions(asAlice, 'Versioned')).list).toEqual([]);
    for (let n = 1; n <= 24; n += 1) {
      t.clock.advance(VERSION_SETTLE_SECONDS * 1000);
      const res = await asAlice('POST', '/api/strategies/', { name: 'Versioned', code: codeV(n) });
      expect(res.statusCode).toBe(200);
    }
    // saving the same code again keeps no version
    await asAlice('POST', '/api/strategies/', { name: 'Versioned', code: codeV(24) });

    const { status, list } = await versions(asAlice, 'Versioned');
    expect(status).toBe(200);
    expect(list).toHaveLength(MAX_STRATEGY_VERSIONS);
    // newest first: code 23 (replaced by 24) down to code 4; codes 0–3 were pruned
    expect(list.map((v) => v.preview)).toEqual(
      Array.from({ length: 20 }, (_, i) => `# version ${23 - i}`),
    );
    const ids = list.map((v) => v.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    // each version carries the time its code was saved, its size and line count
    expect(list[0]).toEqual({
      id: ids[0],
      created_at: startS + 23 * VERSION_SETTLE_SECONDS,
      length: codeV(23).length,
      lines: 5,
      preview: '# version 23',
    });
    expect(list[19]?.created_at).toBe(startS + 4 * VERSION_SETTLE_SECONDS);
    expect(await versionRows('Versioned')).toHaveLength(MAX_STRATEGY_VERSIONS);

    // one version with its code
    const one = await asAlice('GET', `/api/strategies/Versioned/versions/${ids[3]}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      id: ids[3],
      strategy_name: 'Versioned',
      created_at: startS + 20 * VERSION_SETTLE_SECONDS,
      length: codeV(20).length,
      lines: 5,
      code: codeV(20),
    });
  });

  it('auto-saves while typing keep the code from before the edits and each settled state, not every keystroke', async () => {
    await asAlice('POST', '/api/strategies/', { name: 'Typed', code: codeV(0), create: true });
    t.clock.advance(3_600_000); // opened an hour later
    // typing: an auto-save every 2 s for a while
    for (let n = 1; n <= 30; n += 1) {
      t.clock.advance(2_000);
      await asAlice('POST', '/api/strategies/', { name: 'Typed', code: codeV(n) });
    }
    // a pause of a minute, then more typing
    t.clock.advance(VERSION_SETTLE_SECONDS * 1000);
    for (let n = 31; n <= 40; n += 1) {
      t.clock.advance(2_000);
      await asAlice('POST', '/api/strategies/', { name: 'Typed', code: codeV(n) });
    }
    const { list } = await versions(asAlice, 'Typed');
    // the code as opened, and the code the user paused on; the passing states are not kept
    expect(list.map((v) => v.preview)).toEqual(['# version 30', '# version 0']);
    // an explicit save keeps the code it replaces even seconds after it was saved
    t.clock.advance(2_000);
    await asAlice('POST', '/api/strategies/', {
      name: 'Typed',
      code: codeV(41),
      keep_version: true,
    });
    expect((await versions(asAlice, 'Typed')).list[0]?.preview).toBe('# version 40');
  });

  it('restoring a version is a save: the code it replaces becomes a version in turn', async () => {
    const { list } = await versions(asAlice, 'Versioned');
    const older = await asAlice('GET', `/api/strategies/Versioned/versions/${list[5]?.id}`);
    const restored = older.json<{ code: string }>().code;
    // the editor restores with keep_version: the code it replaces was saved moments ago
    await asAlice('POST', '/api/strategies/', {
      name: 'Versioned',
      code: restored,
      keep_version: true,
    });
    expect(await savedCode(asAlice, 'Versioned')).toBe(restored);
    const after = (await versions(asAlice, 'Versioned')).list;
    expect(after[0]?.preview).toBe('# version 24');
    expect(after).toHaveLength(MAX_STRATEGY_VERSIONS);
  });

  it('another user never sees them', async () => {
    const { list } = await versions(asAlice, 'Versioned');
    const id = list[0]?.id;
    for (const url of [
      '/api/strategies/Versioned/versions',
      `/api/strategies/Versioned/versions/${id}`,
    ]) {
      const res = await asBob('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 40400, detail: 'Strategy not found: Versioned' });
    }
    // bob's own strategy of the same name has its own (no) versions, and not alice's ids
    await asBob('POST', '/api/strategies/', { name: 'Versioned', code: 'bob', create: true });
    expect(await versions(asBob, 'Versioned')).toEqual({ status: 200, list: [] });
    const foreign = await asBob('GET', `/api/strategies/Versioned/versions/${id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ detail: `Version not found: ${id}` });
    // without a session
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/strategies/x/versions' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 50002 });
  });

  it('refuses to replace saved code with empty code unless allow_empty is true', async () => {
    const code = codeV(100);
    await asAlice('POST', '/api/strategies/', { name: 'Guarded', code, create: true });
    for (const blank of ['', '   \n\t\n']) {
      const res = await asAlice('POST', '/api/strategies/', { name: 'Guarded', code: blank });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 40000,
        msg: msgBlankRefused('Guarded'),
        detail: msgBlankRefused('Guarded'),
      });
      const explicitNo = await asAlice('POST', '/api/strategies/', {
        name: 'Guarded',
        code: blank,
        allow_empty: false,
      });
      expect(explicitNo.statusCode).toBe(400);
    }
    expect(await savedCode(asAlice, 'Guarded')).toBe(code);
    expect((await versions(asAlice, 'Guarded')).list).toEqual([]);

    const allowed = await asAlice('POST', '/api/strategies/', {
      name: 'Guarded',
      code: '',
      allow_empty: true,
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ name: 'Guarded', code: '', created: false });
    expect(await savedCode(asAlice, 'Guarded')).toBe('');
    // the code it replaced is kept, so it can be restored
    const { list } = await versions(asAlice, 'Guarded');
    expect(list.map((v) => [v.preview, v.length])).toEqual([['# version 100', code.length]]);

    // empty over empty, and a new empty strategy, lose nothing: no flag needed
    expect(
      (await asAlice('POST', '/api/strategies/', { name: 'Guarded', code: ' ' })).statusCode,
    ).toBe(200);
    expect(
      (await asAlice('POST', '/api/strategies/', { name: 'Blank', code: '', create: true }))
        .statusCode,
    ).toBe(200);
  });

  it('deleting a strategy deletes its versions', async () => {
    await asAlice('POST', '/api/strategies/', { name: 'Gone', code: codeV(1), create: true });
    await asAlice('POST', '/api/strategies/', { name: 'Gone', code: codeV(2), keep_version: true });
    await asAlice('POST', '/api/strategies/', { name: 'Gone', code: codeV(3), keep_version: true });
    expect((await versions(asAlice, 'Gone')).list).toHaveLength(2);
    const [strategy] = await t.db.select().from(strategies).where(eq(strategies.name, 'Gone'));
    expect((await asAlice('DELETE', '/api/strategies/Gone')).statusCode).toBe(200);
    const left = await t.db
      .select()
      .from(strategyVersions)
      .where(eq(strategyVersions.strategyId, strategy?.id ?? -1));
    expect(left).toEqual([]);
    // a new strategy of the same name starts without versions
    await asAlice('POST', '/api/strategies/', { name: 'Gone', code: codeV(9), create: true });
    expect(await versions(asAlice, 'Gone')).toEqual({ status: 200, list: [] });
  });

  it('Default has no versions; unknown strategies and versions answer 404', async () => {
    expect(await versions(asAlice, 'Default Strategy')).toEqual({ status: 200, list: [] });
    const unknown = await asAlice('GET', '/api/strategies/Nope/versions');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 40400, detail: 'Strategy not found: Nope' });
    const missing = await asAlice('GET', '/api/strategies/Versioned/versions/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 40400, detail: 'Version not found: 999999' });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])(
    'a malformed version id %s answers the module’s 400',
    async (id) => {
      const res = await asAlice('GET', `/api/strategies/Versioned/versions/${id}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 40000 });
      expect(res.json<{ detail: string }>().detail).toMatch(/^id: version id /);
    },
  );

  it.each([
    [
      { name: 'Versioned', code: '', allow_empty: 'yes' },
      'allow_empty: Invalid input: expected boolean, received string',
    ],
    [
      { name: 'Versioned', code: '', allow_empty: 1 },
      'allow_empty: Invalid input: expected boolean, received number',
    ],
    [{ name: 'Versioned', code: 7 }, 'code: Invalid input: expected string, received number'],
  ])('bad input %# answers 400 and changes nothing', async (payload, detail) => {
    const before = await savedCode(asAlice, 'Versioned');
    const beforeVersions = (await versions(asAlice, 'Versioned')).list;
    const res = await asAlice('POST', '/api/strategies/', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 40000, msg: detail, detail });
    expect(await savedCode(asAlice, 'Versioned')).toBe(before);
    expect((await versions(asAlice, 'Versioned')).list).toEqual(beforeVersions);
  });
});
