import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/types.ts';
import {
  accountLedger,
  idempotencyKeys,
  tradingAccounts,
  type TradingAccountRow,
} from '../../../db/schema.ts';
import { dec, num } from './values.ts';

/* SQL of the accounts: the locked account row, its balance and ledger, its stored answers. */

export type Account = {
  uuid: string;
  currency: string;
  startingBalance: number;
  balance: number;
  realizedPnl: number;
  commissionPaid: number;
};

function toAccount(row: TradingAccountRow): Account {
  return {
    uuid: row.uuid,
    currency: row.currency,
    startingBalance: num(row.startingBalance),
    balance: num(row.balance),
    realizedPnl: num(row.realizedPnl),
    commissionPaid: num(row.commissionPaid),
  };
}

/** Creates the account with its starting balance (and the deposit in the ledger) if new. */
async function createAccountIfMissing(
  db: Db,
  uuid: string,
  startingBalance: number,
  nowMs: number,
): Promise<void> {
  const created = await db
    .insert(tradingAccounts)
    .values({
      uuid,
      currency: 'USD',
      startingBalance: dec(startingBalance),
      balance: dec(startingBalance),
      createdAt: nowMs,
      updatedAt: nowMs,
    })
    .onConflictDoNothing()
    .returning({ uuid: tradingAccounts.uuid });
  if (created.length > 0) {
    await db.insert(accountLedger).values({
      uuid,
      kind: 'deposit',
      amount: dec(startingBalance),
      balanceAfter: dec(startingBalance),
      createdAt: nowMs,
    });
  }
}

/**
 * Locks the account row for the rest of the transaction (creating the account on its first
 * use). Every change of an account's orders, positions or money starts here.
 */
export async function lockAccount(
  tx: Db,
  uuid: string,
  init: { startingBalance: number; nowMs: number } | null,
): Promise<Account | null> {
  const select = () =>
    tx.select().from(tradingAccounts).where(eq(tradingAccounts.uuid, uuid)).for('update');
  let [row] = await select();
  if (!row && init) {
    await createAccountIfMissing(tx, uuid, init.startingBalance, init.nowMs);
    [row] = await select();
  }
  return row ? toAccount(row) : null;
}

/** The account without locking (reads), created on first use. */
export async function readAccount(
  db: Db,
  uuid: string,
  init: { startingBalance: number; nowMs: number },
): Promise<Account> {
  let [row] = await db.select().from(tradingAccounts).where(eq(tradingAccounts.uuid, uuid));
  if (!row) {
    await createAccountIfMissing(db, uuid, init.startingBalance, init.nowMs);
    [row] = await db.select().from(tradingAccounts).where(eq(tradingAccounts.uuid, uuid));
  }
  if (!row) throw new Error(`trading account ${uuid} could not be created`);
  return toAccount(row);
}

export type BalanceEntry = {
  kind: 'realized_pnl' | 'commission';
  /** Account currency; negative for a loss or a commission. */
  amount: number;
  positionId?: number;
  settlementId?: number;
};

/** Books entries on the balance (and realized P&L / commissions) with a ledger row each. */
export async function applyBalance(
  tx: Db,
  uuid: string,
  entries: readonly BalanceEntry[],
  nowMs: number,
): Promise<void> {
  for (const entry of entries) {
    if (entry.amount === 0) continue;
    const amount = dec(entry.amount);
    const [row] = await tx
      .update(tradingAccounts)
      .set({
        balance: sql`${tradingAccounts.balance} + ${amount}::numeric`,
        ...(entry.kind === 'realized_pnl'
          ? { realizedPnl: sql`${tradingAccounts.realizedPnl} + ${amount}::numeric` }
          : { commissionPaid: sql`${tradingAccounts.commissionPaid} - ${amount}::numeric` }),
        updatedAt: nowMs,
      })
      .where(eq(tradingAccounts.uuid, uuid))
      .returning({ balance: tradingAccounts.balance });
    if (!row) throw new Error(`trading account ${uuid} is missing`);
    await tx.insert(accountLedger).values({
      uuid,
      kind: entry.kind,
      amount,
      balanceAfter: row.balance,
      positionId: entry.positionId ?? null,
      settlementId: entry.settlementId ?? null,
      createdAt: nowMs,
    });
  }
}

/** Sum of the ledger of an account (equals its balance; checked by tests). */
export async function ledgerTotal(db: Db, uuid: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${accountLedger.amount}), 0)` })
    .from(accountLedger)
    .where(eq(accountLedger.uuid, uuid));
  return num(row?.total ?? '0');
}

// Idempotency keys: a request's stored answer, written under the account lock.

export type StoredAnswer = {
  endpoint: string;
  fingerprint: string;
  httpStatus: number;
  body: { code: number; msg: string; data: unknown };
};

export async function findAnswer(
  tx: Db,
  uuid: string,
  clientOrderId: string,
): Promise<StoredAnswer | null> {
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.uuid, uuid), eq(idempotencyKeys.clientOrderId, clientOrderId)));
  if (!row) return null;
  return {
    endpoint: row.endpoint,
    fingerprint: row.fingerprint,
    httpStatus: row.httpStatus,
    body: row.body as StoredAnswer['body'],
  };
}

export async function saveAnswer(
  tx: Db,
  key: { uuid: string; clientOrderId: string; nowMs: number },
  answer: StoredAnswer,
): Promise<void> {
  await tx.insert(idempotencyKeys).values({
    uuid: key.uuid,
    clientOrderId: key.clientOrderId,
    endpoint: answer.endpoint,
    fingerprint: answer.fingerprint,
    httpStatus: answer.httpStatus,
    body: answer.body,
    createdAt: key.nowMs,
  });
}
