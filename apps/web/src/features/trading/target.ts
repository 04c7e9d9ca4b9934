import type {
  ExpireType,
  OrderType,
  PendingView,
  PositionView,
  SettleView,
  Side,
} from '@ct/domain';
import { create } from 'zustand';
import type { Outcome } from '../../shared/outcome';

/*
 * The account the trading panel acts on. Normally the trader's own (the trading calls); while
 * a chart replays, the replay session's paper account: the replay feature (a higher tier)
 * registers it here as that chart's target, and the same ticket, tables and dialogs read its
 * rows and send their operations to it, so nothing of the replay reaches the real account.
 * A target's rows carry its `account` as their `uuid`: the dialogs and actions find the
 * account a row belongs to from the row itself.
 */

/** An order from the ticket: a market order, or a pending (limit) order with its price. */
export type PlaceOrderInput = {
  symbol: string | null;
  side: Side;
  orderType: OrderType;
  quantity: number;
  /** The limit price of a limit (pending) order. */
  limitPrice?: number | null;
  expireType: ExpireType;
  /** TP / SL price; null or absent when not set. */
  tp?: number | null;
  sl?: number | null;
};

/** A paper account other than the trader's: a replay session's, shown and traded as one. */
export type TradingTarget = {
  /** The rows' `uuid`: `replay:<session id>`. */
  account: string;
  /** What the panel calls it ('Replay account'). */
  label: string;
  symbol: string;
  /** The quote orders are checked and filled at (the replay cursor's close). */
  quote: { bid: number; ask: number };
  figures: {
    balance: number;
    equity: number;
    floating: number;
    margin: number;
    freeMargin: number;
    currency: string;
  };
  positions: PositionView[];
  pendings: PendingView[];
  settles: SettleView[];
  place: (input: PlaceOrderInput) => Promise<Outcome>;
  close: (orderId: string, volume: number) => Promise<Outcome>;
  cancel: (pId: string) => Promise<Outcome>;
  tpsl: (orderId: string, tp: number, sl: number) => Promise<Outcome>;
  /** A pending order's new price and TP/SL (0: not set): the chart's dragged pending line. */
  modify: (pId: string, change: { price: number; tp: number; sl: number }) => Promise<Outcome>;
};

type TargetState = { byChart: Record<string, TradingTarget> };

export const useTradingTargets = create<TargetState>(() => ({ byChart: {} }));

/** Makes `target` what the trading panel acts on while `chartId` is the active chart; null: the trader's own account again. */
export function setChartTradingTarget(chartId: string, target: TradingTarget | null): void {
  useTradingTargets.setState((s) => {
    const byChart = { ...s.byChart };
    if (target) byChart[chartId] = target;
    else delete byChart[chartId];
    return { byChart };
  });
}

/** The target of a chart, or null when the chart trades the trader's own account. */
export function useTradingTarget(chartId: string | null | undefined): TradingTarget | null {
  return useTradingTargets((s) => (chartId ? (s.byChart[chartId] ?? null) : null));
}

/** The target of a chart now, outside React (null: the trader's own account). */
export function chartTradingTarget(chartId: string): TradingTarget | null {
  return useTradingTargets.getState().byChart[chartId] ?? null;
}

/** The `account` of every target starts so; the trader's own uuids never do. */
export const TARGET_ACCOUNT_PREFIX = 'replay:';

/** True when `uuid` names a target's account (whether or not the target is still open). */
export function isTargetAccount(uuid: string | null | undefined): boolean {
  return typeof uuid === 'string' && uuid.startsWith(TARGET_ACCOUNT_PREFIX);
}

/** The target whose rows carry `account` as their uuid, or null (the trader's own rows). */
export function targetOfAccount(account: string | null | undefined): TradingTarget | null {
  if (!account) return null;
  const targets = Object.values(useTradingTargets.getState().byChart);
  return targets.find((t) => t.account === account) ?? null;
}
