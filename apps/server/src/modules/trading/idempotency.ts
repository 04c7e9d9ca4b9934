import { hash } from 'node:crypto';
import { TRADING_MESSAGES } from '@ct/domain';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { ConflictError } from './errors.ts';
import { findAnswer, saveAnswerAndCommit, type StoredAnswer } from './store/accounts.ts';

/** What a mutation ends in: an answer to send, or a refusal that was recorded. */
export type Outcome<T> = { ok: true; msg: string; data: T } | { ok: false; error: AppError };

/** A request's idempotency key: the account, the caller's clientOrderId, the call and its parameters. */
export type IdempotencyKey = {
  uuid: string;
  clientOrderId: string;
  endpoint: string;
  fingerprint: string;
};

/** The key of a request, or null when it carries no clientOrderId. */
export function idempotencyKey(
  uuid: string,
  clientOrderId: string | undefined,
  endpoint: string,
  params: Record<string, unknown>,
): IdempotencyKey | null {
  if (!clientOrderId) return null;
  const fingerprint = hash('sha256', JSON.stringify(params), 'hex');
  return { uuid, clientOrderId, endpoint, fingerprint };
}

/**
 * The stored outcome of an earlier request with the same key, or null. Run it inside the
 * mutation's transaction after locking the account, so a concurrent twin waits for the
 * first and then finds its answer. A key reused for another call or other parameters is a
 * conflict.
 */
export async function replay<T>(tx: Db, key: IdempotencyKey | null): Promise<Outcome<T> | null> {
  if (!key) return null;
  return storedOutcome<T>(key, await findAnswer(tx, key.uuid, key.clientOrderId));
}

/** The outcome `stored` under `key` answers (read by the caller), or null when none is stored. */
export function storedOutcome<T>(
  key: IdempotencyKey | null,
  stored: StoredAnswer | null,
): Outcome<T> | null {
  if (!key || !stored) return null;
  if (stored.endpoint !== key.endpoint || stored.fingerprint !== key.fingerprint) {
    throw new ConflictError(TRADING_MESSAGES.clientOrderIdReused(key.clientOrderId));
  }
  if (stored.body.code === 0)
    return { ok: true, msg: stored.body.msg, data: stored.body.data as T };
  return {
    ok: false,
    error: new AppError(stored.body.code, stored.body.msg, stored.httpStatus),
  };
}

/**
 * Stores an outcome under its key in the same transaction as the change it answers, as that
 * transaction's last statement (on PGlite its COMMIT goes with it: run nothing in `tx` after).
 */
export async function remember<T>(
  tx: Db,
  key: IdempotencyKey | null,
  outcome: Outcome<T>,
  nowMs: number,
): Promise<void> {
  if (!key) return;
  await saveAnswerAndCommit(
    tx,
    { uuid: key.uuid, clientOrderId: key.clientOrderId, nowMs },
    answerOf(key, outcome),
  );
}

/** The answer stored for `outcome` under `key`. */
export function answerOf<T>(key: IdempotencyKey, outcome: Outcome<T>): StoredAnswer {
  return {
    endpoint: key.endpoint,
    fingerprint: key.fingerprint,
    httpStatus: outcome.ok ? 200 : outcome.error.httpStatus,
    body: outcome.ok
      ? { code: 0, msg: outcome.msg, data: outcome.data }
      : { code: outcome.error.code, msg: outcome.error.message, data: null },
  };
}

/** The data of a successful outcome; a recorded refusal is thrown (after its commit). */
export function unwrap<T>(outcome: Outcome<T>): { msg: string; data: T } {
  if (!outcome.ok) throw outcome.error;
  return { msg: outcome.msg, data: outcome.data };
}
