import {
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  pendingTriggerType,
  referencePrice,
  sideOfCmd,
  snapToTick,
  validatePendingChange,
  type PendingModifyRequest,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import type { TradingContext } from './context.ts';
import { ConflictError, OrderRejectedError } from './errors.ts';
import { checkExits } from './exits.ts';
import { ORDER_TYPE } from './fills.ts';
import { idempotencyKey } from './idempotency.ts';
import { marginShortfall } from './margin.ts';
import { recordModification } from './order-events.ts';
import { runAccountCommand } from './pipeline.ts';
import type { PendingData } from './place-pending-order.ts';
import { conversionQuotes, liveQuote, requireInstrument } from './pricing.ts';
import {
  lockPending,
  modifyPending as storeModifyPending,
  type Pending,
} from './store/pendings.ts';
import { pendingView } from './views.ts';

/**
 * Changes a working pending order's price and its TP and SL (our extension: the chart drags
 * its line). The new price obeys the rules of placing one (pending/add): the ticket's limit
 * band around the live reference price (ask for a buy, bid for a sell) and the tick, with
 * TP/SL checked against it and the free margin covering it at its new price; whether it is a
 * limit or a stop order follows from where it now lies. In one transaction the row changes
 * (at its version) and a Modify row (actionType 3) is logged; after the commit the trigger
 * index watches the new price instead of the old one. Every refusal changes nothing — a
 * market closed or a margin shortfall is a 422 without a log row (nothing was ordered) —
 * and a call that changes nothing succeeds without a row.
 */
export async function modifyPendingOrder(
  ctx: TradingContext,
  trader: TraderRow,
  req: PendingModifyRequest,
): Promise<{ msg: string; data: PendingData }> {
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'pending/modify', {
    pId: req.pId,
    pendPrice: req.pendPrice,
    tp: req.tp,
    sl: req.sl,
  });
  const nowMs = ctx.now();

  return runAccountCommand<PendingData>(
    ctx,
    { trader, key, nowMs, checksMargin: true },
    async (scope) => {
      const pending = await lockPending(scope.tx, Number(req.pId), trader.uuid);
      if (!pending) throw new NotFoundError(TRADING_MESSAGES.pendingNotFound(req.pId));
      if (pending.status !== 'working') {
        throw new ConflictError(TRADING_MESSAGES.pendingNotWorking(req.pId, pending.status));
      }
      const unchanged =
        req.pendPrice === pending.pendPrice && req.tp === pending.tp && req.sl === pending.sl;
      if (unchanged) {
        return {
          ok: true,
          msg: TRADING_SUCCESS.pendingModified,
          data: { pending: pendingView(pending) },
        };
      }
      const instrument = requireInstrument(ctx.market, pending.symbol);
      const tick = instrument.min_price_tick;
      const side = sideOfCmd(pending.cmd);
      const quote = liveQuote(ctx, instrument.symbol, nowMs);
      if (!quote) throw new OrderRejectedError(TRADING_MESSAGES.marketClosed(instrument.symbol));
      const levels = { price: req.pendPrice, tp: req.tp, sl: req.sl };
      const problem = validatePendingChange(side, levels, quote, tick);
      if (problem) throw new BadRequestError(problem);
      // on the tick now (the rule allows a hair off it)
      const price = snapToTick(req.pendPrice, tick);
      const exits = checkExits(side, price, req, tick, null);
      const reference = referencePrice(side, quote);

      const shortfall = await marginShortfall(
        scope,
        ctx,
        instrument,
        { price, volume: pending.volume },
        nowMs,
        conversionQuotes(ctx.market, nowMs),
      );
      if (shortfall) throw new OrderRejectedError(shortfall);

      const changed: Pending | null = await storeModifyPending(scope.tx, pending, {
        pendPrice: price,
        tp: exits.tp,
        sl: exits.sl,
        triggerType: pendingTriggerType(side, price, reference),
        nowMs,
      });
      if (!changed) throw new ConflictError(TRADING_MESSAGES.pendingNotWorking(req.pId, 'changed'));
      await recordModification(scope, {
        uuid: trader.uuid,
        symbol: pending.symbol,
        cmd: pending.cmd,
        orderType: ORDER_TYPE.pending,
        volume: pending.volume,
        price,
        marketPrice: reference,
        currency: instrument.currency,
        tp: exits.tp,
        sl: exits.sl,
        positionId: null,
        pendingId: pending.id,
        clientOrderId: req.clientOrderId ?? null,
        nowMs,
      });
      // the index's entry of the order is replaced: the old price triggers nothing any more
      scope.after.trackPending(changed);
      scope.record({ kind: 'pendingChanged', pending: changed, at: nowMs });
      return {
        ok: true,
        msg: TRADING_SUCCESS.pendingModified,
        data: { pending: pendingView(changed) },
      };
    },
  );
}
