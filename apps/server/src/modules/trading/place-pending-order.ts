import {
  ACTION,
  PRICE_MESSAGES,
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  gfdExpiresAt,
  normalizeQuantity,
  orderStatusCode,
  orderTransition,
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
import { accountInit } from './accounts.ts';
import type { TradingContext } from './context.ts';
import { publishAccountEvent } from './events.ts';
import { checkExits } from './exits.ts';
import { ORDER_TYPE } from './fills.ts';
import { idempotencyKey, remember, replay, unwrap, type Outcome } from './idempotency.ts';
import { marginShortfall } from './margin.ts';
import { conversionQuotes, liveQuote, requireInstrument } from './pricing.ts';
import { rejectOrder } from './rejections.ts';
import { insertOrderLog, insertPending, lockAccount, type Pending } from './store.ts';
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

  const { outcome, placed } = await ctx.db.transaction(async (tx) => {
    const account = await lockAccount(tx, trader.uuid, accountInit(trader, nowMs));
    if (!account) throw new Error(`trading account ${trader.uuid} is missing`);
    const seen = await replay<PendingData>(tx, key);
    if (seen) return { outcome: seen, placed: null };

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
    const quote = liveQuote(ctx.market, instrument.symbol, nowMs);
    if (!quote) {
      const message = TRADING_MESSAGES.marketClosed(instrument.symbol);
      return {
        outcome: await rejectOrder<PendingData>(tx, { ...rejection, message }, key),
        placed: null,
      };
    }
    const reference = referencePrice(side, quote);
    const priceProblem = validateLimitPrice(req.pendPrice, reference, tick);
    if (priceProblem) throw new BadRequestError(priceProblem);
    const price = snapToTick(req.pendPrice, tick);
    const exits = checkExits(side, price, req, tick, null);

    const quotes = conversionQuotes(ctx.market, nowMs);
    const message = await marginShortfall(
      tx,
      ctx,
      account,
      instrument,
      { price, volume },
      nowMs,
      quotes,
    );
    if (message) {
      return {
        outcome: await rejectOrder<PendingData>(
          tx,
          { ...rejection, marketPrice: reference, message },
          key,
        ),
        placed: null,
      };
    }

    const pending: Pending = await insertPending(tx, {
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
    await insertOrderLog(tx, {
      uuid: trader.uuid,
      symbol: instrument.symbol,
      cmd: req.cmd,
      actionType: ACTION.open,
      orderType: ORDER_TYPE.pending,
      volume,
      price,
      marketPrice: reference,
      orderStatus: orderStatusCode(orderTransition('submitted', 'Accepted')),
      createdAt: nowMs,
      transactTime: nowMs,
      commissionFee: 0,
      currency: instrument.currency,
      tp: exits.tp,
      sl: exits.sl,
      positionId: null,
      pendingId: pending.id,
      message: '',
      clientOrderId: req.clientOrderId ?? null,
    });
    const accepted: Outcome<PendingData> = {
      ok: true,
      msg: TRADING_SUCCESS.pendingPlaced,
      data: { pending: pendingView(pending) },
    };
    await remember(tx, key, accepted, nowMs);
    return { outcome: accepted, placed: pending };
  });

  if (placed) {
    ctx.index.trackPending(placed);
    publishAccountEvent(ctx, {
      type: 'pending_added',
      uuid: placed.uuid,
      symbol: placed.symbol,
      at: nowMs,
      pId: String(placed.id),
    });
  }
  return unwrap(outcome);
}
