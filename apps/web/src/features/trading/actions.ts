import {
  validateStopLoss,
  validateTakeProfit,
  type PendingView,
  type PositionView,
  type Side,
} from '@ct/domain';
import { done, failed, type Outcome } from '../../shared/outcome';
import { trading as messages } from '../../i18n/defaults/trading';
import {
  cancelPendingRequest,
  closePositionRequest,
  currentTrader,
  editTpslRequest,
  modifyPendingRequest,
  placeMarketOrderRequest,
  placePendingOrderRequest,
} from './api';
import { changeIds, refreshLists, writePending, writePosition, writeSettle } from './refresh';
import {
  isTargetAccount,
  targetOfAccount,
  type PlaceOrderInput,
  type TradingTarget,
} from './target';

/*
 * The trader's operations, one plain function each: buttons, row menus and tests call them
 * the same way. Each shows the spec's message (section 8), writes the server's answer into
 * the cached lists of the account it acted on, and refreshes the lists it changed once (the
 * live event of the same change does not refresh them again: refresh.ts); each resolves
 * with the outcome (shared/outcome.ts) instead of throwing.
 */

const t = messages.trading;

/**
 * The target a row of another account belongs to; 'gone' when that account is no longer
 * open (a replay that was left): its operations must never reach the trader's own account.
 */
function targetOfRow(uuid: string | null | undefined): TradingTarget | 'gone' | null {
  if (!isTargetAccount(uuid)) return null;
  return targetOfAccount(uuid) ?? 'gone';
}

function newClientOrderId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Places a market order or a pending (limit) order from the ticket. */
export async function placeOrder(input: PlaceOrderInput): Promise<Outcome> {
  const trader = currentTrader();
  if (!trader) return failed(t.noAccountInfo);
  if (!input.symbol) return failed(t.noSymbolInfo);
  const base = {
    symbol: input.symbol,
    cmd: input.side === 'buy' ? (1 as const) : (2 as const),
    volume: input.quantity,
    clientOrderId: newClientOrderId(),
    ...(input.tp ? { tp: input.tp } : {}),
    ...(input.sl ? { sl: input.sl } : {}),
  };
  try {
    if (input.orderType === 'market') {
      const result = await placeMarketOrderRequest(trader, base);
      if (!result.success || !result.data) return failed(result.message || t.orderFailed);
      const { order } = result.data;
      writePosition(trader.uuid, order);
      refreshLists(trader.uuid, ['positions', 'logs'], changeIds.opened(order.orderId));
      return done(t.orderSuccess(order.orderId));
    }
    const result = await placePendingOrderRequest(trader, {
      ...base,
      pendPrice: input.limitPrice ?? Number.NaN,
      expireType: input.expireType,
    });
    if (!result.success || !result.data) return failed(result.message || t.pendingFailed);
    const { pending } = result.data;
    writePending(trader.uuid, pending);
    refreshLists(trader.uuid, ['pendings', 'logs'], changeIds.pendingAdded(pending.pId));
    return done(t.pendingSuccess(pending.pId));
  } catch {
    return failed(t.orderRetry);
  }
}

const c = messages.closePosition;

/** Closes `volume` of a position (all of its available volume for a full close). */
export async function closePosition(
  position: Pick<PositionView, 'orderId'> & { uuid?: string },
  volume: number,
): Promise<Outcome> {
  const target = targetOfRow(position.uuid);
  if (target === 'gone') return failed(t.targetGone);
  if (target) return target.close(position.orderId, volume);
  const trader = currentTrader();
  if (!trader) {
    return failed(t.noCurrentTrader);
  }
  try {
    const result = await closePositionRequest(trader, {
      orderId: position.orderId,
      volume,
      clientOrderId: newClientOrderId(),
    });
    if (!result.success) {
      return failed(result.message || c.failed);
    }
    if (result.data) {
      writePosition(trader.uuid, result.data.order);
      writeSettle(trader.uuid, result.data.settle);
    }
    const change = result.data ? changeIds.closed(result.data.settle.tradeId) : undefined;
    refreshLists(trader.uuid, ['positions', 'settles', 'logs'], change);
    return done(c.success);
  } catch {
    return failed(c.requestFailed);
  }
}

const p = messages.cancelPending;

/** Cancels a working pending order. */
export async function cancelPendingOrder(
  pending: Pick<PendingView, 'pId'> & { uuid?: string },
): Promise<Outcome> {
  const target = targetOfRow(pending.uuid);
  if (target === 'gone') return failed(t.targetGone);
  if (target) return target.cancel(pending.pId);
  const trader = currentTrader();
  if (!trader) {
    return failed(t.noCurrentTrader);
  }
  try {
    const result = await cancelPendingRequest(trader, pending.pId);
    if (!result.success) {
      return failed(result.message || p.failed);
    }
    if (result.data) writePending(trader.uuid, result.data.pending);
    const change = result.data ? changeIds.pendingCanceled(result.data.pending.pId) : undefined;
    refreshLists(trader.uuid, ['pendings', 'logs'], change);
    return done(p.success);
  } catch {
    return failed(p.requestFailed);
  }
}

