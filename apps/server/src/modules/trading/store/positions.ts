import { asLots, asPrice, type Lots, type Of, type Price } from '@ct/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { rawQuery, type SqlRow } from '../../../db/raw.ts';
import type { Db } from '../../../db/types.ts';
import { positions, type PositionRow } from '../../../db/schema.ts';
import {
  firstEventOfOpenedPosition,
  firstEventParams,
  type NewOrderEvent,
  type OrderLog,
} from './history.ts';
import { dec, idArray, num } from './values.ts';

/* SQL of the positions: opened, closed in parts, TP/SL edited; exposure for margin. */

export type Position = {
  id: number;
  uuid: string;
  symbol: string;
  cmd: number;
  volume: Lots;
  settledVol: Lots;
  price: Price;
  tp: number;
  sl: number;
  commissionFee: number;
  storage: number;
  currency: string;
  comment: string;
  clientOrderId: string | null;
  pendingId: number | null;
  status: 'open' | 'closed';
  closeType: number;
  version: number;
  createdAt: number;
  closedAt: number | null;
};

function toPosition(row: PositionRow): Position {
  return {
    ...row,
    volume: asLots(num(row.volume)),
    settledVol: asLots(num(row.settledVol)),
    price: asPrice(num(row.price)),
    tp: num(row.tp),
    sl: num(row.sl),
    commissionFee: num(row.commissionFee),
    storage: num(row.storage),
    status: row.status === 'closed' ? 'closed' : 'open',
  };
}

/** A positions row as the driver reads it (snake_case, numerics as text). */
function positionOfRaw(r: SqlRow): Position {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const n = (v: unknown) => num(text(v));
  return {
    id: Number(r.id),
    uuid: String(r.uuid),
    symbol: String(r.symbol),
    cmd: Number(r.cmd),
    volume: asLots(n(r.volume)),
    settledVol: asLots(n(r.settled_vol)),
    price: asPrice(n(r.price)),
    tp: n(r.tp),
    sl: n(r.sl),
    commissionFee: n(r.commission_fee),
    storage: n(r.storage),
    currency: String(r.currency),
    comment: String(r.comment),
    clientOrderId: text(r.client_order_id),
    pendingId: r.pending_id === null ? null : Number(r.pending_id),
    status: r.status === 'closed' ? 'closed' : 'open',
    closeType: Number(r.close_type),
    version: Number(r.version),
    createdAt: Number(r.created_at),
    closedAt: r.closed_at === null ? null : Number(r.closed_at),
  };
}

export type NewPosition = {
  uuid: string;
  symbol: string;
  cmd: number;
  volume: Of<Lots>;
  price: Of<Price>;
  tp: number;
  sl: number;
  commissionFee: number;
  currency: string;
  comment: string;
  clientOrderId: string | null;
  pendingId: number | null;
  createdAt: number;
};

// One statement opens a position: its row, the account's exposure, and the open
// commission off the balance with its ledger row (none when the commission is 0).
const OPEN_POSITION_CTES = `
with pos as (
  insert into positions (uuid, symbol, cmd, volume, price, tp, sl, commission_fee, currency,
    comment, client_order_id, pending_id, status, created_at)
  values ($1::text, $2::text, $3::smallint, $4::numeric, $5::numeric, $6::numeric, $7::numeric,
    $8::numeric, $9::text, $10::text, $11::text, $12::bigint, 'open', $13::bigint)
  returning *
), exposure as (
  insert into account_exposure (uuid, symbol, cmd, volume, notional)
  select uuid, symbol, cmd, volume, volume * price from pos
  on conflict (uuid, symbol, cmd) do update
    set volume = account_exposure.volume + excluded.volume,
        notional = account_exposure.notional + excluded.notional
), account as (
  update trading_accounts
    set balance = balance + $14::numeric, commission_paid = commission_paid - $14::numeric,
        updated_at = $13::bigint
  where uuid = $1::text and $14::numeric <> 0
  returning balance
), ledger as (
  insert into account_ledger (uuid, kind, amount, balance_after, position_id, created_at)
  select $1::text, 'commission', $14::numeric, account.balance, pos.id, $13::bigint
  from account, pos
)`;

const OPEN_POSITION = `${OPEN_POSITION_CTES}
select * from pos`;

// The same with the market order that opens it: its log row and first event ($15 on).
const OPEN_POSITION_WITH_ORDER = `${OPEN_POSITION_CTES}, ${firstEventOfOpenedPosition(14)}
select pos.*, event.order_id from pos, event`;

function openParams(p: NewPosition, commission: number): unknown[] {
  return [
    p.uuid,
    p.symbol,
    p.cmd,
    dec(p.volume),
    dec(p.price),
    dec(p.tp),
    dec(p.sl),
    dec(p.commissionFee),
    p.currency,
    p.comment,
    p.clientOrderId,
    p.pendingId,
    p.createdAt,
    dec(commission),
  ];
}

/**
 * Opens a position: its row, the account's exposure, and `commission` (account currency,
 * negative) booked on the balance with a ledger row, in one statement.
 */
export async function insertPosition(
  tx: Db,
  p: NewPosition,
  commission: number,
): Promise<Position> {
  const [row] = await rawQuery(tx, OPEN_POSITION, openParams(p, commission));
  if (!row) throw new Error('position insert returned no row');
  return positionOfRaw(row);
}

/**
 * Opens a position as insertPosition does and, in the same statement, logs the new market
 * order that opens it: the order's first event `e` and its log row `row` (built from `e`;
 * their position: the new one). The position and the order's id.
 */
