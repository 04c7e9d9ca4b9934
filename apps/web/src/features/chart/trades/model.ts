import {
  availableVolume,
  bucketStart,
  closingPrice,
  formatPrice,
  profitLoss,
  shiftExits,
  sideOfCmd,
  snapToTick,
  validateExitAgainstMarket,
  validateExitPrice,
  validatePendingChange,
  ACTION,
  type ContractTerms,
  type OrderLogView,
  type PendingView,
  type Period,
  type PositionView,
  type Side,
} from '@ct/domain';
import type { ChartMarker } from '../../../shared/chartMarkers';
import type { PendingChange, TpslEdit } from '../../trading';

/*
 * What the trader's own trades look like on a chart, as plain data: one line per open
 * position, per TP and SL of a position and per pending order of the chart's instrument;
 * where a dragged TP or SL may go; the fills as markers. Pure: the lists, the quote and the
 * instrument are passed in.
 */

export type ExitKind = 'tp' | 'sl';
export type TradeLineKind = 'position' | ExitKind | 'pending';

export type TradeLine = {
  /** Unique on the chart: `position:12`, `tp:12`, `sl:12`, `pending:7`. */
  id: string;
  kind: TradeLineKind;
  price: number;
  /** The side of the position or order the line belongs to. */
  side: Side;
  /** Open volume of the position (volume − settledVol), or the pending order's volume. */
  volume: number;
  /** The position (position, TP and SL lines). */
  orderId: string | null;
  /** The pending order (pending lines). */
  pId: string | null;
  /** TP, SL and pending lines are dragged to change them; a position's open price is not. */
  draggable: boolean;
  /** Pending lines: limit or stop, and GFD or GTC. */
  trigger: 'limit' | 'stop' | null;
  expireType: string | null;
};

/** The id of the line of a position's TP or SL. */
export function exitLineId(kind: ExitKind, orderId: string): string {
  return `${kind}:${orderId}`;
}

/**
 * The lines of the open positions and working pending orders of `symbol`: a position at
 * its open price, its TP and SL (when set, i.e. above 0) at theirs, a pending order at its
 * price. Positions with nothing left open and other instruments are left out.
 */
export function tradeLinesOf(
  positions: readonly PositionView[],
  pendings: readonly PendingView[],
  symbol: string,
): TradeLine[] {
  const lines: TradeLine[] = [];
  for (const p of positions) {
    const volume = availableVolume(p);
    if (p.symbol !== symbol || p.status !== 'open' || volume <= 0) continue;
    const base = {
      side: sideOfCmd(p.cmd),
      volume,
      orderId: p.orderId,
      pId: null,
      trigger: null,
      expireType: null,
    };
    lines.push({
      ...base,
      id: `position:${p.orderId}`,
      kind: 'position',
      price: p.price,
      draggable: false,
    });
    for (const kind of ['tp', 'sl'] as const) {
      if (p[kind] > 0) {
        lines.push({
          ...base,
          id: exitLineId(kind, p.orderId),
          kind,
          price: p[kind],
          draggable: true,
        });
      }
    }
  }
  for (const o of pendings) {
    if (o.symbol !== symbol || o.status !== 'working') continue;
    lines.push({
      id: `pending:${o.pId}`,
      kind: 'pending',
      price: o.pendPrice,
      side: sideOfCmd(o.cmd),
      volume: o.volume,
      orderId: null,
      pId: o.pId,
      draggable: true,
      trigger: o.triggerType,
      expireType: o.expireType,
    });
  }
  return lines;
}

/** A dragged price on the instrument's tick grid (the nearest tick). */
export function snapDragPrice(price: number, tick: number): number {
  return snapToTick(price, tick);
}

export type ExitDrop = {
  kind: ExitKind;
  side: Side;
  /** The position's open price: TP and SL are measured from it. */
  openPrice: number;
  /** The price the line was dropped at (already on the tick). */
  price: number;
  tick: number;
  /** The live quote, when there is one: a level the market has passed is refused. */
  quote: { bid: number; ask: number } | null;
};

/**
 * Why a TP or SL cannot go where it was dropped, or null: the Edit Order panel's rule (range
 * and tick from the open price), then the server's (not already passed by the closing price).
 */
