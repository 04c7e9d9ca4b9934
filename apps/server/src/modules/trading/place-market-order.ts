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
  type OpenOrderRequest,
  type PositionView,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { BadRequestError } from '../../http/errors.ts';
import type { TradingContext } from './context.ts';
import { checkExits } from './exits.ts';
import { ORDER_TYPE, openPosition } from './fills.ts';
import { idempotencyKey } from './idempotency.ts';
import { marginShortfall } from './margin.ts';
import { conversionQuotes, liveQuote, requireInstrument } from './pricing.ts';
import { reject, runAccountCommand } from './pipeline.ts';
import type { Position } from './store/positions.ts';
import { positionView } from './views.ts';

export type OrderData = { order: PositionView };

/**
 * A market order: fills at once at the live quote (a buy at the ask, a sell at the bid)
 * with optional TP/SL checked against the fill price. Refused (and logged as Rejected)
 * when the market is closed or free margin does not cover its margin and commission.
 */
export async function placeMarketOrder(
  ctx: TradingContext,
  trader: TraderRow,
  req: OpenOrderRequest,
): Promise<{ msg: string; data: OrderData }> {
  const instrument = requireInstrument(ctx.market, req.symbol);
  const rule = quantityRule(instrument, 'market');
  const problem = validateQuantity(req.volume, rule);
  if (problem) throw new BadRequestError(problem);
  const volume = normalizeQuantity(req.volume, rule.step);
  const side = sideOfCmd(req.cmd);
  const tick = instrument.min_price_tick;
  const comment = req.comment ?? '';
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'open', {
    symbol: instrument.symbol,
    cmd: req.cmd,
    volume,
    tp: req.tp,
    sl: req.sl,
    comment,
  });
  const nowMs = ctx.now();

  return runAccountCommand<OrderData>(
    ctx,
    { trader, key, nowMs, checksMargin: true },
    async (scope) => {
      const rejection = {
        uuid: trader.uuid,
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
        nowMs,
      };
      const quote = liveQuote(ctx, instrument.symbol, nowMs);
      if (!quote) {
        const message = TRADING_MESSAGES.marketClosed(instrument.symbol);
        return reject(scope, { ...rejection, message });
      }
      const price = referencePrice(side, quote);
      const exits = checkExits(side, price, req, tick, closingPrice(side, quote));

      const quotes = conversionQuotes(ctx.market, nowMs);
      const message = await marginShortfall(
        scope,
        ctx,
        instrument,
        { price, volume },
        nowMs,
        quotes,
      );
      if (message) return reject(scope, { ...rejection, marketPrice: price, message });

      const position: Position = await openPosition(scope, ctx, {
        uuid: trader.uuid,
        instrument,
        cmd: req.cmd,
        volume,
        price,
        tp: exits.tp,
        sl: exits.sl,
        comment,
        clientOrderId: req.clientOrderId ?? null,
        pending: null,
        nowMs,
        quotes,
      });
      scope.after.trackPosition(position);
      return {
        ok: true,
        msg: TRADING_SUCCESS.orderFilled,
        data: { order: positionView(position, instrument, quote) },
      };
    },
  );
}