const pm = messages.pendingModify;

/** A pending order's new price and its TP and SL (0: not set), as the chart drops it. */
export type PendingChange = { price: number; tp: number; sl: number };

/**
 * Saves a working pending order's new price and levels (POST /trading/order/pending/modify;
 * a target's row, such as a replay's, through its target).
 * The server's answer goes into the cached pendings and the success message shows; a refusal
 * is returned for the caller to show where the change was made (the chart's line snaps back).
 */
export async function modifyPendingOrder(
  pending: Pick<PendingView, 'pId'> & { uuid?: string },
  change: PendingChange,
): Promise<Outcome> {
  const target = targetOfRow(pending.uuid);
  if (target === 'gone') return failed(t.targetGone);
  if (target) return target.modify(pending.pId, change);
  const trader = currentTrader();
  if (!trader) return { success: false, message: t.noCurrentTrader };
  try {
    const result = await modifyPendingRequest(trader, {
      pId: pending.pId,
      pendPrice: change.price,
      ...(change.tp > 0 ? { tp: change.tp } : {}),
      ...(change.sl > 0 ? { sl: change.sl } : {}),
      clientOrderId: newClientOrderId(),
    });
    if (!result.success) return { success: false, message: result.message || pm.failed };
    if (result.data) {
      const { pending: changed } = result.data;
      writePending(trader.uuid, changed);
      refreshLists(
        trader.uuid,
        ['pendings', 'logs'],
        changeIds.pendingModified(changed.pId, changed.pendPrice, changed.tp, changed.sl),
      );
    } else {
      refreshLists(trader.uuid, ['pendings', 'logs']);
    }
    return done(result.message || pm.success);
  } catch {
    return { success: false, message: pm.requestFailed };
  }
}

const e = messages.editOrder;

/** An order as the edit panel shows it (spec section 3, Order (edit panel)). */
export type EditableOrder = {
  orderId: string;
  symbol: string;
  side: Side;
  availableVolume: number;
  totalVolume: number;
  openPrice: number;
  /** Current TP / SL; 0 or less means not set. */
  tp: number;
  sl: number;
  tick: number;
  /** The account of another target (a replay's), when the order is not the trader's own. */
  account?: string;
};

export type TpslEdit = {
  /** The TP price when its checkbox is on, else null (not sent: the level is removed). */
  tp: number | null;
  sl: number | null;
  tpEnabled: boolean;
  slEnabled: boolean;
};

/**
 * Validates and saves TP/SL of an order. Validation failures are returned (the panel shows
 * them inline) without a call; the call's outcome shows the spec's message.
 */
export async function updateTpsl(order: EditableOrder, edit: TpslEdit): Promise<Outcome> {
  const target = targetOfRow(order.account);
  const trader = currentTrader();
  if (!order.orderId || (!target && (!trader?.token || !trader.uuid))) {
    return { success: false, message: e.missingInfo };
  }
  if (edit.tpEnabled) {
    const problem =
      edit.tp === null || !Number.isFinite(edit.tp)
        ? e.invalidTp
        : validateTakeProfit(order.side, order.openPrice, edit.tp, order.tick);
    if (problem) return { success: false, message: problem || e.invalidTp };
  }
  if (edit.slEnabled) {
    const problem =
      edit.sl === null || !Number.isFinite(edit.sl)
        ? e.invalidSl
        : validateStopLoss(order.side, order.openPrice, edit.sl, order.tick);
    if (problem) return { success: false, message: problem || e.invalidSl };
  }
  if (target === 'gone') return failed(t.targetGone);
  if (target) {
    return target.tpsl(
      order.orderId,
      edit.tpEnabled ? (edit.tp ?? 0) : 0,
      edit.slEnabled ? (edit.sl ?? 0) : 0,
    );
  }
  if (!trader) return { success: false, message: e.missingInfo };
  try {
    const result = await editTpslRequest(trader, {
      orderId: order.orderId,
      ...(edit.tpEnabled && edit.tp !== null ? { tp: edit.tp } : {}),
      ...(edit.slEnabled && edit.sl !== null ? { sl: edit.sl } : {}),
    });
    if (!result.success) return { success: false, message: result.message || e.failed };
    if (result.data) {
      const { order: edited } = result.data;
      writePosition(trader.uuid, edited);
      refreshLists(
        trader.uuid,
        ['positions', 'logs'],
        changeIds.tpsl(edited.orderId, edited.tp, edited.sl),
      );
    } else {
      refreshLists(trader.uuid, ['positions', 'logs']);
    }
  } catch {
    return { success: false, message: e.failed };
  }
  return done(e.success);
}
