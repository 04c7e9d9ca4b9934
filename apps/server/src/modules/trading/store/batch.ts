import { rawQueries, rawQueriesThenCommit, type SqlRow } from '../../../db/raw.ts';
import type { Db } from '../../../db/types.ts';
import { accountOfRaw, answerOfRaw, type Account, type StoredAnswer } from './accounts.ts';
import { firstEventParams, type NewOrderEvent, type OrderLog } from './history.ts';
import { exposureOfRows, type Exposure, type NewPosition } from './positions.ts';
import { dec } from './values.ts';

/*
 * SQL of a batch of market orders of many accounts (the order writer, market-batch.ts): one
 * call locks the batch's accounts and reads what their orders are decided on, one statement
 * writes every table for the whole batch (a data-modifying CTE per table, the rows as JSON)
 * and commits.
 */

// "C": the order of the writer's sort (code units), whatever the database's collation
const LOCK_BATCH = `
select uuid, currency, starting_balance, balance, realized_pnl, commission_paid
from trading_accounts where uuid in (select json_array_elements_text($1::json))
order by uuid collate "C" for update`;

// A statement of its own after the lock, so it sees what the lock waited for. The ids of
// the positions and orders the batch may open are reserved here (one each per order): the
// answers stored with the orders carry them. Each stored answer is looked up by its key
// (a lateral subquery with a limit is planned as one index probe per key): as a join, an
// estimate of 100 wanted keys made scanning the whole table look cheaper, and every batch
// read every answer ever stored (docs/performance.md, Orders).
export const READ_BATCH = `
select
  (select coalesce(json_agg(json_build_object('uuid', k.uuid,
      'clientOrderId', k.client_order_id, 'endpoint', k.endpoint, 'fingerprint', k.fingerprint,
      'httpStatus', k.http_status, 'body', k.body)), '[]'::json)
    from json_to_recordset($1::json) as want(uuid text, client_order_id text)
    cross join lateral (
      select * from idempotency_keys
      where uuid = want.uuid and client_order_id = want.client_order_id
      limit 1) k) as answers,
  (select coalesce(json_agg(json_build_object('uuid', uuid, 'symbol', symbol, 'cmd', cmd,
      'volume', volume::text, 'notional', notional::text)), '[]'::json)
    from account_exposure
    where uuid in (select json_array_elements_text($2::json)) and volume > 0) as exposure,
  (select coalesce(json_agg(nextval(pg_get_serial_sequence('positions', 'id'))), '[]'::json)
    from generate_series(1, $3::int)) as position_ids,
  (select coalesce(json_agg(nextval(pg_get_serial_sequence('order_logs', 'id'))), '[]'::json)
    from generate_series(1, $3::int)) as order_ids`;

/** What a batch's orders are decided on, read under the lock of their accounts. */
export type BatchState = {
  /** The locked accounts (those that exist). */
  accounts: Map<string, Account>;
  /** Stored answers by `answerKey`. */
  answers: Map<string, StoredAnswer>;
  /** Open lots of each account. */
  exposure: Map<string, Exposure[]>;
  /** Ids reserved for the batch's new positions and orders (`orders` of each). */
  positionIds: number[];
  orderIds: number[];
};

/** The key of a stored answer in BatchState.answers. */
export const answerKey = (uuid: string, clientOrderId: string) => `${uuid}\u0000${clientOrderId}`;

/**
 * Locks the accounts `uuids` (sorted, as the writer's batches are: one lock order on every
 * node) and reads the stored answers under `keys`, the accounts' exposure and `orders` ids
 * each of positions and orders, in one call.
 */
