import {
  exitPriceFromTicks,
  referencePrice,
  stopLossRange,
  takeProfitRange,
  validateLimitPrice,
  validateStopLoss,
  validateTakeProfit,
  type PriceRange,
  type Side,
} from './price-rules.ts';
import { quantityRule, validateQuantity, type QuantityTerms } from './quantity.ts';
import { roundTo, snapToTickDirected, tickDecimals, wholeSteps } from '../market/price.ts';
import { TOLERANCE } from '../values/tolerance.ts';

/** Order types of the ticket; Market is the default (spec section 9). */
export const ORDER_TYPES = ['market', 'limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export const DEFAULT_ORDER_TYPE: OrderType = 'market';

/** TP and SL start this many ticks away from the order price (spec section 9). */
export const DEFAULT_EXIT_TICKS = 10;

/** What the order ticket holds, as numbers (null: the field is empty or not set). */
export type TicketInput = {
  side: Side;
  orderType: OrderType;
  quantity: number | null;
  /** The limit price; ignored for market orders. */
  limitPrice: number | null;
  /** The live quote of the instrument; null (or a side without a price) when none came yet. */
  quote: { bid: number | null; ask: number | null } | null;
  /** A current trading account exists. */
  hasAccount: boolean;
  /** The instrument's quantity terms; null when its data is unavailable (only quantity > 0 counts). */
  terms: QuantityTerms | null;
  tick: number;
  /** TP / SL price when enabled, null when not set. */
  tp: number | null;
  sl: number | null;
};

export type TicketCheck = {
  /** The live reference price of the side (buy: ask, sell: bid); null without a quote. */
  reference: number | null;
  /** The price TP/SL and margin are measured from: the limit price, or the reference price. */
  orderPrice: number | null;
  quantityError: string | null;
  /** The limit price rule the price breaks (positive, band, tick); null for market orders. */
  priceError: string | null;
  tpError: string | null;
  slError: string | null;
  /**
   * The place button is enabled (spec section 5): disabled without quotes, without an
   * account, with an invalid quantity, for limit orders with a price not above 0, outside
   * the band or off the tick, and with an enabled TP or SL out of its range or off the tick.
   * Every error the ticket shows disables it, so an enabled button always sends the order.
   */
  canPlace: boolean;
};

function positive(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * Checks the order ticket with the spec's rules (quantity, limit band, TP/SL ranges) and
 * tells whether the place button is enabled. Pure: the quote and account are passed in.
 */
export function checkTicket(input: TicketInput): TicketCheck {
  const { side, orderType, quote, tick } = input;
  const sidePrice = quote ? (side === 'buy' ? quote.ask : quote.bid) : null;
  const reference =
    quote && positive(sidePrice)
      ? referencePrice(side, { bid: quote.bid ?? 0, ask: quote.ask ?? 0 })
      : null;
  const rule = input.terms ? quantityRule(input.terms, orderType) : null;
  const quantityError = validateQuantity(input.quantity ?? Number.NaN, rule);

  let priceError: string | null = null;
  let orderPrice: number | null = reference;
  if (orderType === 'limit') {
    const price = input.limitPrice ?? Number.NaN;
    priceError = validateLimitPrice(price, reference, tick);
    orderPrice = positive(price) ? price : null;
  }

  const tpError =
    input.tp === null || orderPrice === null
      ? null
      : validateTakeProfit(side, orderPrice, input.tp, tick);
  const slError =
    input.sl === null || orderPrice === null
      ? null
      : validateStopLoss(side, orderPrice, input.sl, tick);

  const canPlace =
    input.hasAccount &&
    reference !== null &&
    quantityError === null &&
    priceError === null &&
    tpError === null &&
    slError === null;
  return { reference, orderPrice, quantityError, priceError, tpError, slError, canPlace };
}

/** The TP or SL range of an order at `orderPrice` (see takeProfitRange / stopLossRange). */
export function exitRange(
  kind: 'tp' | 'sl',
  side: Side,
  orderPrice: number,
  tick: number,
): PriceRange {
  return kind === 'tp'
    ? takeProfitRange(side, orderPrice, tick)
    : stopLossRange(side, orderPrice, tick);
}

/**
 * The allowed TP or SL price nearest to the order price: where the edit panel starts a
 * level that was not set (a buy's TP at the bottom of its range, its SL at the top).
 */
export function nearestExitPrice(
  kind: 'tp' | 'sl',
  side: Side,
  orderPrice: number,
  tick: number,
): number {
  const range = exitRange(kind, side, orderPrice, tick);
  const above = (kind === 'tp') === (side === 'buy');
  return above ? range.min : range.max;
}

/**
 * Where the Edit Order panel starts a TP or SL that was not set: the default distance
 * (DEFAULT_EXIT_TICKS ticks) beyond the allowed level nearest to the open price, so it
 * never starts on the edge of its range. With the current closing price (`closePrice`: the
 * bid for a buy, the ask for a sell) past that level, the distance counts from the market
 * instead, as a level the market has passed is refused. Kept inside the range.
 */
export function startingEditExitPrice(
  kind: 'tp' | 'sl',
  side: Side,
  openPrice: number,
  tick: number,
  closePrice: number | null = null,
): number {
  const range = exitRange(kind, side, openPrice, tick);
  const outwards = (kind === 'tp') === (side === 'buy') ? 1 : -1;
  let from = nearestExitPrice(kind, side, openPrice, tick);
  if (closePrice !== null && closePrice > 0 && (closePrice - from) * outwards > 0) {
    from = snapToTickDirected(closePrice, tick, outwards > 0 ? 'up' : 'down');
  }
  const start = roundTo(from + outwards * DEFAULT_EXIT_TICKS * tick, tickDecimals(tick));
  return Math.min(Math.max(start, range.min), range.max);
}

/** The TP or SL rule (see validateTakeProfit / validateStopLoss); null when valid. */
export function validateExitPrice(
  kind: 'tp' | 'sl',
  side: Side,
  orderPrice: number,
  exitPrice: number,
  tick: number,
): string | null {
  return kind === 'tp'
    ? validateTakeProfit(side, orderPrice, exitPrice, tick)
    : validateStopLoss(side, orderPrice, exitPrice, tick);
}

/**
 * How many ticks from the order price a TP or SL of the ticket starts at when it is
 * enabled: the default 10 (spec section 9) when that level is allowed, otherwise the
 * allowed level nearest to the order price (nearestExitPrice), like the edit panel.
 */
export function startingExitTicks(
  kind: 'tp' | 'sl',
  side: Side,
  orderPrice: number,
  tick: number,
): number {
  const byDefault = exitPriceFromTicks(kind, side, orderPrice, DEFAULT_EXIT_TICKS, tick);
  if (validateExitPrice(kind, side, orderPrice, byDefault, tick) === null) {
    return DEFAULT_EXIT_TICKS;
  }
  // whole ticks reaching at least to the nearest level (the order price may be off the grid)
  const nearest = nearestExitPrice(kind, side, orderPrice, tick);
  return wholeSteps(Math.abs(nearest - orderPrice), tick, 'ceil', TOLERANCE.onGrid);
}
