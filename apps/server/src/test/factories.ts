import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { User } from '@ct/domain';
import { traders, type TraderRow } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import {
  createUser,
  planAccounts,
  type AccountSpec,
  type CreatedUser,
} from '../modules/users/service.ts';

let sequence = 0;

/** Cheap hashing for test users (~2 ms instead of ~100 ms); production uses the default cost. */
export const TEST_SCRYPT_PARAMS = { N: 1024, r: 8, p: 1 };

export type BuiltUser = CreatedUser & { email: string; password: string };

/** A user with trading accounts (3 unless told), a unique email and a known password. */
export async function buildUser(
  db: Db,
  overrides: {
    email?: string;
    password?: string;
    nickName?: string;
    accounts?: number | AccountSpec[];
    nowMs?: number;
  } = {},
): Promise<BuiltUser> {
  sequence += 1;
  const email = overrides.email ?? `user${sequence}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = overrides.password ?? `secret-${sequence}`;
  const nickName = overrides.nickName ?? `User ${sequence}`;
  const accounts =
    typeof overrides.accounts === 'object'
      ? overrides.accounts
      : planAccounts(overrides.accounts ?? 3, nickName);
  const created = await createUser(
    db,
    { email, password, nickName, accounts },
    overrides.nowMs ?? Date.UTC(2026, 0, 1),
    { scrypt: TEST_SCRYPT_PARAMS },
  );
  return { ...created, email: created.user.email, password };
}

/** One more trading account for an existing user. */
export async function buildTrader(
  db: Db,
  userId: number,
  overrides: Partial<Omit<TraderRow, 'userId'>> = {},
): Promise<TraderRow> {
  const [row] = await db
    .insert(traders)
    .values({
      uuid: overrides.uuid ?? crypto.randomUUID(),
      userId,
      name: overrides.name ?? 'Extra account',
      level: overrides.level ?? 1,
      type: overrides.type ?? 1,
      channel: overrides.channel ?? 1,
      createdAt: overrides.createdAt ?? Math.floor(Date.UTC(2026, 0, 1) / 1000),
    })
    .returning();
  if (!row) throw new Error('trader insert returned no row');
  return row;
}

export type LoggedIn = { res: LightMyRequestResponse; cookie: string; user: User };

/** Logs in through the HTTP route and returns the cookie and the user with trader tokens. */
export async function loginAs(
  app: FastifyInstance,
  credentials: { email: string; password: string },
  remoteAddress = '127.0.0.1',
): Promise<LoggedIn> {
  const res = await app.inject({
    method: 'POST',
    url: '/user/api/v1/account/login',
    remoteAddress,
    payload: loginBody(credentials.email, credentials.password),
  });
  const cookie = res.cookies.find((c) => c.name === 'ct_sid')?.value;
  const user = res.json<{ data: User[] }>().data[0];
  if (res.statusCode !== 200 || !cookie || !user) {
    throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  }
  return { res, cookie, user };
}

export function loginBody(email: string, password: string) {
  return { channel: 1, login_type: 2, user_name: email, password, device: 1 };
}
