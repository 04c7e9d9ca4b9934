import type { Bar } from '../market/bars.ts';
import { roundTo } from '../market/price.ts';
import { roundLots, roundMoney } from '../values/units.ts';
import {
  referencePrice,
  validateStopLoss,
  validateTakeProfit,
  type Side,
} from '../trading/price-rules.ts';
import { closeQuantityRule, validateQuantity, type QuantityTerms } from '../trading/quantity.ts';
import { checkTicket } from '../trading/ticket.ts';
import { validatePendingChange } from '../trading/pending-change.ts';
import { TRADING_MESSAGES } from '../trading/messages.ts';
import {
  exitTriggered,
  isPendingTriggered,
  pendingTriggerType,
  type PendingTrigger,
} from '../trading/triggers.ts';
import {
  closingPrice,
  commissionFor,
  profitLoss,
  requiredMargin,
  type ContractTerms,
} from '../trading/values.ts';

/*
 * A replay session's paper account (docs/architecture.md, "Bar replay"). Its state is never
 * stored: it is recomputed from the replayed bars and the session's actions (orders, closes,
 * cancels, TP/SL changes, each sent after the close of one bar), so stepping back is the same
 * computation stopped at an earlier bar, and a resumed session is exactly the one left.
 *
 * Bars are bids; the ask is the bid plus the instrument's spread. Inside a replayed bar the
 * price runs open → high → low → close; a pending order or a TP/SL whose price the path
 * reaches fills at that price, or at the bar's open when the bar opens beyond it (a gap).
 * Market orders fill at the close of the bar they are sent after (buy at the ask, sell at
 * the bid). Commission is the instrument's per lot and side, charged at the open and at
 * every close, as the paper-trading engine charges it.
 */

/** The instrument terms a replay account trades with. */
export type ReplayTerms = ContractTerms &
  QuantityTerms & {
    commission_per_lot: number;
    min_price_tick: number;
    /** ask − bid, in price. */
    spread: number;
    currency: string;
  };

/** Who sent an action: the person at the chart, or the session's strategy. */
export type ReplaySource = 'user' | 'strategy';

/** One thing done to the account after the close of the bar starting at `at` (UTC ms). */
export type ReplayAction =
  | {
      kind: 'order';
      id: number;
      at: number;
      side: Side;
      type: 'market' | 'limit';
      volume: number;
      /** The pending price of a limit order; 0 for a market order. */
      price: number;
      tp: number;
      sl: number;
      source: ReplaySource;
      /** The strategy's wanted-position key (live-runs/reconcile.ts) of a strategy order. */
      key?: string;
    }
  | {
      kind: 'close';
      id: number;
      at: number;
      positionId: number;
      volume: number;
      source: ReplaySource;
    }
  | { kind: 'cancel'; id: number; at: number; pendingId: number }
  /** A pending order's new price and TP/SL (0: not set); its trigger follows the new price. */
  | {
      kind: 'modify';
      id: number;
      at: number;
      pendingId: number;
      price: number;
      tp: number;
      sl: number;
    }
  | { kind: 'tpsl'; id: number; at: number; positionId: number; tp: number; sl: number };

export type ReplayPosition = {
  /** The id of the order that opened it. */
  id: number;
  side: Side;
  /** Lots still open. */
  volume: number;
  price: number;
  tp: number;
  sl: number;
  /** Start of the bar it opened in, UTC ms. */
  openTime: number;
  source: ReplaySource;
  key: string | null;
  /** Commission charged at the open on the lots still open. */
  openCommission: number;
};

export type ReplayPending = {
  id: number;
  side: Side;
  trigger: PendingTrigger;
  price: number;
  volume: number;
  tp: number;
  sl: number;
  /** Bar after whose close it was placed, UTC ms. */
  placedAt: number;
  source: ReplaySource;
};

export type ReplayCloseReason = 'manual' | 'strategy' | 'tp' | 'sl';

