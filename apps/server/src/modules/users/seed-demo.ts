import type { Db } from '../../db/types.ts';
import { verifyPassword } from './password.ts';
import { createUser, EmailTakenError } from './service.ts';
import { findUserByEmail } from './store.ts';

export const DEMO_EMAIL = 'demo@example.com';

const DEMO_ACCOUNTS = [
  { name: 'Demo Standard', level: 1, type: 1 },
  { name: 'Demo Professional', level: 2, type: 2 },
  { name: 'Demo VIP', level: 3, type: 3 },
];

/**
 * Creates the demo user with three accounts on a fresh install; does nothing when it
 * exists (also when another node created it a moment ago).
 */
export async function seedDemoUser(
  db: Db,
  options: { password: string; nowMs: number },
): Promise<'created' | 'exists'> {
  if (await findUserByEmail(db, DEMO_EMAIL)) return 'exists';
  try {
    await createUser(
      db,
      {
        email: DEMO_EMAIL,
        password: options.password,
        nickName: 'Demo Trader',
        phone: '+1 555 0100',
        country: 'United States',
        auditStatus: 1,
        accounts: DEMO_ACCOUNTS,
      },
      options.nowMs,
    );
    return 'created';
  } catch (error) {
    if (error instanceof EmailTakenError) return 'exists';
    throw error;
  }
}

/** True when the demo user still has `password` (so it may be printed at start). */
export async function demoPasswordStillWorks(db: Db, password: string): Promise<boolean> {
  const user = await findUserByEmail(db, DEMO_EMAIL);
  return user !== undefined && (await verifyPassword(password, user.passwordHash));
}
