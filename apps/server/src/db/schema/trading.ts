import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  json,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { traders } from './identity.ts';

/*
 * The paper-trading venue. Money is numeric (exact decimal, 2 places), prices and volumes
 * numeric with enough places for the finest tick (0.00001) and step (0.01); drizzle reads
 * numeric as strings, the store turns them into numbers. Times are epoch milliseconds
 * (the API shows epoch seconds). Ids are bigint identities: unique and increasing.
 */
const epochMs = (name: string) => bigint(name, { mode: 'number' });
const id = (name: string) => bigint(name, { mode: 'number' });
const money = (name: string) => numeric(name, { precision: 20, scale: 2 });
const price = (name: string) => numeric(name, { precision: 30, scale: 10 });
const volume = (name: string) => numeric(name, { precision: 20, scale: 8 });

/*
 * ACCOUNT_ROWS_WITHOUT_FK: the rows every order or close writes (positions, order log rows,
 * order events, ledger rows, the stored answer of its clientOrderId, the account's exposure,
 * settlements) name their account (and a settlement its position) without a foreign key
 * (migrations 0012 and 0013). Each is written only by the trading pipeline after it has
 * locked the account's row FOR UPDATE in the same transaction (modules/trading/pipeline.ts),
 * so the account exists and cannot go away before the commit; accounts and positions are
 * never deleted. A foreign key would check it again per row: six queries inside PostgreSQL
 * on every market order, about a fifth of its cost. Pending orders, written less often,
 * keep theirs.
 */

/** One paper account per trading account (trader); created on its first trading call. */
export const tradingAccounts = pgTable('trading_accounts', {
  uuid: text('uuid')
    .primaryKey()
    .references(() => traders.uuid, { onDelete: 'cascade' }),
  currency: text('currency').notNull().default('USD'),
  startingBalance: money('starting_balance').notNull(),
  /** Starting balance + realized P&L − commissions (always equal to the ledger's sum). */
  balance: money('balance').notNull(),
  realizedPnl: money('realized_pnl').notNull().default('0'),
  commissionPaid: money('commission_paid').notNull().default('0'),
  /**
   * The margin level was below the warning level at the last look of the trigger engine's
   * margin watch (margin-watch.ts): flipped by a conditional update, so a crossing below is
   * told once, whichever feed saw it.
   */
  marginWarned: boolean('margin_warned').notNull().default(false),
  createdAt: epochMs('created_at').notNull(),
  updatedAt: epochMs('updated_at').notNull(),
});

/** Positions ("orders" of the positions call); `id` is the orderId. */
export const positions = pgTable(
  'positions',
  {
    id: id('id').primaryKey().generatedAlwaysAsIdentity(),
    // the account (no foreign key: written only under its lock, see ACCOUNT_ROWS_WITHOUT_FK)
    uuid: text('uuid').notNull(),
    symbol: text('symbol').notNull(),
    cmd: smallint('cmd').notNull(),
    volume: volume('volume').notNull(),
    settledVol: volume('settled_vol').notNull().default('0'),
    price: price('price').notNull(),
    tp: price('tp').notNull().default('0'),
    sl: price('sl').notNull().default('0'),
    /** Open commission of the whole volume, instrument currency. */
    commissionFee: money('commission_fee').notNull(),
    storage: money('storage').notNull().default('0'),
    currency: text('currency').notNull(),
    comment: text('comment').notNull().default(''),
    clientOrderId: text('client_order_id'),
    pendingId: id('pending_id'),
    /** open | closed */
    status: text('status').notNull(),
    closeType: smallint('close_type').notNull().default(0),
    /** Grows with every change; conditional updates check it. */
    version: integer('version').notNull().default(0),
    createdAt: epochMs('created_at').notNull(),
    closedAt: epochMs('closed_at'),
  },
  (t) => [
    index('positions_uuid_status_idx').on(t.uuid, t.status),
    index('positions_open_symbol_idx')
      .on(t.symbol)
      .where(sql`${t.status} = 'open'`),
    // the trigger engine's reload reads these every few seconds: without it, every open
    // position of every account (most have no TP/SL)
    index('positions_protected_idx')
      .on(t.id)
      .where(sql`${t.status} = 'open' and (${t.tp} > 0 or ${t.sl} > 0)`),
    check('positions_cmd', sql`${t.cmd} in (1, 2)`),
    check('positions_status', sql`${t.status} in ('open', 'closed')`),
    check('positions_volume', sql`${t.volume} > 0`),
    check('positions_settled_vol', sql`${t.settledVol} >= 0 and ${t.settledVol} <= ${t.volume}`),
  ],
);

