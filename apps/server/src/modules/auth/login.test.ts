import { loginResponseSchema } from '@ct/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, traderTokens } from '../../db/schema.ts';
import { buildUser, loginBody, type BuiltUser } from '../../test/factories.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../test/helpers.ts';
import { hashToken } from './tokens.ts';

const LOGIN = '/user/api/v1/account/login';

let t: TestApp;
let alice: BuiltUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await buildUser(t.db, { nickName: 'Alice', accounts: 3 });
});
afterAll(() => t.close());

const post = (payload: unknown, remoteAddress = '10.1.0.1') =>
  t.app.inject({ method: 'POST', url: LOGIN, payload: payload as object, remoteAddress });

describe('POST /user/api/v1/account/login', () => {
  it('answers the user of spec section 3 with a token per trader and sets the session cookie', async () => {
    const res = await post(loginBody(alice.email, alice.password));

    expect(res.statusCode).toBe(200);
    const body = loginResponseSchema.parse(res.json());
    expect(body.status).toBe(0);
    expect(body.msg).toBe('Login successful');
    const user = body.data[0];
    expect(user).toMatchObject({
      id: alice.user.id,
      email: alice.email,
      nick_name: 'Alice',
      channel: 1,
      audit_status: 1,
      created_at: Math.floor(Date.UTC(2026, 0, 1) / 1000),
    });
    expect(Object.keys(user ?? {}).sort()).toEqual(
      [
        'id',
        'nick_name',
        'phone',
        'email',
        'country',
        'channel',
        'audit_status',
        'audit_remark',
        'audit_at',
        'created_at',
        'updated_at',
        'traders',
      ].sort(),
    );
    expect(user?.traders.map((tr) => [tr.name, tr.level, tr.type])).toEqual([
      ['Alice Standard', 1, 1],
      ['Alice Professional', 2, 2],
      ['Alice VIP', 3, 3],
    ]);
    for (const trader of user?.traders ?? []) {
      expect(Object.keys(trader).sort()).toEqual([
        'channel',
        'level',
        'name',
        'token',
        'type',
        'uuid',
      ]);
      expect(trader.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }

    const cookie = res.cookies.find((c) => c.name === 'ct_sid');
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: 168 * 3600,
    });
    expect(cookie?.secure).toBeUndefined();
  });

  it('stores only hashes of the session and trader tokens', async () => {
    const res = await post(loginBody(alice.email, alice.password));
    const token = sessionCookie(res) ?? '';
    const user = loginResponseSchema.parse(res.json()).data[0];

    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(session?.userId).toBe(alice.user.id);
    expect(session?.expiresAt).toBe(Math.floor(t.clock.now() / 1000) + 168 * 3600);
    const stored = await t.db
      .select()
      .from(traderTokens)
      .where(eq(traderTokens.sessionId, session?.id ?? -1));
    expect(stored.map((row) => row.tokenHash).sort()).toEqual(
      (user?.traders ?? []).map((tr) => hashToken(tr.token)).sort(),
    );
    expect(JSON.stringify(stored)).not.toContain(user?.traders[0]?.token);
  });

  it('issues fresh tokens on every login', async () => {
    const first = loginResponseSchema.parse(
      (await post(loginBody(alice.email, alice.password))).json(),
    );
    const second = loginResponseSchema.parse(
      (await post(loginBody(alice.email, alice.password))).json(),
    );
    const tokens = (b: typeof first) => b.data[0]?.traders.map((tr) => tr.token);
    expect(tokens(first)).not.toEqual(tokens(second));
    expect(first.data[0]?.traders.map((tr) => tr.uuid)).toEqual(
      second.data[0]?.traders.map((tr) => tr.uuid),
    );
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const res = await post(loginBody(`  ${alice.email.toUpperCase()} `, alice.password));
    expect(res.json()).toMatchObject({ status: 0 });
  });

  it('refuses a wrong password with status 1 and no cookie', async () => {
    const res = await post(loginBody(alice.email, 'wrong password'), '10.1.0.2');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, msg: 'Incorrect username or password', data: [] });
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const res = await post(loginBody('nobody@example.com', alice.password), '10.1.0.3');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, msg: 'Incorrect username or password', data: [] });
  });

  it('cleans up the expired sessions of a user at the next login', async () => {
    const bob = await buildUser(t.db);
    await post(loginBody(bob.email, bob.password));
    t.clock.advance(169 * 3600 * 1000);
    await post(loginBody(bob.email, bob.password));
    const [row] = await t.db
      .select({ n: count() })
      .from(sessions)
      .where(eq(sessions.userId, bob.user.id));
    expect(row?.n).toBe(1);
  });
});