export async function lockAndReadBatch(
  tx: Db,
  uuids: readonly string[],
  keys: readonly { uuid: string; clientOrderId: string }[],
  orders: number,
): Promise<BatchState> {
  const wanted = keys.map((k) => ({ uuid: k.uuid, client_order_id: k.clientOrderId }));
  const [locked, read] = await rawQueries(tx, [
    [LOCK_BATCH, [JSON.stringify(uuids)]],
    [READ_BATCH, [JSON.stringify(wanted), JSON.stringify(uuids), orders]],
  ]);
  const row = read?.[0] ?? {};
  const answers = new Map<string, StoredAnswer>();
  for (const a of (row.answers as SqlRow[] | undefined) ?? []) {
    answers.set(answerKey(String(a.uuid), String(a.clientOrderId)), answerOfRaw(a));
  }
  const exposure = new Map<string, Exposure[]>();
  for (const e of (row.exposure as SqlRow[] | undefined) ?? []) {
    const uuid = String(e.uuid);
    exposure.set(uuid, [...(exposure.get(uuid) ?? []), ...exposureOfRows([e])]);
  }
  const ids = (v: unknown) => ((v as unknown[] | null) ?? []).map(Number);
  return {
    accounts: new Map((locked ?? []).map((r) => [String(r.uuid), accountOfRaw(r)])),
    answers,
    exposure,
    positionIds: ids(row.position_ids),
    orderIds: ids(row.order_ids),
  };
}

// One statement for the batch: positions, exposure, balances with a ledger row each (the
// balance after it in the accounts' order of arrival), order log rows and their first events,
// stored answers.
const WRITE_BATCH = `
with fill as (
  select * from json_to_recordset($1::json) as f(ord int, id bigint, uuid text, symbol text,
    cmd smallint, volume numeric, price numeric, tp numeric, sl numeric,
    commission_fee numeric, currency text, comment text, client_order_id text,
    created_at bigint, commission numeric)
), pos as (
  insert into positions (id, uuid, symbol, cmd, volume, price, tp, sl, commission_fee,
    currency, comment, client_order_id, pending_id, status, created_at)
  overriding system value
  select id, uuid, symbol, cmd, volume, price, tp, sl, commission_fee, currency, comment,
    client_order_id, null, 'open', created_at
  from fill order by ord
), exposure as (
  insert into account_exposure (uuid, symbol, cmd, volume, notional)
  select uuid, symbol, cmd, sum(volume), sum(volume * price) from fill
  group by uuid, symbol, cmd
  on conflict (uuid, symbol, cmd) do update
    set volume = account_exposure.volume + excluded.volume,
        notional = account_exposure.notional + excluded.notional
), money as (
  select fill.ord, fill.uuid, fill.id, fill.commission, fill.created_at,
    a.balance + sum(fill.commission) over (partition by fill.uuid order by fill.ord)
      as balance_after
  from fill join trading_accounts a on a.uuid = fill.uuid
  where fill.commission <> 0
), account as (
  update trading_accounts a
    set balance = a.balance + m.total, commission_paid = a.commission_paid - m.total,
        updated_at = m.at
  from (select uuid, sum(commission) as total, max(created_at) as at from money group by uuid) m
  where a.uuid = m.uuid
), ledger as (
  insert into account_ledger (uuid, kind, amount, balance_after, position_id, created_at)
  select uuid, 'commission', commission, balance_after, id, created_at from money order by ord
), orders as (
  select * from json_to_recordset($2::json) as o(ord int, id bigint, uuid text, symbol text,
    cmd smallint, action_type smallint, order_type smallint, volume numeric, price numeric,
    market_price numeric, order_status smallint, created_at bigint, commission_fee numeric,
    currency text, tp numeric, sl numeric, position_id bigint, pending_id bigint,
    message text, client_order_id text, type text, from_state text, state text,
    event_price numeric, event_market_price numeric, event_commission_fee numeric,
    requested_price numeric)
), log as (
  insert into order_logs (id, uuid, symbol, cmd, action_type, order_type, volume, price,
    market_price, order_status, created_at, transact_time, commission_fee, currency, tp, sl,
    position_id, pending_id, message, client_order_id)
  overriding system value
  select id, uuid, symbol, cmd, action_type, order_type, volume, price, market_price,
    order_status, created_at, created_at, commission_fee, currency, tp, sl, position_id,
    pending_id, message, client_order_id
  from orders order by ord
), event as (
  insert into order_events (uuid, order_id, type, from_state, state, symbol, pending_id,
    position_id, price, market_price, commission_fee, message, at, cmd, action_type,
    order_type, volume, requested_price, currency, tp, sl, client_order_id)
  select uuid, id, type, from_state, state, symbol, pending_id, position_id, event_price,
    event_market_price, event_commission_fee, message, created_at, cmd, action_type,
    order_type, volume, requested_price, currency, tp, sl, client_order_id
  from orders order by ord
), answer as (
  insert into idempotency_keys (uuid, client_order_id, endpoint, fingerprint, http_status,
    body, created_at)
  select uuid, client_order_id, endpoint, fingerprint, http_status, body, created_at
  from json_to_recordset($3::json) as k(uuid text, client_order_id text, endpoint text,
    fingerprint text, http_status integer, body json, created_at bigint)
)
select 1 as written`;