/** A closed trade (or the closed part of a position). */
export type ReplayTrade = {
  positionId: number;
  side: Side;
  volume: number;
  openTime: number;
  closeTime: number;
  openPrice: number;
  closePrice: number;
  /** Gross P&L minus the commission of both sides of these lots, 2 decimals. */
  profit: number;
  commission: number;
  reason: ReplayCloseReason;
  source: ReplaySource;
};

/** Something that happened on the account, for the chart's markers. */
export type ReplayFill = {
  time: number;
  /** The position (opens, closes) the fill belongs to. */
  positionId: number;
  action: 'open' | 'close';
  side: Side;
  volume: number;
  price: number;
  source: ReplaySource;
  reason: ReplayCloseReason | null;
};

export type ReplayAccount = {
  initialBalance: number;
  /** Initial balance + realised P&L − commission charged. */
  balance: number;
  /** Unrealised P&L of the open positions at the cursor's close. */
  floating: number;
  equity: number;
  margin: number;
  freeMargin: number;
};

export type ReplayState = {
  /** Start of the last visible (replayed) bar, UTC ms. */
  cursor: number;
  account: ReplayAccount;
  positions: ReplayPosition[];
  pending: ReplayPending[];
  trades: ReplayTrade[];
  fills: ReplayFill[];
  /** Equity at every replayed bar's close, from the start bar on. */
  equity: { time: number; equity: number }[];
};

/** The quote of a bid price: ask = bid + spread. */
export function replayQuote(bid: number, terms: ReplayTerms): { bid: number; ask: number } {
  return { bid, ask: roundTo(bid + terms.spread, 10) };
}

/** The bid prices a bar trades through, in order: open, high, low, close. */
export function barPath(bar: Bar): number[] {
  return [bar.open, bar.high, bar.low, bar.close];
}

/** Why an action cannot be done on a state, or null when it can. */
export function checkReplayAction(
  state: ReplayState,
  action: ReplayAction,
  closeOfCursor: number,
  terms: ReplayTerms,
): string | null {
  const quote = replayQuote(closeOfCursor, terms);
  switch (action.kind) {
    case 'order': {
      const check = checkTicket({
        side: action.side,
        orderType: action.type,
        quantity: action.volume,
        limitPrice: action.type === 'limit' ? action.price : null,
        quote,
        hasAccount: true,
        terms,
        tick: terms.min_price_tick,
        tp: action.tp > 0 ? action.tp : null,
        sl: action.sl > 0 ? action.sl : null,
      });
      const error = check.quantityError ?? check.priceError ?? check.tpError ?? check.slError;
      if (error) return error;
      if (action.type === 'market') {
        const price = referencePrice(action.side, quote);
        const needed =
          requiredMargin(price, action.volume, terms) +
          commissionFor(action.volume, terms.commission_per_lot);
        if (needed > state.account.freeMargin) {
          return TRADING_MESSAGES.insufficientMargin(
            roundMoney(needed).toFixed(2),
            roundMoney(state.account.freeMargin).toFixed(2),
            terms.currency,
          );
        }
      }
      return null;
    }
    case 'close': {
      const position = state.positions.find((p) => p.id === action.positionId);
      if (!position) return TRADING_MESSAGES.orderNotFound(String(action.positionId));
      return validateQuantity(action.volume, closeQuantityRule(terms, position.volume));
    }
    case 'cancel':
      return state.pending.some((p) => p.id === action.pendingId)
        ? null
        : TRADING_MESSAGES.pendingNotFound(String(action.pendingId));
    case 'modify': {
      const pending = state.pending.find((p) => p.id === action.pendingId);
      if (!pending) return TRADING_MESSAGES.pendingNotFound(String(action.pendingId));
      return validatePendingChange(
        pending.side,
        { price: action.price, tp: action.tp, sl: action.sl },
        quote,
        terms.min_price_tick,
      );
    }
    case 'tpsl': {
      const position = state.positions.find((p) => p.id === action.positionId);
      if (!position) return TRADING_MESSAGES.orderNotFound(String(action.positionId));
      const tick = terms.min_price_tick;
      return (
        (action.tp > 0
          ? validateTakeProfit(position.side, position.price, action.tp, tick)
          : null) ??
        (action.sl > 0 ? validateStopLoss(position.side, position.price, action.sl, tick) : null)
      );
    }
  }
}

