import {
  ACTION,
  CLOSE_REASON,
  availableVolume,
  closeReasonLabel,
  closingCmd,
  closingPrice,
  commissionFor,
  isFullClose,
  positionTransition,
  profitLoss,
  roundLots,
  roundMoney,
  settleDateOf,
  sideOfCmd,
  type CloseReason,
  type ConversionQuotes,
  type SimQuote,
  type Lots,
  type Of,
  type Price,
} from '@ct/domain';
import type { CatalogueInstrument } from '../market/catalogue.ts';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import type { Journal } from './journal.ts';
import { toUsd } from './pricing.ts';
import {
  movePendingOrder,
  openPositionWithOrder,
  recordNewOrder,
  type NewOrder,
} from './order-events.ts';
import { applyBalance } from './store/accounts.ts';
import { insertSettlement, type Settlement } from './store/history.ts';
import type { Pending } from './store/pendings.ts';
import {
  insertPosition,
  updatePositionClose,
  type NewPosition,
  type Position,
} from './store/positions.ts';

/** Order log orderType: 1 market, 2 pending. */
export const ORDER_TYPE = { market: 1, pending: 2 } as const;

/** Text of the order log's `message` for a close reason: none for the trader's own close. */
export function closeReasonText(reason: CloseReason): string {
  return reason === CLOSE_REASON.manual ? '' : closeReasonLabel(reason);
}

export type OpenArgs = {
  uuid: string;
  instrument: CatalogueInstrument;
  cmd: 1 | 2;
  volume: Of<Lots>;
  /** Fill price: the ask for a buy, the bid for a sell. */
  price: Of<Price>;
  tp: number;
  sl: number;
  comment: string;
  clientOrderId: string | null;
  /** The locked pending order that fills, if any: its order (log row) becomes the fill's. */
  pending: Pending | null;
  nowMs: number;
  quotes: ConversionQuotes;
};

/**
 * Opens a position inside the caller's transaction: the position row, the open commission
 * off the balance (ledger), and the order log (a new row, or the pending order's row moved
 * to Filled).
 */
export async function openPosition(
  journal: Journal,
  ctx: TradingContext,
  a: OpenArgs,
): Promise<Position> {
  const { tx } = journal;
  const fill = positionFill(ctx, a);
  if (a.pending === null) {
    // A new market order: the position and the order's event and log row in one statement.
    return openPositionWithOrder(journal, fill.position, fill.commission, marketOrderOf(a, fill));
  }
  const position = await insertPosition(tx, fill.position, fill.commission);
  await movePendingOrder(journal, a.pending, 'Filled', {
    transactTime: a.nowMs,
    message: '',
    price: a.price,
    marketPrice: a.price,
    commissionFee: fill.position.commissionFee,
    positionId: position.id,
  });
  return position;
}

/**
 * What opening a position writes: its row and the open commission booked on the balance
 * (account currency, negative).
 */
export function positionFill(
  ctx: TradingContext,
  a: OpenArgs,
): { position: NewPosition; commission: number } {
  const commission = commissionFor(a.volume, a.instrument.commission_per_lot);
  const commissionUsd = toUsd(ctx.market, a.nowMs, commission, a.instrument.currency, a.quotes);
  return {
    position: {
      uuid: a.uuid,
      symbol: a.instrument.symbol,
      cmd: a.cmd,
      volume: a.volume,
      price: a.price,
      tp: a.tp,
      sl: a.sl,
      commissionFee: commission,
      currency: a.instrument.currency,
      comment: a.comment,
      clientOrderId: a.clientOrderId,
      pendingId: a.pending?.id ?? null,
      createdAt: a.nowMs,
    },
    commission: -commissionUsd,
  };
}

/** The new market order (filled at once) that opens the position of `fill`. */
export function marketOrderOf(
  a: OpenArgs,
  fill: { position: NewPosition },
): Omit<NewOrder, 'positionId'> {
  return {
    uuid: a.uuid,
    symbol: a.instrument.symbol,
    cmd: a.cmd,
    actionType: ACTION.open,
    orderType: ORDER_TYPE.market,
    volume: a.volume,
    requestedPrice: 0,
    fillPrice: a.price,
    marketPrice: a.price,
    nowMs: a.nowMs,
    commissionFee: fill.position.commissionFee,
    currency: a.instrument.currency,
    tp: a.tp,
    sl: a.sl,
    pendingId: null,
    message: '',
    clientOrderId: a.clientOrderId,
  };
}