/** A batch's rows, in its order; see batchRows. */
export type BatchRows = {
  fills: Record<string, unknown>[];
  orders: Record<string, unknown>[];
  answers: Record<string, unknown>[];
};

export const emptyBatchRows = (): BatchRows => ({ fills: [], orders: [], answers: [] });

// the columns of the orders' JSON rows, in firstEventParams' order
const EVENT_COLUMNS = [
  'uuid',
  'symbol',
  'cmd',
  'action_type',
  'order_type',
  'volume',
  'price',
  'market_price',
  'order_status',
  'created_at',
  'commission_fee',
  'currency',
  'tp',
  'sl',
  'pending_id',
  'message',
  'client_order_id',
  'type',
  'from_state',
  'state',
  'event_price',
  'event_market_price',
  'event_commission_fee',
  'requested_price',
] as const;

/**
 * Adds an order to `rows`: its log row `row` and first event `e` under the reserved id
 * `orderId`, and (a fill) the position it opens under its reserved id with the commission
 * booked on the balance (account currency, negative).
 */
export function addBatchOrder(
  rows: BatchRows,
  order: { orderId: number; e: NewOrderEvent; row: Omit<OrderLog, 'id'> },
  fill: { id: number; position: NewPosition; commission: number } | null,
): void {
  const ord = rows.orders.length;
  const params = firstEventParams(order.e, order.row);
  rows.orders.push({
    ord,
    id: order.orderId,
    position_id: order.row.positionId,
    ...Object.fromEntries(EVENT_COLUMNS.map((column, i) => [column, params[i]])),
  });
  if (!fill) return;
  const p = fill.position;
  rows.fills.push({
    ord,
    id: fill.id,
    uuid: p.uuid,
    symbol: p.symbol,
    cmd: p.cmd,
    volume: dec(p.volume),
    price: dec(p.price),
    tp: dec(p.tp),
    sl: dec(p.sl),
    commission_fee: dec(p.commissionFee),
    currency: p.currency,
    comment: p.comment,
    client_order_id: p.clientOrderId,
    created_at: p.createdAt,
    commission: dec(fill.commission),
  });
}

/** Adds an answer stored under its key to `rows`. */
export function addBatchAnswer(
  rows: BatchRows,
  key: { uuid: string; clientOrderId: string; nowMs: number },
  answer: StoredAnswer,
): void {
  rows.answers.push({
    uuid: key.uuid,
    client_order_id: key.clientOrderId,
    endpoint: answer.endpoint,
    fingerprint: answer.fingerprint,
    http_status: answer.httpStatus,
    body: answer.body,
    created_at: key.nowMs,
  });
}

/** Writes a batch's rows in one statement and commits (nothing but the COMMIT when empty). */
export async function writeBatchAndCommit(tx: Db, rows: BatchRows): Promise<void> {
  const empty = rows.orders.length === 0 && rows.answers.length === 0;
  await rawQueriesThenCommit(
    tx,
    empty
      ? []
      : [
          [
            WRITE_BATCH,
            [JSON.stringify(rows.fills), JSON.stringify(rows.orders), JSON.stringify(rows.answers)],
          ],
        ],
  );
}
