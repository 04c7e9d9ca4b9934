import { exposureWithPosition, sideOfCmd, type ExposureLine } from '@ct/domain';
import type { Db } from '../../db/types.ts';
import { accountInit } from './accounts.ts';
import type { BatchedOrder } from './batched-order.ts';
import type { TradingContext } from './context.ts';
import { marketOrderOf, positionFill } from './fills.ts';
import { answerOf, storedOutcome, type Outcome } from './idempotency.ts';
import { exposureLines } from './margin.ts';
import { firstEventOf, orderLogOfFirstEvent } from './order-events.ts';
import { BatchRolledBack, type Settled } from './order-writer.ts';
import { decideMarketOrder, filledOutcome, type OrderData } from './place-market-order.ts';
import { rejectedOrder, rejectionOutcome } from './rejections.ts';
import { lockAccount, type Account, type StoredAnswer } from './store/accounts.ts';
import {
  addBatchAnswer,
  addBatchOrder,
  answerKey,
  emptyBatchRows,
  lockAndReadBatch,
  writeBatchAndCommit,
  type BatchRows,
  type BatchState,
} from './store/batch.ts';
import { positionOfNew } from './store/positions.ts';

/*
 * A batch of market orders of many accounts, written together (the order writer's `batch`,
 * docs/architecture.md "Trading engine"): one call locks the batch's accounts and reads
 * their stored answers and exposure; each order is then decided in JavaScript, in the
 * batch's order (each account's orders in arrival order), against its account as the
 * orders before it in the batch left it (balance less their commissions, exposure with
 * their positions: the domain's rules); one statement writes every table for the batch and
 * the COMMIT goes with it. An order refused (market closed, margin) is logged and answered
 * like any; one that fails (a bad TP/SL, a clientOrderId reused for another order) writes
 * nothing and fails alone. A database error before the COMMIT throws BatchRolledBack: the
 * writer runs the batch again one order after the other.
 */

/** The account's state as the batch's orders so far left it. */
type Running = { account: Account; exposure: ExposureLine[] };

export async function writeMarketBatch(
  ctx: TradingContext,
  tx: Db,
  items: readonly BatchedOrder[],
): Promise<Settled[]> {
  const state = await readBatch(tx, items);
  const rows = emptyBatchRows();
  const answered = new Map(state.answers);
  const running = new Map<string, Running>();
  for (const [uuid, account] of state.accounts) {
    running.set(uuid, { account, exposure: exposureLines(state.exposure.get(uuid) ?? []) });
  }
  const settled = items.map((item, slot): Settled => {
    try {
      const [position, order] = [state.positionIds[slot], state.orderIds[slot]];
      if (position === undefined || order === undefined) {
        throw new Error('the batch reserved too few ids');
      }
      const value = decide(ctx, item, { running, answered, rows, ids: { position, order } });
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error };
    }
  });
  try {
    await writeBatchAndCommit(tx, rows);
  } catch (error) {
    // the statement failed: its COMMIT rolled it back (a lost connection is not known to)
    if (isStatementError(error)) throw new BatchRolledBack(error);
    throw error;
  }
  return settled;
}

/** Locks the batch's accounts (creating those used for the first time) and reads them. */
async function readBatch(tx: Db, items: readonly BatchedOrder[]): Promise<BatchState> {
  const uuids = [...new Set(items.map((item) => item.ticket.trader.uuid))];
  const keys = items.flatMap((item) => (item.ticket.key ? [item.ticket.key] : []));
  try {
    const state = await lockAndReadBatch(tx, uuids, keys, items.length);
    const missing = items.filter((item, i) => {
      const { uuid } = item.ticket.trader;
      return (
        !state.accounts.has(uuid) && items.findIndex((o) => o.ticket.trader.uuid === uuid) === i
      );
    });
    if (missing.length === 0) return state;
    for (const { ticket } of missing) {
      await lockAccount(tx, ticket.trader.uuid, accountInit(ticket.trader, ticket.nowMs));
    }
    return await lockAndReadBatch(tx, uuids, keys, items.length);
  } catch (error) {
    // no COMMIT was sent: the transaction rolls back
    throw new BatchRolledBack(error);
  }
}

/**
 * One order of the batch: the stored answer of its key (written earlier or in this batch),
 * else its decision against its running account, its rows added to the batch's and its
 * account's state moved on. Throws (writing nothing) when it fails on its own.
 */
function decide(
  ctx: TradingContext,
  item: BatchedOrder,
  batch: {
    running: Map<string, Running>;
    answered: Map<string, StoredAnswer>;
    rows: BatchRows;
    ids: { position: number; order: number };
  },
): Outcome<OrderData> {
  const { ticket } = item;
  const effects = item.begin();
  const { uuid } = ticket.trader;
  const current = batch.running.get(uuid);
  if (!current) throw new Error(`trading account ${uuid} is missing`);
  const { key } = ticket;
  const stored = key && batch.answered.get(answerKey(key.uuid, key.clientOrderId));
  const seen = storedOutcome<OrderData>(key, stored ?? null);
  if (seen) return seen;

  const decision = decideMarketOrder(ctx, ticket, current.account, current.exposure);
  const orderId = batch.ids.order;
  let outcome: Outcome<OrderData>;
  if (!decision.fill) {
    const e = firstEventOf(rejectedOrder(decision.rejection), 'Rejected');
    addBatchOrder(batch.rows, { orderId, e, row: orderLogOfFirstEvent({ ...e, orderId }) }, null);
    effects.record({ kind: 'order', event: { ...e, orderId } });
    outcome = rejectionOutcome(decision.rejection);
  } else {
    const open = decision.fill;
    const fill = positionFill(ctx, open);
    const positionId = batch.ids.position;
    const e = firstEventOf({ ...marketOrderOf(open, fill), positionId }, 'Filled');
    const row = orderLogOfFirstEvent({ ...e, orderId });
    addBatchOrder(batch.rows, { orderId, e, row }, { id: positionId, ...fill });
    const position = positionOfNew(positionId, fill.position);
    effects.after.trackPosition(position);
    effects.record({ kind: 'order', event: { ...e, orderId } });
    batch.running.set(uuid, {
      account: { ...current.account, balance: current.account.balance + fill.commission },
      exposure: exposureWithPosition(current.exposure, {
        symbol: position.symbol,
        side: sideOfCmd(position.cmd),
        price: position.price,
        volume: position.volume,
      }),
    });
    outcome = filledOutcome(ticket, position, decision.quote);
  }
  if (key) {
    const answer = answerOf(key, outcome);
    const at = { uuid: key.uuid, clientOrderId: key.clientOrderId, nowMs: ticket.nowMs };
    addBatchAnswer(batch.rows, at, answer);
    batch.answered.set(answerKey(key.uuid, key.clientOrderId), answer);
  }
  return outcome;
}

/** An error the database answered for a statement (an SQLSTATE), not a lost connection. */
function isStatementError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}
