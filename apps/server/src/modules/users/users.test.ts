import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traders, users } from '../../db/schema.ts';
import { buildUser } from '../../test/factories.ts';
import { openTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { verifyPassword } from './password.ts';
import { DEMO_EMAIL, demoPasswordStillWorks, seedDemoUser } from './seed-demo.ts';
import { createUser, EmailTakenError, InvalidUserError, planAccounts } from './service.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const NOW = Date.UTC(2026, 2, 1, 12);

describe('planAccounts', () => {
  it('gives accounts of different levels and types', () => {
    expect(planAccounts(4, 'Ann')).toEqual([
      { name: 'Ann Standard', level: 1, type: 1 },
      { name: 'Ann Professional', level: 2, type: 2 },
      { name: 'Ann VIP', level: 3, type: 3 },
      { name: 'Ann Standard 2', level: 4, type: 1 },
    ]);
  });
});

describe('createUser', () => {
  it('stores a lower-cased email, a scrypt hash and the accounts with random uuids', async () => {
    const { user, traders: accounts } = await createUser(
      t.db,
      {
        email: ' Ann@Example.COM ',
        password: 'secret',
        nickName: 'Ann',
        accounts: planAccounts(2, 'Ann'),
      },
      NOW,
    );
    expect(user).toMatchObject({
      email: 'ann@example.com',
      nickName: 'Ann',
      auditStatus: 1,
      auditAt: NOW / 1000,
      createdAt: NOW / 1000,
      updatedAt: NOW / 1000,
    });
    expect(await verifyPassword('secret', user.passwordHash)).toBe(true);
    expect(accounts.map((a) => a.name)).toEqual(['Ann Standard', 'Ann Professional']);
    for (const a of accounts) {
      expect(a.uuid).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('refuses an existing email in any case and leaves nothing behind', async () => {
    const existing = await buildUser(t.db);
    const [before] = await t.db.select({ n: count() }).from(traders);
    await expect(
      createUser(
        t.db,
        {
          email: existing.email.toUpperCase(),
          password: 'secret',
          nickName: 'X',
          accounts: planAccounts(3, 'X'),
        },
        NOW,
      ),
    ).rejects.toBeInstanceOf(EmailTakenError);
    const [after] = await t.db.select({ n: count() }).from(traders);
    expect(after?.n).toBe(before?.n);
  });

  it.each([
    [{ email: 'not-an-email' }, /Invalid email/],
    [{ password: 'short' }, /password/],
    [{ nickName: '  ' }, /nickname/],
  ])('refuses invalid input %j', async (override, message) => {
    const input = {
      email: 'ok@example.com',
      password: 'secret',
      nickName: 'Ok',
      accounts: [],
      ...override,
    };
    await expect(createUser(t.db, input, NOW)).rejects.toThrow(message);
    await expect(createUser(t.db, input, NOW)).rejects.toBeInstanceOf(InvalidUserError);
  });
});

describe('seedDemoUser', () => {
  it('creates the demo user with three accounts once', async () => {
    expect(await seedDemoUser(t.db, { password: 'demo1234', nowMs: NOW })).toBe('created');
    expect(await seedDemoUser(t.db, { password: 'demo1234', nowMs: NOW })).toBe('exists');

    const demo = await t.db.select().from(users).where(eq(users.email, DEMO_EMAIL));
    expect(demo).toHaveLength(1);
    expect(demo[0]).toMatchObject({
      nickName: 'Demo Trader',
      auditStatus: 1,
      auditAt: NOW / 1000,
      country: 'United States',
      phone: '+1 555 0100',
    });
    const accounts = await t.db
      .select()
      .from(traders)
      .where(eq(traders.userId, demo[0]?.id ?? -1));
    expect(accounts.map((a) => [a.name, a.level, a.type]).sort()).toEqual([
      ['Demo Professional', 2, 2],
      ['Demo Standard', 1, 1],
      ['Demo VIP', 3, 3],
    ]);
  });

  it('tells whether the demo password still works', async () => {
    expect(await demoPasswordStillWorks(t.db, 'demo1234')).toBe(true);
    expect(await demoPasswordStillWorks(t.db, 'changed')).toBe(false);
  });
});