/** Mutable working state of one computation. */
class Account {
  balance: number;
  positions: ReplayPosition[] = [];
  pending: ReplayPending[] = [];
  trades: ReplayTrade[] = [];
  fills: ReplayFill[] = [];
  equity: { time: number; equity: number }[] = [];

  constructor(
    readonly terms: ReplayTerms,
    readonly initialBalance: number,
  ) {
    this.balance = initialBalance;
  }

  open(
    order: { id: number; side: Side; volume: number; tp: number; sl: number; source: ReplaySource },
    key: string | null,
    price: number,
    time: number,
  ): void {
    const commission = commissionFor(order.volume, this.terms.commission_per_lot);
    this.balance = roundMoney(this.balance - commission);
    this.positions.push({
      id: order.id,
      side: order.side,
      volume: order.volume,
      price,
      tp: order.tp,
      sl: order.sl,
      openTime: time,
      source: order.source,
      key,
      openCommission: commission,
    });
    this.fills.push({
      time,
      positionId: order.id,
      action: 'open',
      side: order.side,
      volume: order.volume,
      price,
      source: order.source,
      reason: null,
    });
  }

  close(
    position: ReplayPosition,
    volume: number,
    price: number,
    time: number,
    reason: ReplayCloseReason,
    source: ReplaySource,
  ): void {
    const lots = Math.min(volume, position.volume);
    const whole = lots >= position.volume;
    const openShare = whole
      ? position.openCommission
      : roundMoney((position.openCommission * lots) / position.volume);
    const closeCommission = commissionFor(lots, this.terms.commission_per_lot);
    const gross = profitLoss(position.side, position.price, price, lots, this.terms);
    this.balance = roundMoney(this.balance + gross - closeCommission);
    this.trades.push({
      positionId: position.id,
      side: position.side,
      volume: lots,
      openTime: position.openTime,
      closeTime: time,
      openPrice: position.price,
      closePrice: price,
      profit: roundMoney(gross - openShare - closeCommission),
      commission: roundMoney(openShare + closeCommission),
      reason,
      source,
    });
    this.fills.push({
      time,
      positionId: position.id,
      action: 'close',
      side: position.side,
      volume: lots,
      price,
      source,
      reason,
    });
    if (whole) {
      this.positions = this.positions.filter((p) => p !== position);
    } else {
      position.volume = roundLots(position.volume - lots);
      position.openCommission = roundMoney(position.openCommission - openShare);
    }
  }

  /** The figures at a bid (the close of the cursor bar). */
  figures(bid: number): ReplayAccount {
    const quote = replayQuote(bid, this.terms);
    let floating = 0;
    let margin = 0;
    for (const p of this.positions) {
      floating += profitLoss(p.side, p.price, closingPrice(p.side, quote), p.volume, this.terms);
      margin += requiredMargin(p.price, p.volume, this.terms);
    }
    const equity = roundMoney(this.balance + floating);
    return {
      initialBalance: this.initialBalance,
      balance: roundMoney(this.balance),
      floating: roundMoney(floating),
      equity,
      margin: roundMoney(margin),
      freeMargin: roundMoney(equity - margin),
    };
  }

  snapshot(cursor: number, bid: number): ReplayState {
    return {
      cursor,
      account: this.figures(bid),
      positions: this.positions.map((p) => ({ ...p })),
      pending: this.pending.map((p) => ({ ...p })),
      trades: [...this.trades],
      fills: [...this.fills],
      equity: [...this.equity],
    };
  }

