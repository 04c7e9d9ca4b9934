import {
  toEpochSec,
  closingPrice,
  floatingProfit,
  sideOfCmd,
  type OrderLogView,
  type PendingView,
  type PositionView,
  type SettleView,
  type SimQuote,
} from '@ct/domain';
import type { CatalogueInstrument } from '../market/catalogue.ts';
import type { OrderLog, Settlement } from './store/history.ts';
import type { Pending } from './store/pendings.ts';
import type { Position } from './store/positions.ts';

/** Epoch milliseconds (storage) to epoch seconds (the API's unit). */
const idText = (id: number | null) => (id === null ? null : String(id));

/** A position as the positions call and the order helpers answer it, valued at `quote`. */
export function positionView(
  p: Position,
  instrument: CatalogueInstrument | null,
  quote: SimQuote | null,
): PositionView {
  const side = sideOfCmd(p.cmd);
  const open = p.status === 'open';
  return {
    orderId: String(p.id),
    uuid: p.uuid,
    symbol: p.symbol,
    cmd: p.cmd,
    volume: p.volume,
    settledVol: p.settledVol,
    price: p.price,
    marketPrice: quote ? closingPrice(side, quote) : p.price,
    tp: p.tp,
    sl: p.sl,
    floatProfit:
      open && quote && instrument
        ? floatingProfit(
            { side, price: p.price, volume: p.volume, settledVol: p.settledVol },
            quote,
            instrument,
          )
        : 0,
    currency: p.currency,
    commissionFee: p.commissionFee,
    storage: p.storage,
    createdAt: toEpochSec(p.createdAt),
    closeType: p.closeType,
    status: p.status,
    comment: p.comment,
    clientOrderId: p.clientOrderId,
    pId: idText(p.pendingId),
  };
}

export function settleView(s: Settlement): SettleView {
  return {
    tradeId: String(s.id),
    sortId: s.id,
    orderId: String(s.positionId),
    symbol: s.symbol,
    openCmd: s.openCmd,
    closeCmd: s.closeCmd,
    openPrice: s.openPrice,
    closePrice: s.closePrice,
    settleVolume: s.settleVolume,
    isSettled: s.isSettled,
    settleDate: s.settleDate,
    settleProfit: s.settleProfit,
    openAt: toEpochSec(s.openAt),
    closeAt: toEpochSec(s.closeAt),
    openCommission: s.openCommission,
    closeCommission: s.closeCommission,
    currency: s.currency,
    closeReason: s.closeReason,
    closeType: s.closeType,
    comment: s.comment,
  };
}

export function pendingView(p: Pending): PendingView {
  return {
    pId: String(p.id),
    uuid: p.uuid,
    symbol: p.symbol,
    cmd: p.cmd,
    volume: p.volume,
    pendPrice: p.pendPrice,
    tp: p.tp,
    sl: p.sl,
    expireType: p.expireType,
    expiresAt: p.expiresAt === null ? null : toEpochSec(p.expiresAt),
    createdAt: toEpochSec(p.createdAt),
    triggerType: p.triggerType,
    status: p.status,
    orderId: idText(p.positionId),
    comment: p.comment,
    clientOrderId: p.clientOrderId,
  };
}

export function orderLogView(l: OrderLog): OrderLogView {
  return {
    sortId: l.id,
    symbol: l.symbol,
    cmd: l.cmd,
    actionType: l.actionType,
    orderType: l.orderType,
    volume: l.volume,
    price: l.price,
    marketPrice: l.marketPrice,
    orderStatus: l.orderStatus,
    createdAt: toEpochSec(l.createdAt),
    transactTime: toEpochSec(l.transactTime),
    commissionFee: l.commissionFee,
    currency: l.currency,
    tp: l.tp,
    sl: l.sl,
    orderId: idText(l.positionId),
    pId: idText(l.pendingId),
    message: l.message,
    clientOrderId: l.clientOrderId,
  };
}
