import {
  ACTION,
  PRICE_MESSAGES,
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  gfdExpiresAt,
  normalizeQuantity,
  pendingTriggerType,
  quantityRule,
  referencePrice,
  sideOfCmd,
  snapToTick,
  validateLimitPrice,
  validateQuantity,
  type PendingOrderRequest,
  type PendingView,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { BadRequestError } from '../../http/errors.ts';
import type { TradingContext } from './context.ts';
import { checkExits } from './exits.ts';
import { ORDER_TYPE } from './fills.ts';
import { idempotencyKey } from './idempotency.ts';
import { marginShortfall } from './margin.ts';
import { conversionQuotes, liveQuote, requireInstrument } from './pricing.ts';
import { reject, runAccountCommand } from './pipeline.ts';
import { recordNewOrder } from './order-events.ts';
import { insertPending, type Pending } from './store/pendings.ts';
import { pendingView } from './views.ts';

export type PendingData = { pending: PendingView };

/**
 * A pending order (GFD or GTC): its price must lie in the limit band around the live
 * reference price (ask for a buy, bid for a sell) and on the tick; TP/SL are checked
 * against it. Below the reference (buy) or above it (sell) it is a limit order, on the
 * other side a stop order (domain triggers.ts). Free margin must cover it at its price when
 * placed; it is checked again when it fills. Logged with status Pending (0).
 */
export async function placePendingOrder(
  ctx: TradingContext,
  trader: TraderRow,
  req: PendingOrderRequest,
): Promise<{ msg: string; data: PendingData }> {
  const instrument = requireInstrument(ctx.market, req.symbol);
  const rule = quantityRule(instrument, 'limit');
  const quantityProblem = validateQuantity(req.volume, rule);
  if (quantityProblem) throw new BadRequestError(quantityProblem);
  if (!Number.isFinite(req.pendPrice) || req.pendPrice <= 0) {
    throw new BadRequestError(PRICE_MESSAGES.limitNotPositive);
  }
  const volume = normalizeQuantity(req.volume, rule.step);
  const side = sideOfCmd(req.cmd);
  const tick = instrument.min_price_tick;
  const comment = req.comment ?? '';
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'pending/add', {
    symbol: instrument.symbol,
    cmd: req.cmd,
    volume,
    pendPrice: req.pendPrice,
    expireType: req.expireType,
    tp: req.tp,
    sl: req.sl,
    comment,
  });
  const nowMs = ctx.now();

  return runAccountCommand<PendingData>(
    ctx,
    { trader, key, nowMs, checksMargin: true },
    async (scope) => {
      const rejection = {
        uuid: trader.uuid,
        instrument,
        cmd: req.cmd,
        actionType: ACTION.open,
        orderType: ORDER_TYPE.pending,
        volume,
        price: req.pendPrice,
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
      const reference = referencePrice(side, quote);
      const priceProblem = validateLimitPrice(req.pendPrice, reference, tick);
      if (priceProblem) throw new BadRequestError(priceProblem);
      const price = snapToTick(req.pendPrice, tick);
      const exits = checkExits(side, price, req, tick, null);

      const quotes = conversionQuotes(ctx.market, nowMs);
      const message = await marginShortfall(
        scope,
        ctx,
        instrument,
        { price, volume },
        nowMs,
        quotes,
      );
      if (message) return reject(scope, { ...rejection, marketPrice: reference, message });

      const pending: Pending = await insertPending(scope.tx, {
        uuid: trader.uuid,
        symbol: instrument.symbol,
        cmd: req.cmd,
        volume,
        pendPrice: price,
        tp: exits.tp,
        sl: exits.sl,
        expireType: req.expireType,
        expiresAt: req.expireType === 'GFD' ? gfdExpiresAt(instrument.calendar, nowMs) : null,
        triggerType: pendingTriggerType(side, price, reference),
        comment,
        clientOrderId: req.clientOrderId ?? null,
        createdAt: nowMs,
      });
      await recordNewOrder(
        scope,
        {
          uuid: trader.uuid,
          symbol: instrument.symbol,
          cmd: req.cmd,
          actionType: ACTION.open,
          orderType: ORDER_TYPE.pending,
          volume,
          requestedPrice: price,
          marketPrice: reference,
          nowMs,
          commissionFee: 0,
          currency: instrument.currency,
          tp: exits.tp,
          sl: exits.sl,
          positionId: null,
          pendingId: pending.id,
          message: '',
          clientOrderId: req.clientOrderId ?? null,
        },
        'Accepted',
      );
      scope.after.trackPending(pending);
      return {
        ok: true,
        msg: TRADING_SUCCESS.pendingPlaced,
        data: { pending: pendingView(pending) },
      };
    },
  );
}