  /** Runs a replayed bar's path through the pending orders and the positions' TP/SL. */
  replayBar(bar: Bar): void {
    const points = barPath(bar);
    points.forEach((bid, j) => {
      const quote = replayQuote(bid, this.terms);
      // positions opened at this point are checked from the next point on
      const before = [...this.positions];
      for (const pending of [...this.pending]) {
        if (!isPendingTriggered(pending.side, pending.trigger, pending.price, quote)) continue;
        const price = j === 0 ? referencePrice(pending.side, quote) : pending.price;
        this.pending = this.pending.filter((p) => p !== pending);
        this.open(pending, null, price, bar.time);
      }
      for (const position of before) {
        const hit = exitTriggered(position.side, position, quote);
        if (!hit) continue;
        const level = hit === 'tp' ? position.tp : position.sl;
        const price = j === 0 ? closingPrice(position.side, quote) : level;
        this.close(position, position.volume, price, bar.time, hit, position.source);
      }
    });
  }

  apply(action: ReplayAction, bar: Bar): void {
    const quote = replayQuote(bar.close, this.terms);
    switch (action.kind) {
      case 'order':
        if (action.type === 'market') {
          this.open(action, action.key ?? null, referencePrice(action.side, quote), bar.time);
        } else {
          this.pending.push({
            id: action.id,
            side: action.side,
            trigger: pendingTriggerType(
              action.side,
              action.price,
              referencePrice(action.side, quote),
            ),
            price: action.price,
            volume: action.volume,
            tp: action.tp,
            sl: action.sl,
            placedAt: bar.time,
            source: action.source,
          });
        }
        return;
      case 'close': {
        const position = this.positions.find((p) => p.id === action.positionId);
        if (!position) return;
        const reason = action.source === 'strategy' ? 'strategy' : 'manual';
        this.close(
          position,
          action.volume,
          closingPrice(position.side, quote),
          bar.time,
          reason,
          action.source,
        );
        return;
      }
      case 'cancel':
        this.pending = this.pending.filter((p) => p.id !== action.pendingId);
        return;
      case 'modify': {
        const pending = this.pending.find((p) => p.id === action.pendingId);
        if (pending) {
          pending.price = action.price;
          pending.tp = action.tp;
          pending.sl = action.sl;
          pending.trigger = pendingTriggerType(
            pending.side,
            action.price,
            referencePrice(pending.side, quote),
          );
        }
        return;
      }
      case 'tpsl': {
        const position = this.positions.find((p) => p.id === action.positionId);
        if (position) {
          position.tp = action.tp;
          position.sl = action.sl;
        }
        return;
      }
    }
  }
}

/**
 * The session's state with the cursor at `cursor`: the bars from `start` (the first visible
 * bar of the session) to the cursor replayed, and the actions sent after each bar's close
 * applied in id order. `bars` are ascending and must hold the start and cursor bars (bars
 * before the start are ignored); actions after the cursor are ignored, and an action that
 * breaks the rules at its bar (it was checked when it was sent, so only a tampered store
 * would) is skipped. Deterministic: the same input gives the same state.
 */
export function replaySession(input: {
  bars: readonly Bar[];
  start: number;
  cursor: number;
  actions: readonly ReplayAction[];
  terms: ReplayTerms;
  initialBalance: number;
}): ReplayState {
  const account = new Account(input.terms, input.initialBalance);
  const byBar = new Map<number, ReplayAction[]>();
  for (const action of [...input.actions].sort((a, b) => a.id - b.id)) {
    const list = byBar.get(action.at) ?? [];
    list.push(action);
    byBar.set(action.at, list);
  }
  let last: Bar | null = null;
  for (const bar of input.bars) {
    if (bar.time < input.start) continue;
    if (bar.time > input.cursor) break;
    if (last !== null) account.replayBar(bar);
    for (const action of byBar.get(bar.time) ?? []) {
      const now = account.snapshot(bar.time, bar.close);
      if (checkReplayAction(now, action, bar.close, input.terms) === null) {
        account.apply(action, bar);
      }
    }
    account.equity.push({ time: bar.time, equity: account.figures(bar.close).equity });
    last = bar;
  }
  if (last === null) throw new Error('replaySession: no bar at the start');
  return account.snapshot(last.time, last.close);
}