/** Pending (limit and stop) orders; `id` is the pId. */
export const pendingOrders = pgTable(
  'pending_orders',
  {
    id: id('id').primaryKey().generatedAlwaysAsIdentity(),
    uuid: text('uuid')
      .notNull()
      .references(() => tradingAccounts.uuid, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    cmd: smallint('cmd').notNull(),
    volume: volume('volume').notNull(),
    pendPrice: price('pend_price').notNull(),
    tp: price('tp').notNull().default('0'),
    sl: price('sl').notNull().default('0'),
    /** GFD | GTC */
    expireType: text('expire_type').notNull(),
    expiresAt: epochMs('expires_at'),
    /** limit | stop (domain triggers.ts) */
    triggerType: text('trigger_type').notNull(),
    /** working | filled | canceled | expired | rejected */
    status: text('status').notNull(),
    positionId: id('position_id'),
    comment: text('comment').notNull().default(''),
    clientOrderId: text('client_order_id'),
    version: integer('version').notNull().default(0),
    createdAt: epochMs('created_at').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [
    index('pending_orders_uuid_status_idx').on(t.uuid, t.status),
    index('pending_orders_working_symbol_idx')
      .on(t.symbol)
      .where(sql`${t.status} = 'working'`),
    check('pending_orders_cmd', sql`${t.cmd} in (1, 2)`),
    check(
      'pending_orders_status',
      sql`${t.status} in ('working', 'filled', 'canceled', 'expired', 'rejected')`,
    ),
  ],
);

/** Settled parts of positions (the settles call); `id` is tradeId and sortId. */
export const settlements = pgTable(
  'settlements',
  {
    id: id('id').primaryKey().generatedAlwaysAsIdentity(),
    // no foreign keys: written only under the account's lock, see ACCOUNT_ROWS_WITHOUT_FK
    positionId: id('position_id').notNull(),
    uuid: text('uuid').notNull(),
    symbol: text('symbol').notNull(),
    openCmd: smallint('open_cmd').notNull(),
    closeCmd: smallint('close_cmd').notNull(),
    openPrice: price('open_price').notNull(),
    closePrice: price('close_price').notNull(),
    settleVolume: volume('settle_volume').notNull(),
    /** 1 partial, 2 full */
    isSettled: smallint('is_settled').notNull(),
    /** yyyymmdd of the close, UTC */
    settleDate: integer('settle_date').notNull(),
    /** Gross profit, instrument currency. */
    settleProfit: money('settle_profit').notNull(),
    /** Gross profit in the account currency at the close's conversion rate. */
    accountProfit: money('account_profit').notNull(),
    openAt: epochMs('open_at').notNull(),
    closeAt: epochMs('close_at').notNull(),
    openCommission: money('open_commission').notNull(),
    closeCommission: money('close_commission').notNull(),
    currency: text('currency').notNull(),
    /** 0 manual, 1 take-profit, 2 stop-loss, 3 stop-out */
    closeReason: smallint('close_reason').notNull(),
    closeType: smallint('close_type').notNull().default(0),
  },
  (t) => [
    index('settlements_uuid_id_idx').on(t.uuid, t.id),
    index('settlements_position_idx').on(t.positionId),
  ],
);

/** The order log: one row per order (market, pending, closing), its status kept current. */
export const orderLogs = pgTable(
  'order_logs',
  {
    id: id('id').primaryKey().generatedAlwaysAsIdentity(),
    // the account (no foreign key: written only under its lock, see ACCOUNT_ROWS_WITHOUT_FK)
    uuid: text('uuid').notNull(),
    symbol: text('symbol').notNull(),
    cmd: smallint('cmd').notNull(),
    /** 1 open, 2 close */
    actionType: smallint('action_type').notNull(),
    /** 1 market, 2 pending */
    orderType: smallint('order_type').notNull(),
    volume: volume('volume').notNull(),
    price: price('price').notNull(),
    marketPrice: price('market_price').notNull(),
    /** 0 pending, 1 rejected, 2 filled, 4 canceled */
    orderStatus: smallint('order_status').notNull(),
    createdAt: epochMs('created_at').notNull(),
    transactTime: epochMs('transact_time').notNull(),
    commissionFee: money('commission_fee').notNull().default('0'),
    currency: text('currency').notNull(),
    tp: price('tp').notNull().default('0'),
    sl: price('sl').notNull().default('0'),
    positionId: id('position_id'),
    pendingId: id('pending_id'),
    message: text('message').notNull().default(''),
    clientOrderId: text('client_order_id'),
  },
  (t) => [
    index('order_logs_uuid_id_idx').on(t.uuid, t.id),
    // the log rows of pending orders only: a market order's row adds no entry
    index('order_logs_pending_idx')
      .on(t.pendingId)
      .where(sql`${t.pendingId} is not null`),
  ],
);

/**
 * Every change of an order, appended in the transaction that made it and never updated:
 * OrderAccepted, OrderFilled, OrderCanceled, OrderExpired, OrderRejected. The order log is
 * their projection: an order's first event carries every column of its log row (inserted
 * from it), a later event what it changes (the row is updated from it); see order-events.ts.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: id('id').primaryKey().generatedAlwaysAsIdentity(),
    // the account (no foreign key: written only under its lock, see ACCOUNT_ROWS_WITHOUT_FK)
    uuid: text('uuid').notNull(),
    /** The order: its order log row's id. */
    orderId: id('order_id').notNull(),
    /** Past-tense event name (domain orderEventName). */
    type: text('type').notNull(),
    /** The order's state after the event (domain OrderState). */
    state: text('state').notNull(),
    /** The fill price of OrderFilled; null otherwise. */
    price: price('price'),
    positionId: id('position_id'),
    message: text('message').notNull().default(''),
    at: epochMs('at').notNull(),
    /** The order's state before the event: 'submitted' for the event that creates the order. */
    fromState: text('from_state'),
    symbol: text('symbol'),
    /** The pending order the order belongs to (how a later event finds its log row). */
    pendingId: id('pending_id'),
    /** The quote on the order's side when it was placed or filled; null: unchanged. */
    marketPrice: price('market_price'),
    /** Commission of a fill, instrument currency; null: unchanged. */
    commissionFee: money('commission_fee'),
    // The order itself, carried by its first event only (null on later events):
    cmd: smallint('cmd'),
    actionType: smallint('action_type'),
    orderType: smallint('order_type'),
    volume: volume('volume'),
    /** The order's own price: a pending order's price, 0 for a market order. */
    requestedPrice: price('requested_price'),
    currency: text('currency'),
    tp: price('tp'),
    sl: price('sl'),
    clientOrderId: text('client_order_id'),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
);

/**
 * Open lots of an account per symbol and side, and Σ open lots × open price, kept with
 * every open and close in the same statement: the margin check of an order reads these few
 * rows instead of summing every open position.
 */
export const accountExposure = pgTable(
  'account_exposure',
  {
    // the account (no foreign key: written only under its lock, see ACCOUNT_ROWS_WITHOUT_FK)
    uuid: text('uuid').notNull(),
    symbol: text('symbol').notNull(),
    cmd: smallint('cmd').notNull(),
    /** Σ (volume − settled_vol) of the open positions. */
    volume: numeric('volume').notNull(),
    /** Σ (volume − settled_vol) × price of the open positions (exact). */
    notional: numeric('notional').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.symbol, t.cmd] })],
);

