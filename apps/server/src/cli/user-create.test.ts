import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/connect.ts';
import { acquireLock } from '../db/lock.ts';
import { traders, users } from '../db/schema.ts';
import { verifyPassword } from '../modules/users/password.ts';
import { openTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { runUserCreate, type CliIo } from './user-create.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

function io(open: () => Promise<Database>) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    openDatabase: open,
    nowMs: () => Date.UTC(2026, 3, 1),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  };
  return { value, out, err };
}

// The command closes what it opens; the shared test database must stay open.
const shared = () => Promise.resolve({ ...t.database, close: async () => {} } as Database);

describe('user:create', () => {
  it('creates a user with 3 accounts of different levels and types by default', async () => {
    const run = io(shared);
    const code = await runUserCreate(
      ['--email', 'Carol@Example.com', '--password', 'secret', '--nick', 'Carol'],
      run.value,
    );
    expect(run.err).toEqual([]);
    expect(code).toBe(0);

    const [user] = await t.db.select().from(users).where(eq(users.email, 'carol@example.com'));
    expect(user?.nickName).toBe('Carol');
    expect(await verifyPassword('secret', user?.passwordHash ?? '')).toBe(true);
    const accounts = await t.db
      .select()
      .from(traders)
      .where(eq(traders.userId, user?.id ?? -1));
    expect(new Set(accounts.map((a) => a.level)).size).toBe(3);
    expect(new Set(accounts.map((a) => a.type)).size).toBe(3);

    expect(run.out[0]).toBe(`Created user ${user?.id}: carol@example.com (Carol)`);
    expect(run.out[1]).toBe('Trading accounts:');
    for (const a of accounts) expect(run.out.join('\n')).toContain(a.uuid);
  });

  it('takes --accounts, --phone and --country', async () => {
    const run = io(shared);
    const code = await runUserCreate(
      [
        '--email',
        'dan@example.com',
        '--password',
        'secret',
        '--nick',
        'Dan',
        '--accounts',
        '5',
        '--country',
        'France',
        '--phone',
        '+33 1',
      ],
      run.value,
    );
    expect(code).toBe(0);
    const [user] = await t.db.select().from(users).where(eq(users.email, 'dan@example.com'));
    expect(user).toMatchObject({ country: 'France', phone: '+33 1' });
    expect(
      await t.db
        .select()
        .from(traders)
        .where(eq(traders.userId, user?.id ?? -1)),
    ).toHaveLength(5);
  });

  it('fails with code 1 and a clear message for an existing email', async () => {
    const run = io(shared);
    const args = ['--email', 'erin@example.com', '--password', 'secret', '--nick', 'Erin'];
    expect(await runUserCreate(args, io(shared).value)).toBe(0);
    expect(await runUserCreate(args, run.value)).toBe(1);
    expect(run.err).toEqual(['Error: A user with email erin@example.com already exists']);
  });

  it.each([
    [['--password', 'secret', '--nick', 'X'], /Missing --email/],
    [['--email', 'x@example.com', '--nick', 'X'], /Missing --password/],
    [['--email', 'x@example.com', '--password', 'secret'], /Missing --nick/],
    [['--email', 'not-an-email', '--password', 'secret', '--nick', 'X'], /Invalid email/],
    [['--email', 'x@example.com', '--password', '123', '--nick', 'X'], /password must have 6/],
    [
      ['--email', 'x@example.com', '--password', 'secret', '--nick', 'X', '--accounts', '0'],
      /--accounts must be/,
    ],
    [
      ['--email', 'x@example.com', '--password', 'secret', '--nick', 'X', '--accounts', 'two'],
      /--accounts must be/,
    ],
    [
      ['--email', 'x@example.com', '--password', 'secret', '--nick', 'X', '--bogus'],
      /Unknown option '--bogus'/,
    ],
  ])('fails with code 1 for %j', async (args, message) => {
    const run = io(shared);
    expect(await runUserCreate(args, run.value)).toBe(1);
    expect(run.err.join('\n')).toMatch(message);
    expect(await t.db.select().from(users).where(eq(users.email, 'x@example.com'))).toEqual([]);
  });

  it('says to stop the server first when the data directory is in use', async () => {
    const dataDir = path.join(t.dataDir, 'locked');
    fs.mkdirSync(dataDir);
    const lock = acquireLock(path.join(dataDir, 'pglite.lock')); // as the running server holds it
    try {
      const run = io(() => openDatabase({ dataDir, databaseUrl: null }));
      const code = await runUserCreate(
        ['--email', 'x@example.com', '--password', 'secret', '--nick', 'X'],
        run.value,
      );
      expect(code).toBe(1);
      expect(run.err.join('\n')).toMatch(/in use by the running server .*Stop the server first/);
    } finally {
      lock.release();
    }
  });
});
