import {
  ACTION,
  CLOSE_REASON,
  TRADING_MESSAGES,
  TRADING_SUCCESS,
  availableVolume,
  closeQuantityRule,
  closingCmd,
  normalizeQuantity,
  validateQuantity,
  type CloseReason,
  type CloseRequest,
  type PositionView,
  type SettleView,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { BadRequestError } from '../../http/errors.ts';
import type { TradingContext } from './context.ts';
import { ORDER_TYPE, settlePosition } from './fills.ts';
import { idempotencyKey } from './idempotency.ts';
import { conversionQuotes, liveQuote, requireInstrument } from './pricing.ts';
import { lockOpenPosition, reject, runAccountCommand } from './pipeline.ts';
import type { Settlement } from './store/history.ts';
import type { Position } from './store/positions.ts';
import { positionView, settleView } from './views.ts';

export type CloseData = { order: PositionView; settle: SettleView };

/**
 * Closes `volume` of a position at the live quote (a buy at the bid, a sell at the ask).
 * The volume follows the close quantity rule (the market rule capped at the available
 * volume). The position row is locked, so concurrent closes never close more than it has.
 * `reason` is who closes it: the trader through the API (manual), or a live run's strategy
 * (its settlement and order log row say so); it is part of the request's idempotency key.
 */
export async function closePosition(
  ctx: TradingContext,
  trader: TraderRow,
  req: CloseRequest,
  reason: CloseReason = CLOSE_REASON.manual,
): Promise<{ msg: string; data: CloseData }> {
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'close', {
    orderId: req.orderId,
    volume: req.volume,
    closeTypeYT: req.closeTypeYT,
    // the trader's closes keep the key they always had
    ...(reason !== CLOSE_REASON.manual && { reason }),
  });
  const nowMs = ctx.now();

  return runAccountCommand<CloseData>(ctx, { trader, key, nowMs }, async (scope) => {
    const position = await lockOpenPosition(scope.tx, trader.uuid, req.orderId);
    const instrument = requireInstrument(ctx.market, position.symbol);
    const rule = closeQuantityRule(instrument, availableVolume(position));
    const problem = validateQuantity(req.volume, rule);
    if (problem) throw new BadRequestError(problem);
    const volume = normalizeQuantity(req.volume, rule.step);

    const quote = liveQuote(ctx, instrument.symbol, nowMs);
    if (!quote) {
      return reject(scope, {
        uuid: trader.uuid,
        instrument,
        cmd: closingCmd(position.cmd),
        actionType: ACTION.close,
        orderType: ORDER_TYPE.market,
        volume,
        price: 0,
        marketPrice: 0,
        tp: position.tp,
        sl: position.sl,
        positionId: position.id,
        clientOrderId: req.clientOrderId ?? null,
        message: TRADING_MESSAGES.marketClosed(instrument.symbol),
        nowMs,
      });
    }
    const closed: { position: Position; settlement: Settlement } = await settlePosition(
      scope,
      ctx,
      {
        position,
        instrument,
        volume,
        quote,
        reason,
        closeType: req.closeTypeYT,
        clientOrderId: req.clientOrderId ?? null,
        nowMs,
        quotes: conversionQuotes(ctx.market, nowMs),
      },
    );
    scope.after.trackPosition(closed.position);
    return {
      ok: true,
      msg: TRADING_SUCCESS.positionClosed,
      data: {
        order: positionView(closed.position, instrument, quote),
        settle: settleView(closed.settlement),
      },
    };
  });
}
