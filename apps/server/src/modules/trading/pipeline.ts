import { TRADING_MESSAGES } from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import { NotFoundError } from '../../http/errors.ts';
import { operationCounts } from '../health/counters.ts';
import { accountEventsOf } from './account-events.ts';
import { accountInit } from './accounts.ts';
import type { MarketOrderTicket } from './batched-order.ts';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { publishAccountEvent } from './events.ts';
import {
  remember,
  replay,
  storedOutcome,
  unwrap,
  type IdempotencyKey,
  type Outcome,
} from './idempotency.ts';
import type { AccountFact, AfterCommit, Journal } from './journal.ts';
import { rejectOrder, type Rejection } from './rejections.ts';
import { lockAccount, lockAccountAndRead, type Account } from './store/accounts.ts';
import { findPending, lockPending, type Pending } from './store/pendings.ts';
import {
  accountExposure,
  findPosition,
  lockPosition,
  type Exposure,
  type Position,
} from './store/positions.ts';

export type { AfterCommit } from './journal.ts';

/**
 * What a use case runs with: the transaction, the locked account, the command's time, the
 * effects after commit, and the journal (`record`) of the order events and position changes
 * it made, from which the pipeline derives the account's live events after the commit.
 */
export type CommandScope = Journal & {
  account: Account;
  nowMs: number;
  after: AfterCommit;
  /** The account's open lots per symbol and side as of the lock (margin checks). */
  exposure(): Promise<Exposure[]>;
};

/**
 * An account-changing command of the API: whose account (it starts with the balance of the
 * trader's level on first use, see accountInit), its idempotency key and its time.
 */
export type AccountCommand = {
  trader: Pick<TraderRow, 'uuid' | 'level'>;
  key: IdempotencyKey | null;
  nowMs: number;
  /** The use case checks margin: the exposure is read with the stored answer, in one statement. */
  checksMargin?: boolean;
};

/**
 * The deferred effects of one transaction and the facts it recorded: after its commit the
 * index effects run in order, then the account events derived from the facts are published.
 */
function collectEffects(ctx: TradingContext): {
  after: AfterCommit;
  record: (fact: AccountFact) => void;
  notify: (tx: Db) => Promise<void>;
  run: () => void;
} {
  const effects: (() => void)[] = [];
  const facts: AccountFact[] = [];
  return {
    after: {
      trackPending: (p) => effects.push(() => ctx.index.trackPending(p)),
      untrackPending: (p) => effects.push(() => ctx.index.untrackPending(p.symbol, p.id)),
      trackPosition: (p) => effects.push(() => ctx.index.trackPosition(p)),
      untrackPosition: (p) => effects.push(() => ctx.index.untrackPosition(p.symbol, p.id)),
    },
    record: (fact) => facts.push(fact),
    // the user's notifications of what the command did, in its transaction (trigger engine)
    notify: async (tx) => {
      if (ctx.notify) effects.push(await ctx.notify(tx, facts));
    },
    run: () => {
      for (const effect of effects) effect();
      for (const event of accountEventsOf(facts)) publishAccountEvent(ctx, event);
    },
  };
}

/**
 * Runs an API command on an account: in one transaction it locks the account (creating it
 * on first use), answers a retried idempotency key with the stored outcome, else runs the
 * use case and stores its outcome under the key; after the commit it applies the use case's
 * effects (trigger index, account events). A refusal the use case records (see `reject`)
 * commits too and is thrown afterwards; any other error rolls everything back.
 */
