import crypto from 'node:crypto';
import { toEpochSec, accountTypeName, EMAIL_PATTERN, identifierProblem } from '@ct/domain';
import type { Db } from '../../db/types.ts';
import type { TraderRow, UserRow } from '../../db/schema.ts';
import { hashPassword, type ScryptParams } from './password.ts';
import { insertTraders, insertUserIfNew, listTraders, normalizeEmail } from './store.ts';

export type AccountSpec = { name: string; level: number; type: number };

export type NewUser = {
  email: string;
  password: string;
  nickName: string;
  phone?: string | null;
  country?: string | null;
  /** 1 approved (the default: users are created by the operator), 0 not approved. */
  auditStatus?: number;
  auditRemark?: string | null;
  accounts: AccountSpec[];
};

export type CreatedUser = { user: UserRow; traders: TraderRow[] };

export class EmailTakenError extends Error {
  constructor(readonly email: string) {
    super(`A user with email ${email} already exists`);
  }
}

export class InvalidUserError extends Error {}

/** Bounds of a new password (the login call accepts up to 1024 characters). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 1024;
export const MAX_ACCOUNTS = 20;

/**
 * `count` accounts named `<prefix> Standard|Professional|VIP`, levels 1, 2, 3, … and
 * types cycling 1, 2, 3, so a user's accounts differ in level and type.
 */
export function planAccounts(count: number, prefix: string): AccountSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const type = (i % 3) + 1;
    const round = Math.floor(i / 3);
    const name = `${prefix} ${accountTypeName(type)}${round > 0 ? ` ${round + 1}` : ''}`;
    return { name, level: i + 1, type };
  });
}

function validate(input: NewUser): void {
  if (!EMAIL_PATTERN.test(input.email.trim()) || identifierProblem(input.email) !== null) {
    throw new InvalidUserError(`Invalid email: ${input.email}`);
  }
  if (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > PASSWORD_MAX_LENGTH) {
    throw new InvalidUserError(
      `The password must have ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    );
  }
  if (input.nickName.trim() === '') throw new InvalidUserError('The nickname must not be empty');
  const nickProblem = identifierProblem(input.nickName.trim());
  if (nickProblem !== null) throw new InvalidUserError(`The nickname ${nickProblem}`);
  if (input.accounts.length > MAX_ACCOUNTS) {
    throw new InvalidUserError(`At most ${MAX_ACCOUNTS} trading accounts`);
  }
}

/**
 * Creates a user with trading accounts (random uuids) in one transaction.
 * Throws EmailTakenError when the email exists, InvalidUserError for bad input.
 * `options.scrypt` lowers the hashing cost in tests only.
 */
export async function createUser(
  db: Db,
  input: NewUser,
  nowMs: number,
  options: { scrypt?: ScryptParams } = {},
): Promise<CreatedUser> {
  validate(input);
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password, options.scrypt);
  const at = toEpochSec(nowMs);
  const auditStatus = input.auditStatus ?? 1;
  return db.transaction(async (tx) => {
    const user = await insertUserIfNew(tx, {
      email,
      passwordHash,
      nickName: input.nickName.trim(),
      phone: input.phone ?? null,
      country: input.country ?? null,
      channel: 1,
      auditStatus,
      auditRemark: input.auditRemark ?? null,
      auditAt: auditStatus === 1 ? at : null,
      createdAt: at,
      updatedAt: at,
    });
    if (!user) throw new EmailTakenError(email);
    await insertTraders(
      tx,
      input.accounts.map((account) => ({
        uuid: crypto.randomUUID(),
        userId: user.id,
        name: account.name,
        level: account.level,
        type: account.type,
        channel: 1,
        createdAt: at,
      })),
    );
    return { user, traders: await listTraders(tx, user.id) };
  });
}
