import {
  ACTION,
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  closingPrice,
  normalizeQuantity,
  quantityRule,
  referencePrice,
  sideOfCmd,
  validateQuantity,
  type ExposureLine,
  type OpenOrderRequest,
  type PositionView,
  type SimQuote,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { BadRequestError } from '../../http/errors.ts';
import type { MarketOrderTicket } from './batched-order.ts';
import type { TradingContext } from './context.ts';
import { checkExits } from './exits.ts';
import { ORDER_TYPE, openPosition, type OpenArgs } from './fills.ts';
import { idempotencyKey, type Outcome } from './idempotency.ts';
import { exposureLines, marginShortfallOf } from './margin.ts';
import { conversionQuotes, liveQuote, requireInstrument } from './pricing.ts';
import { reject, runAccountCommand } from './pipeline.ts';
import type { Rejection } from './rejections.ts';
import type { Account } from './store/accounts.ts';
import type { Position } from './store/positions.ts';
import { positionView } from './views.ts';

export type OrderData = { order: PositionView };

/**
 * A market order: fills at once at the live quote (a buy at the ask, a sell at the bid)
 * with optional TP/SL checked against the fill price. Refused (and logged as Rejected)
 * when the market is closed or free margin does not cover its margin and commission.
 * Through the order writer it is written with the other market orders of its batch
 * (market-batch.ts); this handler is the same order on its own.
 */
export async function placeMarketOrder(
  ctx: TradingContext,
  trader: TraderRow,
  req: OpenOrderRequest,
): Promise<{ msg: string; data: OrderData }> {
  const ticket = marketOrderTicket(ctx, trader, req);
  return runAccountCommand<OrderData>(
    ctx,
    { trader, key: ticket.key, nowMs: ticket.nowMs, checksMargin: true },
    async (scope) => {
      const lines = exposureLines(await scope.exposure());
      const decision = decideMarketOrder(ctx, ticket, scope.account, lines);
      if (!decision.fill) return reject(scope, decision.rejection);
      const position = await openPosition(scope, ctx, decision.fill);
      scope.after.trackPosition(position);
      return filledOutcome(ticket, position, decision.quote);
    },
    ticket,
  );
}

/** The order's shape checked (instrument, quantity) and its idempotency key; throws a 400. */
export function marketOrderTicket(
  ctx: TradingContext,
  trader: Pick<TraderRow, 'uuid' | 'level'>,
  req: OpenOrderRequest,
): MarketOrderTicket {
  const instrument = requireInstrument(ctx.market, req.symbol);
  const rule = quantityRule(instrument, 'market');
  const problem = validateQuantity(req.volume, rule);
  if (problem) throw new BadRequestError(problem);
  const volume = normalizeQuantity(req.volume, rule.step);
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'open', {
    symbol: instrument.symbol,
    cmd: req.cmd,
    volume,
    tp: req.tp,
    sl: req.sl,
    comment: req.comment ?? '',
  });
  return { trader, req, instrument, volume, key, nowMs: ctx.now() };
}

/** What a market order comes to on its account: a fill at the quote, or a refusal. */
export type MarketDecision =
  | { fill: OpenArgs; quote: SimQuote; rejection?: undefined }
  | { fill?: undefined; rejection: Rejection };

/**
 * Decides a market order against its (locked) account with the open lots `exposure`: refused
 * when its market is closed or free margin does not cover it, else filled at the quote. A
 * TP/SL the rules refuse throws a 400 (nothing is written for it).
 */
export function decideMarketOrder(
  ctx: TradingContext,
  t: MarketOrderTicket,
  account: Pick<Account, 'balance' | 'currency'>,
  exposure: readonly ExposureLine[],
): MarketDecision {
  const { req, instrument, volume, nowMs } = t;
  const side = sideOfCmd(req.cmd);
  const rejection: Rejection = {
    uuid: t.trader.uuid,
    instrument,
    cmd: req.cmd,
    actionType: ACTION.open,
    orderType: ORDER_TYPE.market,
    volume,
    price: 0,
    marketPrice: 0,
    tp: req.tp,
    sl: req.sl,
    positionId: null,
    clientOrderId: req.clientOrderId ?? null,
    message: '',
    nowMs,
  };
  const quote = liveQuote(ctx, instrument.symbol, nowMs);
  if (!quote) {
    return {
      rejection: { ...rejection, message: TRADING_MESSAGES.marketClosed(instrument.symbol) },
    };
  }
  const price = referencePrice(side, quote);
  const exits = checkExits(side, price, req, instrument.min_price_tick, closingPrice(side, quote));
  const quotes = conversionQuotes(ctx.market, nowMs);
  const order = { price, volume };
  const message = marginShortfallOf(ctx, account, exposure, instrument, order, nowMs, quotes);
  if (message) return { rejection: { ...rejection, marketPrice: price, message } };
  const fill: OpenArgs = {
    uuid: t.trader.uuid,
    instrument,
    cmd: req.cmd,
    volume,
    price,
    tp: exits.tp,
    sl: exits.sl,
    comment: req.comment ?? '',
    clientOrderId: req.clientOrderId ?? null,
    pending: null,
    nowMs,
    quotes,
  };
  return { fill, quote };
}

/** The answer of a filled market order: the new position at the quote it filled at. */
export function filledOutcome(
  t: MarketOrderTicket,
  position: Position,
  quote: SimQuote,
): Outcome<OrderData> {
  return {
    ok: true,
    msg: TRADING_SUCCESS.orderFilled,
    data: { order: positionView(position, t.instrument, quote) },
  };
}