export async function insertPositionWithOrder(
  tx: Db,
  p: NewPosition,
  commission: number,
  e: NewOrderEvent,
  row: Omit<OrderLog, 'id'>,
): Promise<{ position: Position; orderId: number }> {
  const [out] = await rawQuery(tx, OPEN_POSITION_WITH_ORDER, [
    ...openParams(p, commission),
    ...firstEventParams(e, row),
  ]);
  if (!out) throw new Error('position insert returned no row');
  return { position: positionOfRaw(out), orderId: Number(out.order_id) };
}

/**
 * The position `p` opens under the id `id` as its row reads back (the columns' scales and
 * defaults): a batch of orders writes its rows without reading them (store/batch.ts).
 */
export function positionOfNew(id: number, p: NewPosition): Position {
  const scaled = (value: number, places: number) => Number(value.toFixed(places));
  return {
    id,
    uuid: p.uuid,
    symbol: p.symbol,
    cmd: p.cmd,
    volume: asLots(scaled(p.volume, 8)),
    settledVol: asLots(0),
    price: asPrice(scaled(p.price, 10)),
    tp: scaled(p.tp, 10),
    sl: scaled(p.sl, 10),
    commissionFee: scaled(p.commissionFee, 2),
    storage: 0,
    currency: p.currency,
    comment: p.comment,
    clientOrderId: p.clientOrderId,
    pendingId: p.pendingId,
    status: 'open',
    closeType: 0,
    version: 0,
    createdAt: p.createdAt,
    closedAt: null,
  };
}

/** A position of this account, locked for the transaction. */
export async function lockPosition(tx: Db, uuid: string, id: number): Promise<Position | null> {
  const [row] = await tx
    .select()
    .from(positions)
    .where(and(eq(positions.id, id), eq(positions.uuid, uuid)))
    .for('update');
  return row ? toPosition(row) : null;
}

export async function findPosition(db: Db, id: number): Promise<Position | null> {
  const [row] = await db.select().from(positions).where(eq(positions.id, id));
  return row ? toPosition(row) : null;
}

// A close: the position's settled volume and status, and the account's exposure less the
// volume it closes (at the position's open price).
const CLOSE_POSITION = `
with before as (
  select settled_vol from positions where id = $1::bigint
), pos as (
  update positions
    set settled_vol = $3::numeric, status = $4::text, close_type = $5::smallint,
        closed_at = $6::bigint, version = version + 1
  where id = $1::bigint and status = 'open' and version = $2::integer
  returning *
), exposure as (
  update account_exposure e
    set volume = e.volume - (pos.settled_vol - before.settled_vol),
        notional = e.notional - (pos.settled_vol - before.settled_vol) * pos.price
  from pos, before
  where e.uuid = pos.uuid and e.symbol = pos.symbol and e.cmd = pos.cmd
)
select * from pos`;

/** Records a close on an open position at `version`; null when it changed meanwhile. */
export async function updatePositionClose(
  tx: Db,
  p: { id: number; version: number },
  change: {
    settledVol: number;
    status: 'open' | 'closed';
    closeType: number;
    closedAt: number | null;
  },
): Promise<Position | null> {
  const [row] = await rawQuery(tx, CLOSE_POSITION, [
    p.id,
    p.version,
    dec(change.settledVol),
    change.status,
    change.closeType,
    change.closedAt,
  ]);
  return row ? positionOfRaw(row) : null;
}

/** Sets TP and SL of an open position at `version`; null when it changed meanwhile. */
export async function updatePositionExits(
  tx: Db,
  p: { id: number; version: number },
  exits: { tp: number; sl: number },
): Promise<Position | null> {
  const [row] = await tx
    .update(positions)
    .set({ tp: dec(exits.tp), sl: dec(exits.sl), version: sql`${positions.version} + 1` })
    .where(
      and(eq(positions.id, p.id), eq(positions.status, 'open'), eq(positions.version, p.version)),
    )
    .returning();
  return row ? toPosition(row) : null;
}

export async function listOpenPositions(db: Db, uuid: string): Promise<Position[]> {
  const rows = await db
    .select()
    .from(positions)
    .where(and(eq(positions.uuid, uuid), eq(positions.status, 'open')))
    .orderBy(desc(positions.id));
  return rows.map(toPosition);
}

// literals, not parameters: the partial index positions_protected_idx has this condition,
// and a plan made for any parameter values could not use it
const isProtected = sql`${positions.status} = 'open' and (${positions.tp} > 0 or ${positions.sl} > 0)`;

/** Open positions with a TP or SL, of every account (the trigger engine's start). */
export async function listProtectedPositions(db: Db): Promise<Position[]> {
  const rows = await db.select().from(positions).where(isProtected);
  return rows.map(toPosition);
}

/** Those of the positions `ids` that are open with a TP or SL. */
export async function listProtectedPositionsById(
  db: Db,
  ids: readonly number[],
): Promise<Position[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(positions)
    .where(and(sql`${positions.id} = any(${idArray(ids)}::bigint[])`, isProtected));
  return rows.map(toPosition);
}

export type Exposure = {
  symbol: string;
  cmd: number;
  /** Open lots. */
  volume: number;
  /** Σ open lots × open price. */
  notional: number;
};

const EXPOSURE = `
select symbol, cmd, volume::text as volume, notional::text as notional
from account_exposure where uuid = $1::text and volume > 0`;

/** Open lots and lots × price of an account per symbol and side (margin and P&L in bulk). */
export async function accountExposure(db: Db, uuid: string): Promise<Exposure[]> {
  return exposureOfRows(await rawQuery(db, EXPOSURE, [uuid]));
}

/** Exposure rows ({ symbol, cmd, volume, notional } with numerics as text) as numbers. */
export function exposureOfRows(rows: readonly SqlRow[]): Exposure[] {
  return rows.map((r) => ({
    symbol: String(r.symbol),
    cmd: Number(r.cmd),
    volume: Number(r.volume),
    notional: Number(r.notional),
  }));
}