export async function runAccountCommand<T>(
  ctx: TradingContext,
  command: AccountCommand,
  handler: (scope: CommandScope) => Promise<Outcome<T>>,
  /** A market order: the order writer may write it with its batch's (market-batch.ts). */
  ticket?: MarketOrderTicket,
): Promise<{ msg: string; data: T }> {
  // the effects of the last attempt (a transaction may run its callback again)
  let effects = collectEffects(ctx);
  const body = async (tx: Db): Promise<Outcome<T>> => {
    effects = collectEffects(ctx);
    const { uuid } = command.trader;
    const init = accountInit(command.trader, command.nowMs);
    let account: Account | null;
    let exposure: Exposure[] | null = null;
    let seen: Outcome<T> | null;
    if (command.checksMargin) {
      // The lock, then the stored answer and the exposure: together (one call on PGlite).
      const read = await lockAccountAndRead(tx, uuid, init, command.key?.clientOrderId ?? null);
      account = read.account;
      seen = storedOutcome<T>(command.key, read.answer);
      exposure = read.exposure;
    } else {
      account = await lockAccount(tx, uuid, init);
      if (!account) throw new Error(`trading account ${uuid} is missing`);
      seen = await replay<T>(tx, command.key);
    }
    if (seen) return seen;
    const { after, record } = effects;
    const result = await handler({
      tx,
      account,
      nowMs: command.nowMs,
      after,
      record,
      exposure: async () => exposure ?? accountExposure(tx, uuid),
    });
    // The transaction's last statement (on PGlite the COMMIT goes with it; in a batch of the
    // order writer the batch commits after its last command).
    await remember(tx, command.key, result, command.nowMs);
    return result;
  };
  // group commit: one transaction for the commands of many accounts (order-writer.ts);
  // else one transaction per command
  const batched = ticket && { ticket, begin: () => (effects = collectEffects(ctx)) };
  const outcome = ctx.writer
    ? await ctx.writer.submit(command.trader.uuid, body, batched)
    : await ctx.db.transaction(body);
  effects.run();
  operationCounts.orders += 1;
  return unwrap(outcome);
}

/** A refused order: logged as Rejected in the command's transaction, answered as a refusal. */
export function reject<T>(scope: CommandScope, rejection: Rejection): Promise<Outcome<T>> {
  return rejectOrder<T>(scope, rejection);
}

/** A record the trigger engine acts on: how to find it, lock it, and forget it in the index. */
type TriggerTarget<R extends { uuid: string; symbol: string; id: number }> = {
  find(tx: Db, id: number): Promise<R | null>;
  lock(tx: Db, seen: R): Promise<R | null>;
  live(row: R): boolean;
  forget(after: AfterCommit, row: R): void;
};

export const PENDING_TARGET: TriggerTarget<Pending> = {
  find: findPending,
  lock: (tx, seen) => lockPending(tx, seen.id),
  live: (p) => p.status === 'working',
  forget: (after, p) => after.untrackPending(p),
};

export const POSITION_TARGET: TriggerTarget<Position> = {
  find: findPosition,
  lock: (tx, seen) => lockPosition(tx, seen.uuid, seen.id),
  live: (p) => p.status === 'open',
  forget: (after, p) => after.untrackPosition(p),
};

/**
 * Runs a trigger engine command on one record (a pending order, a position) in one
 * transaction: finds it to learn its account, locks the account and then the record (the
 * API's lock order), and hands the record to the use case only while it is still live; a
 * record found gone is dropped from the index. The use case's effects apply after commit.
 */
export async function runTriggerCommand<R extends { uuid: string; symbol: string; id: number }>(
  ctx: TradingContext,
  target: TriggerTarget<R>,
  id: number,
  handler: (scope: CommandScope, row: R) => Promise<void>,
): Promise<void> {
  const nowMs = ctx.now();
  let effects = collectEffects(ctx);
  await ctx.db.transaction(async (tx) => {
    effects = collectEffects(ctx);
    const seen = await target.find(tx, id);
    if (!seen || !target.live(seen)) {
      if (seen) target.forget(effects.after, seen);
      return;
    }
    const account = await lockAccount(tx, seen.uuid, null);
    const row = await target.lock(tx, seen);
    if (!account || !row || !target.live(row)) {
      if (row) target.forget(effects.after, row);
      return;
    }
    const scope: CommandScope = {
      tx,
      account,
      nowMs,
      after: effects.after,
      record: effects.record,
      exposure: () => accountExposure(tx, account.uuid),
    };
    await handler(scope, row);
    await effects.notify(tx);
  });
  effects.run();
}

/**
 * The open position a command acts on, locked in the command's transaction: a position of
 * another account or none is a 404, one no longer open a 409.
 */
export async function lockOpenPosition(tx: Db, uuid: string, orderId: string): Promise<Position> {
  const position = await lockPosition(tx, uuid, Number(orderId));
  if (!position) throw new NotFoundError(TRADING_MESSAGES.orderNotFound(orderId));
  if (position.status !== 'open') throw new ConflictError(TRADING_MESSAGES.positionClosed(orderId));
  return position;
}
