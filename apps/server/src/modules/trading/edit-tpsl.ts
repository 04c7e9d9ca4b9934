import {
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  closingPrice,
  availableVolume,
  positionTransition,
  sideOfCmd,
  type TpslRequest,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { checkExits } from './exits.ts';
import { ORDER_TYPE } from './fills.ts';
import { idempotencyKey } from './idempotency.ts';
import { recordModification } from './order-events.ts';
import { lockOpenPosition, runAccountCommand } from './pipeline.ts';
import type { OrderData } from './place-market-order.ts';
import { markQuote, requireInstrument } from './pricing.ts';
import { updatePositionExits, type Position } from './store/positions.ts';
import { positionView } from './views.ts';

/**
 * Sets TP and SL of an open position (the edit TP/SL helper). Both levels are given each
 * time: an absent or 0 level is removed. Each is checked with the domain rules against the
 * open price and the tick, and must not be already passed by the current closing price.
 * A change is logged in the same transaction as a Modify row (actionType 3) with the
 * position's side, open volume and open price, the closing price of the moment and the new
 * levels; a call that changes neither level logs nothing.
 */
export async function editTpsl(
  ctx: TradingContext,
  trader: TraderRow,
  req: TpslRequest,
): Promise<{ msg: string; data: OrderData }> {
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'tpsl', {
    orderId: req.orderId,
    tp: req.tp,
    sl: req.sl,
  });
  const nowMs = ctx.now();

  return runAccountCommand<OrderData>(ctx, { trader, key, nowMs }, async (scope) => {
    const position = await lockOpenPosition(scope.tx, trader.uuid, req.orderId);
    const instrument = requireInstrument(ctx.market, position.symbol);
    const side = sideOfCmd(position.cmd);
    const quote = markQuote(ctx.market, position.symbol, nowMs);
    const exits = checkExits(
      side,
      position.price,
      req,
      instrument.min_price_tick,
      quote ? closingPrice(side, quote) : null,
    );
    positionTransition(position.status, 'ProtectionChanged');
    const updated: Position | null = await updatePositionExits(scope.tx, position, exits);
    if (!updated) throw new ConflictError(TRADING_MESSAGES.positionClosed(req.orderId));
    if (updated.tp !== position.tp || updated.sl !== position.sl) {
      await recordModification(scope, {
        uuid: trader.uuid,
        symbol: position.symbol,
        cmd: position.cmd,
        orderType: ORDER_TYPE.market,
        volume: availableVolume(position),
        price: position.price,
        marketPrice: quote ? closingPrice(side, quote) : 0,
        currency: instrument.currency,
        tp: updated.tp,
        sl: updated.sl,
        positionId: position.id,
        pendingId: null,
        clientOrderId: req.clientOrderId ?? null,
        nowMs,
      });
    }
    scope.after.trackPosition(updated);
    scope.record({ kind: 'protectionChanged', position: updated, at: nowMs });
    return {
      ok: true,
      msg: TRADING_SUCCESS.tpslUpdated,
      data: { order: positionView(updated, instrument, quote) },
    };
  });
}
