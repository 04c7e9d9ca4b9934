import {
  clampQuantityUp,
  DEFAULT_EXIT_TICKS,
  DEFAULT_EXPIRE_TYPE,
  DEFAULT_ORDER_QUANTITY,
  DEFAULT_ORDER_TYPE,
  exitPriceFromTicks,
  priceForMargin,
  referencePrice,
  requiredMargin,
  snapToTick,
  startingExitTicks,
  ticksFromExitPrice,
  validateExitPrice,
  type ContractTerms,
  type ExpireType,
  type OrderType,
  type QuantityRule,
  type Side,
} from '@ct/domain';

/*
 * The order ticket's state and how its fields are linked (spec section 4, Order ticket):
 * the side sets the reference price (buy: ask, sell: bid) and the limit price defaults to
 * it when the side changes; TP/SL ticks and prices follow each other both ways, measured
 * from the order price; margin and price are linked; the quantity is clamped up to the
 * minimum. The rules themselves come from @ct/domain.
 */

export type ExitKind = 'tp' | 'sl';

/**
 * A TP or SL of the ticket: the value the user typed last (ticks or price) leads; until
 * the user types one, 'start' keeps it at its starting level (startingExitTicks) as the
 * order price moves, so a level the ticket chose stays allowed.
 */
export type ExitState = {
  enabled: boolean;
  anchor: 'start' | 'ticks' | 'price';
  ticks: number | null;
  price: number | null;
};

export type TicketState = {
  side: Side;
  orderType: OrderType;
  expireType: ExpireType;
  quantity: number | null;
  limitPrice: number | null;
  /** The margin while the user types one; null shows the margin of price × quantity. */
  marginDraft: number | null;
  tp: ExitState;
  sl: ExitState;
};

/** What the linking needs to know about the market and the instrument. */
export type TicketContext = {
  quote: { bid: number | null; ask: number | null } | null;
  tick: number;
  /** The quantity rule of the current order type; null without instrument data. */
  rule: QuantityRule | null;
  /** Contract terms for the margin; null without instrument data. */
  terms: ContractTerms | null;
};

const noExit: ExitState = {
  enabled: false,
  anchor: 'start',
  ticks: DEFAULT_EXIT_TICKS,
  price: null,
};

/** A fresh ticket: Market, GTC, quantity 1 (spec section 9), no TP/SL. */
export function initialTicket(side: Side = 'buy'): TicketState {
  return {
    side,
    orderType: DEFAULT_ORDER_TYPE,
    expireType: DEFAULT_EXPIRE_TYPE,
    quantity: DEFAULT_ORDER_QUANTITY,
    limitPrice: null,
    marginDraft: null,
    tp: noExit,
    sl: noExit,
  };
}

/** The reference price of a side, or null without a usable quote. */
export function referenceOf(side: Side, quote: TicketContext['quote']): number | null {
  if (!quote) return null;
  const price = side === 'buy' ? quote.ask : quote.bid;
  if (price === null || !(price > 0)) return null;
  return referencePrice(side, { bid: quote.bid ?? 0, ask: quote.ask ?? 0 });
}

/** The price TP/SL and margin are measured from: the limit price, or the live reference. */
export function orderPriceOf(state: TicketState, ctx: TicketContext): number | null {
  if (state.orderType === 'limit') {
    return state.limitPrice !== null && state.limitPrice > 0 ? state.limitPrice : null;
  }
  return referenceOf(state.side, ctx.quote);
}

/** Ticks and price of a TP or SL as shown: the leading one as typed, the other derived. */
export function exitView(
  kind: ExitKind,
  exit: ExitState,
  side: Side,
  orderPrice: number | null,
  tick: number,
): { ticks: number | null; price: number | null } {
  if (exit.anchor === 'price') {
    const ticks =
      orderPrice !== null && exit.price !== null
        ? ticksFromExitPrice(orderPrice, exit.price, tick)
        : null;
    return { ticks, price: exit.price };
  }
  const ticks =
    exit.anchor === 'start'
      ? orderPrice !== null
        ? startingExitTicks(kind, side, orderPrice, tick)
        : DEFAULT_EXIT_TICKS
      : exit.ticks;
  const price =
    orderPrice !== null && ticks !== null
      ? exitPriceFromTicks(kind, side, orderPrice, ticks, tick)
      : null;
  return { ticks, price };
}

/** The margin field: as typed, or the margin of order price × quantity. */
export function marginOf(state: TicketState, ctx: TicketContext): number | null {
  if (state.marginDraft !== null) return state.marginDraft;
  const price = orderPriceOf(state, ctx);
  if (price === null || state.quantity === null || !(state.quantity > 0) || !ctx.terms) return null;
  return requiredMargin(price, state.quantity, ctx.terms);
}

/**
 * A TP/SL led by its price keeps its tick distance instead (the side or price moved); one
 * at its starting level stays there.
 */