export function checkExitDrop(drop: ExitDrop): string | null {
  const rule = validateExitPrice(drop.kind, drop.side, drop.openPrice, drop.price, drop.tick);
  if (rule !== null || drop.quote === null) return rule;
  return validateExitAgainstMarket(
    drop.kind,
    drop.side,
    drop.price,
    closingPrice(drop.side, drop.quote),
    drop.tick,
  );
}

/**
 * The Edit Order panel's input that moves one level of a position and keeps the other
 * (the call sets both levels: one left out would be removed).
 */
export function exitEditOf(
  position: Pick<PositionView, 'tp' | 'sl'>,
  kind: ExitKind,
  price: number,
): TpslEdit {
  const level = (k: ExitKind) => (k === kind ? price : position[k] > 0 ? position[k] : null);
  const tp = level('tp');
  const sl = level('sl');
  return { tp, sl, tpEnabled: tp !== null, slEnabled: sl !== null };
}

/**
 * What a pending order dropped at `price` changes: the price, and its TP and SL moved along
 * so they keep their ticks from it (the ticket keeps them in sync the same way).
 */
export function pendingChangeOf(
  pending: Pick<PendingView, 'pendPrice' | 'tp' | 'sl'>,
  price: number,
  tick: number,
): PendingChange {
  return { price, ...shiftExits(pending, pending.pendPrice, price, tick) };
}

/**
 * Why a pending order cannot go where its line was dropped, or null: the ticket's limit
 * rule against the live quote (band around the ask for a buy, the bid for a sell; tick),
 * then its moved TP and SL against the new price — the server's rule of the change.
 */
export function checkPendingDrop(
  side: Side,
  change: PendingChange,
  quote: { bid: number; ask: number } | null,
  tick: number,
): string | null {
  return validatePendingChange(side, change, quote, tick);
}

/**
 * The P&L a line stands for, in the instrument currency: a position's floating P&L at the
 * quote (closing side), a TP's or SL's if the position closed there; null for pending lines,
 * without a quote or without the instrument's terms.
 */
export function lineProfit(
  line: TradeLine,
  openPrice: number,
  quote: { bid: number; ask: number } | null,
  terms: ContractTerms | null,
): number | null {
  if (!terms || line.kind === 'pending') return null;
  if (line.kind === 'position') {
    if (!quote) return null;
    return profitLoss(line.side, openPrice, closingPrice(line.side, quote), line.volume, terms);
  }
  return profitLoss(line.side, openPrice, line.price, line.volume, terms);
}

export type FillColors = { buy: string; sell: string };

/** A fill marker's crowded label and its details (hover or click). */
export type FillLabels = {
  short: (side: Side) => string;
  detail: (side: Side, volume: number, price: number) => string;
};

/** Order log status of a filled order (spec section 4). */
const FILLED = 2;

/**
 * The account's fills of `symbol` as markers: a buy an up arrow with its tip at the fill
 * price, a sell a down arrow, at the bar of `period` that holds the fill time; oldest first.
 * Orders not filled (pending, refused, canceled) have no fill, and neither has a Modify row
 * (actionType 3: a changed TP/SL or pending order, logged as filled at once).
 */
export function fillMarkersOf(
  logs: readonly OrderLogView[],
  symbol: string,
  period: Period,
  colors: FillColors,
  text: (side: Side, volume: number) => string,
  labels?: FillLabels,
): ChartMarker[] {
  return logs
    .filter(
      (l) =>
        l.symbol === symbol &&
        l.orderStatus === FILLED &&
        l.actionType !== ACTION.modify &&
        l.price > 0,
    )
    .map((l): ChartMarker => {
      const side = sideOfCmd(l.cmd);
      const time = bucketStart(period, l.transactTime * 1000) / 1000;
      const words = {
        text: text(side, l.volume),
        ...(labels
          ? { short: labels.short(side), detail: labels.detail(side, l.volume, l.price) }
          : {}),
      };
      return side === 'buy'
        ? {
            time,
            position: 'atPriceTop',
            price: l.price,
            shape: 'arrowUp',
            color: colors.buy,
            ...words,
          }
        : {
            time,
            position: 'atPriceBottom',
            price: l.price,
            shape: 'arrowDown',
            color: colors.sell,
            ...words,
          };
    })
    .sort((a, b) => a.time - b.time);
}

export { mergeMarkers } from '../../../shared/chartMarkers';

/** A price as the chart's axis shows it. */
export function linePriceText(price: number, tick: number): string {
  return formatPrice(price, tick);
}
