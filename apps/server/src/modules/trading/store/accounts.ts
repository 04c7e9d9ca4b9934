import { eq, sql } from 'drizzle-orm';
import { rawQueries, rawQueriesThenCommit, rawQuery, type SqlRow } from '../../../db/raw.ts';
import type { Db } from '../../../db/types.ts';
import { accountLedger, tradingAccounts, type TradingAccountRow } from '../../../db/schema.ts';
import { exposureOfRows, type Exposure } from './positions.ts';
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

const LOCK_ACCOUNT = `
select uuid, currency, starting_balance, balance, realized_pnl, commission_paid
from trading_accounts where uuid = $1::text for update`;

export function accountOfRaw(r: SqlRow): Account {
  return {
    uuid: String(r.uuid),
    currency: String(r.currency),
    startingBalance: Number(r.starting_balance),
    balance: Number(r.balance),
    realizedPnl: Number(r.realized_pnl),
    commissionPaid: Number(r.commission_paid),
  };
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
  let [row] = await rawQuery(tx, LOCK_ACCOUNT, [uuid]);
  if (!row && init) {
    await createAccountIfMissing(tx, uuid, init.startingBalance, init.nowMs);
    [row] = await rawQuery(tx, LOCK_ACCOUNT, [uuid]);
  }
  return row ? accountOfRaw(row) : null;
}

// "C": the order of the writer's sort (code units), whatever the database's collation
const LOCK_ACCOUNTS = `
select uuid from trading_accounts
where uuid in (select json_array_elements_text($1::json))
order by uuid collate "C" for update`;

/**
 * Locks the existing accounts among `uuids` in one statement, in one fixed order (a batch
 * of the order writer: every node's batches take their locks in the same order). Accounts
 * not created yet are created and locked by their command (lockAccount).
 */
export async function lockAccounts(tx: Db, uuids: readonly string[]): Promise<void> {
  await rawQuery(tx, LOCK_ACCOUNTS, [JSON.stringify(uuids)]);
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

const READ_ANSWER = `
select endpoint, fingerprint, http_status, body
from idempotency_keys where uuid = $1::text and client_order_id = $2::text`;

// Run after the account lock: a statement of its own, so it sees what the lock waited for.
const READ_ANSWER_AND_EXPOSURE = `
select
  (select json_build_object('endpoint', endpoint, 'fingerprint', fingerprint,
      'httpStatus', http_status, 'body', body)
    from idempotency_keys where uuid = $1::text and client_order_id = $2::text) as answer,
  (select coalesce(json_agg(json_build_object('symbol', symbol, 'cmd', cmd,
      'volume', volume::text, 'notional', notional::text)), '[]'::json)
    from account_exposure where uuid = $1::text and volume > 0) as exposure`;

export const answerOfRaw = (r: SqlRow): StoredAnswer => ({
  endpoint: String(r.endpoint),
  fingerprint: String(r.fingerprint),
  httpStatus: Number(r.http_status ?? r.httpStatus),
  body: r.body as StoredAnswer['body'],
});

export async function findAnswer(
  tx: Db,
  uuid: string,
  clientOrderId: string,
): Promise<StoredAnswer | null> {
  const [row] = await rawQuery(tx, READ_ANSWER, [uuid, clientOrderId]);
  return row ? answerOfRaw(row) : null;
}

function answerAndExposureOfRow(row: SqlRow | undefined): {
  answer: StoredAnswer | null;
  exposure: Exposure[];
} {
  const answer = row?.answer as SqlRow | null | undefined;
  return {
    answer: answer ? answerOfRaw(answer) : null,
    exposure: exposureOfRows((row?.exposure as SqlRow[] | undefined) ?? []),
  };
}

/**
 * Locks the account (as lockAccount) and then, in a statement of its own that sees what the
 * lock waited for, reads the stored answer under `clientOrderId` (null: none or no key) and
 * the account's exposure (margin checks need it). The two go together (PGlite: one call).
 */
export async function lockAccountAndRead(
  tx: Db,
  uuid: string,
  init: { startingBalance: number; nowMs: number },
  clientOrderId: string | null,
): Promise<{ account: Account; answer: StoredAnswer | null; exposure: Exposure[] }> {
  const statements = [
    [LOCK_ACCOUNT, [uuid]],
    [READ_ANSWER_AND_EXPOSURE, [uuid, clientOrderId]],
  ] as const;
  let [locked, read] = await rawQueries(tx, statements);
  if (!locked?.[0]) {
    await createAccountIfMissing(tx, uuid, init.startingBalance, init.nowMs);
    [locked, read] = await rawQueries(tx, statements);
  }
  const row = locked?.[0];
  if (!row) throw new Error(`trading account ${uuid} is missing`);
  return { account: accountOfRaw(row), ...answerAndExposureOfRow(read?.[0]) };
}

const SAVE_ANSWER = `
insert into idempotency_keys (uuid, client_order_id, endpoint, fingerprint, http_status, body,
  created_at)
values ($1::text, $2::text, $3::text, $4::text, $5::integer, $6::json, $7::bigint)`;

/**
 * Stores an answer under its key as the transaction's last statement: on PGlite the COMMIT
 * goes in the same call (rawQueriesThenCommit), so nothing may run in `tx` after it.
 */
export async function saveAnswerAndCommit(
  tx: Db,
  key: { uuid: string; clientOrderId: string; nowMs: number },
  answer: StoredAnswer,
): Promise<void> {
  await rawQueriesThenCommit(tx, [
    [
      SAVE_ANSWER,
      [
        key.uuid,
        key.clientOrderId,
        answer.endpoint,
        answer.fingerprint,
        answer.httpStatus,
        JSON.stringify(answer.body),
        key.nowMs,
      ],
    ],
  ]);
}
