import type {
  OrderLogView,
  PendingView,
  PositionView,
  SettleView,
  TradingPageQuery,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import type { TradingContext } from './context.ts';
import { markQuote } from './pricing.ts';
import {
  countOrderLogs,
  countSettlements,
  listOrderLogs,
  listSettlements,
} from './store/history.ts';
import { listWorkingPendings } from './store/pendings.ts';
import { listOpenPositions } from './store/positions.ts';
import { orderLogView, pendingView, positionView, settleView } from './views.ts';

/*
 * The read calls of the trading table. Each is one small query with no side effects beyond
 * creating the paper account on its first use, so they share this file.
 */

/** Open positions, newest first, valued at the current quotes. */
export async function listPositions(
  ctx: TradingContext,
  trader: TraderRow,
): Promise<PositionView[]> {
  const nowMs = ctx.now();
  const rows = await listOpenPositions(ctx.db, trader.uuid);
  return rows.map((p) =>
    positionView(p, ctx.market.instrument(p.symbol), markQuote(ctx.market, p.symbol, nowMs)),
  );
}

/** Working pending orders, newest first. */
export async function listPendings(ctx: TradingContext, trader: TraderRow): Promise<PendingView[]> {
  return (await listWorkingPendings(ctx.db, trader.uuid)).map(pendingView);
}

/** `total` counts every row of the account, not only this page's. */
export type Page<T> = { rows: T[]; lastSortId: number; total: number };

/** A page of settlements, newest first; `lastSortId` of the answer pages on (-1 at the end). */
export async function listSettles(
  ctx: TradingContext,
  trader: TraderRow,
  page: TradingPageQuery,
): Promise<Page<SettleView>> {
  const [rows, total] = await Promise.all([
    listSettlements(ctx.db, trader.uuid, page.lastSortId, page.limit),
    countSettlements(ctx.db, trader.uuid),
  ]);
  return {
    rows: rows.map(settleView),
    lastSortId: rows.length === page.limit ? (rows.at(-1)?.id ?? -1) : -1,
    total,
  };
}

/** A page of the order log, newest first, paged like the settlements. */
export async function listLogs(
  ctx: TradingContext,
  trader: TraderRow,
  page: TradingPageQuery,
): Promise<Page<OrderLogView>> {
  const [rows, total] = await Promise.all([
    listOrderLogs(ctx.db, trader.uuid, page.lastSortId, page.limit),
    countOrderLogs(ctx.db, trader.uuid),
  ]);
  return {
    rows: rows.map(orderLogView),
    lastSortId: rows.length === page.limit ? (rows.at(-1)?.id ?? -1) : -1,
    total,
  };
}