export type SettleArgs = {
  /** An open position locked by the caller. */
  position: Position;
  instrument: CatalogueInstrument;
  /** Lots to close, already validated against the available volume. */
  volume: Of<Lots>;
  quote: SimQuote;
  reason: CloseReason;
  closeType: number;
  clientOrderId: string | null;
  nowMs: number;
  quotes: ConversionQuotes;
};

/**
 * Closes `volume` of a locked open position at the quote (a buy at the bid, a sell at the
 * ask) inside the caller's transaction: settledVol grows (the position closes when nothing
 * is left), a settlement is written with the profit (domain profitLoss) and both
 * commissions, realized P&L and the close commission are booked on the balance, and the
 * closing order is logged.
 */
export async function settlePosition(
  journal: Journal,
  ctx: TradingContext,
  a: SettleArgs,
): Promise<{ position: Position; settlement: Settlement }> {
  const { tx } = journal;
  const p = a.position;
  const side = sideOfCmd(p.cmd);
  const before = availableVolume(p);
  const full = isFullClose(a.volume, before);
  const settledVol = full ? p.volume : roundLots(p.settledVol + a.volume);
  const status = positionTransition(p.status, full ? 'FullyClosed' : 'PartiallyClosed');
  const closePrice = closingPrice(side, a.quote);
  const profit = profitLoss(side, p.price, closePrice, a.volume, a.instrument);
  const closeCommission = commissionFor(a.volume, a.instrument.commission_per_lot);
  // The open commission was charged at open; each settlement carries its share, and the
  // shares of one position add up to exactly the commission charged.
  const shareUpTo = (settled: number) =>
    settled >= p.volume ? p.commissionFee : roundMoney((p.commissionFee * settled) / p.volume);
  const openCommission = roundMoney(shareUpTo(settledVol) - shareUpTo(p.settledVol));

  const updated = await updatePositionClose(
    tx,
    { id: p.id, version: p.version },
    {
      settledVol,
      status,
      closeType: a.closeType,
      closedAt: status === 'closed' ? a.nowMs : null,
    },
  );
  if (!updated) throw new ConflictError(`Order ${p.id} changed while closing; try again`);

  const accountProfit = toUsd(ctx.market, a.nowMs, profit, a.instrument.currency, a.quotes);
  const settlement = await insertSettlement(tx, {
    positionId: p.id,
    uuid: p.uuid,
    symbol: p.symbol,
    openCmd: p.cmd,
    closeCmd: closingCmd(p.cmd),
    openPrice: p.price,
    closePrice,
    settleVolume: a.volume,
    isSettled: full ? 2 : 1,
    settleDate: settleDateOf(a.nowMs),
    settleProfit: profit,
    accountProfit,
    openAt: p.createdAt,
    closeAt: a.nowMs,
    openCommission,
    closeCommission,
    currency: a.instrument.currency,
    closeReason: a.reason,
    closeType: a.closeType,
    comment: p.comment,
  });
  await applyBalance(
    tx,
    p.uuid,
    [
      {
        kind: 'realized_pnl',
        amount: accountProfit,
        positionId: p.id,
        settlementId: settlement.id,
      },
      {
        kind: 'commission',
        amount: -toUsd(ctx.market, a.nowMs, closeCommission, a.instrument.currency, a.quotes),
        positionId: p.id,
        settlementId: settlement.id,
      },
    ],
    a.nowMs,
  );
  await recordNewOrder(
    journal,
    {
      uuid: p.uuid,
      symbol: p.symbol,
      cmd: closingCmd(p.cmd),
      actionType: ACTION.close,
      orderType: ORDER_TYPE.market,
      volume: a.volume,
      requestedPrice: 0,
      fillPrice: closePrice,
      marketPrice: closePrice,
      nowMs: a.nowMs,
      commissionFee: closeCommission,
      currency: a.instrument.currency,
      tp: p.tp,
      sl: p.sl,
      positionId: p.id,
      pendingId: null,
      message: closeReasonText(a.reason),
      clientOrderId: a.clientOrderId,
    },
    'Filled',
  );
  journal.record({ kind: 'settled', position: updated, settlement, at: a.nowMs });
  return { position: updated, settlement };
}