function anchorOnTicks(
  kind: ExitKind,
  exit: ExitState,
  side: Side,
  orderPrice: number | null,
  tick: number,
): ExitState {
  if (exit.anchor !== 'price') return exit;
  const { ticks } = exitView(kind, exit, side, orderPrice, tick);
  return { ...exit, anchor: 'ticks', ticks: ticks ?? exit.ticks ?? DEFAULT_EXIT_TICKS };
}

/**
 * A TP or SL as its checkbox is ticked: a level the user typed is kept while it is
 * allowed; otherwise it starts at its starting level (startingExitTicks: the default 10
 * ticks, or the nearest allowed level when those are too close to the order price).
 */
function enabledExit(
  kind: ExitKind,
  exit: ExitState,
  state: TicketState,
  ctx: TicketContext,
): ExitState {
  const orderPrice = orderPriceOf(state, ctx);
  if (exit.anchor !== 'start' && orderPrice !== null) {
    const { price } = exitView(kind, exit, state.side, orderPrice, ctx.tick);
    if (
      price !== null &&
      validateExitPrice(kind, state.side, orderPrice, price, ctx.tick) === null
    ) {
      return { ...exit, enabled: true };
    }
  }
  return { ...noExit, enabled: true };
}

export type TicketAction =
  | { type: 'side'; side: Side }
  | { type: 'orderType'; orderType: OrderType; rule: QuantityRule | null }
  | { type: 'expireType'; expireType: ExpireType }
  | { type: 'quantity'; quantity: number | null }
  | { type: 'quantityBlur' }
  | { type: 'limitPrice'; price: number | null }
  | { type: 'margin'; margin: number | null }
  | { type: 'marginBlur' }
  | { type: 'exitEnabled'; kind: ExitKind; enabled: boolean }
  | { type: 'exitTicks'; kind: ExitKind; ticks: number | null }
  | { type: 'exitPrice'; kind: ExitKind; price: number | null }
  | { type: 'quoteArrived' };

/** Applies one edit of the ticket, keeping its linked fields in step. */
export function ticketReducer(
  state: TicketState,
  action: TicketAction,
  ctx: TicketContext,
): TicketState {
  switch (action.type) {
    case 'side': {
      if (action.side === state.side) return state;
      const orderPrice = orderPriceOf(state, ctx);
      const reference = referenceOf(action.side, ctx.quote);
      return {
        ...state,
        side: action.side,
        // the limit price defaults to the new side's reference price
        limitPrice: reference ?? state.limitPrice,
        marginDraft: null,
        tp: anchorOnTicks('tp', state.tp, state.side, orderPrice, ctx.tick),
        sl: anchorOnTicks('sl', state.sl, state.side, orderPrice, ctx.tick),
      };
    }
    case 'orderType': {
      const quantity =
        action.rule && state.quantity !== null
          ? clampQuantityUp(state.quantity, action.rule)
          : state.quantity;
      const limitPrice =
        action.orderType === 'limit' && state.limitPrice === null
          ? referenceOf(state.side, ctx.quote)
          : state.limitPrice;
      return { ...state, orderType: action.orderType, quantity, limitPrice, marginDraft: null };
    }
    case 'expireType':
      return { ...state, expireType: action.expireType };
    case 'quantity':
      return { ...state, quantity: action.quantity, marginDraft: null };
    case 'quantityBlur': {
      // clamped up to the minimum (an empty field becomes the minimum too)
      if (!ctx.rule) return state;
      const clamped = clampQuantityUp(state.quantity ?? Number.NaN, ctx.rule);
      return clamped === state.quantity ? state : { ...state, quantity: clamped };
    }
    case 'limitPrice':
      return { ...state, limitPrice: action.price, marginDraft: null };
    case 'margin': {
      const next = { ...state, marginDraft: action.margin };
      if (
        state.orderType !== 'limit' ||
        action.margin === null ||
        !(action.margin > 0) ||
        state.quantity === null ||
        !(state.quantity > 0) ||
        !ctx.terms
      ) {
        return next;
      }
      const price = priceForMargin(action.margin, state.quantity, ctx.terms);
      return price > 0 ? { ...next, limitPrice: snapToTick(price, ctx.tick) } : next;
    }
    case 'marginBlur':
      return state.marginDraft === null ? state : { ...state, marginDraft: null };
    case 'exitEnabled': {
      const exit = state[action.kind];
      if (!action.enabled) return { ...state, [action.kind]: { ...exit, enabled: false } };
      return { ...state, [action.kind]: enabledExit(action.kind, exit, state, ctx) };
    }
    case 'exitTicks':
      return {
        ...state,
        [action.kind]: { ...state[action.kind], anchor: 'ticks', ticks: action.ticks },
      };
    case 'exitPrice':
      return {
        ...state,
        [action.kind]: { ...state[action.kind], anchor: 'price', price: action.price },
      };
    case 'quoteArrived': {
      // a limit ticket opened before the first quote takes the reference when it comes
      if (state.orderType !== 'limit' || state.limitPrice !== null) return state;
      const reference = referenceOf(state.side, ctx.quote);
      return reference === null ? state : { ...state, limitPrice: reference };
    }
  }
}