/** Every change of an account's balance, in the account currency. */
export const accountLedger = pgTable(
  'account_ledger',
  {
    id: id('id').primaryKey().generatedAlwaysAsIdentity(),
    // the account (no foreign key: written only under its lock, see ACCOUNT_ROWS_WITHOUT_FK)
    uuid: text('uuid').notNull(),
    /** deposit | realized_pnl | commission */
    kind: text('kind').notNull(),
    amount: money('amount').notNull(),
    balanceAfter: money('balance_after').notNull(),
    positionId: id('position_id'),
    settlementId: id('settlement_id'),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [index('account_ledger_uuid_idx').on(t.uuid, t.id)],
);

/**
 * Answers of mutations that carried a clientOrderId, stored in the transaction of the
 * change itself: a retry returns the stored answer instead of acting again.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    // the account (no foreign key: written only under its lock, see ACCOUNT_ROWS_WITHOUT_FK)
    uuid: text('uuid').notNull(),
    clientOrderId: text('client_order_id').notNull(),
    /** The call (e.g. 'open') and a hash of its parameters: reuse for another request fails. */
    endpoint: text('endpoint').notNull(),
    fingerprint: text('fingerprint').notNull(),
    httpStatus: integer('http_status').notNull(),
    body: json('body').notNull(),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.clientOrderId] })],
);

export type TradingAccountRow = typeof tradingAccounts.$inferSelect;
export type PositionRow = typeof positions.$inferSelect;
export type PendingOrderRow = typeof pendingOrders.$inferSelect;
export type SettlementRow = typeof settlements.$inferSelect;
export type OrderLogRow = typeof orderLogs.$inferSelect;
