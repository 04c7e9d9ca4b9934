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
  type CloseRequest,
  type PositionView,
  type SettleView,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { BadRequestError, NotFoundError } from '../../http/errors.ts';
import { accountInit } from './accounts.ts';
import type { TradingContext } from './context.ts';
import { ConflictError } from './errors.ts';
import { publishAccountEvent } from './events.ts';
import { ORDER_TYPE, settlePosition } from './fills.ts';
import { idempotencyKey, remember, replay, unwrap, type Outcome } from './idempotency.ts';
import { conversionQuotes, liveQuote, requireInstrument } from './pricing.ts';
import { rejectOrder } from './rejections.ts';
import { lockAccount, lockPosition, type Position, type Settlement } from './store.ts';
import { positionView, settleView } from './views.ts';

export type CloseData = { order: PositionView; settle: SettleView };

/**
 * Closes `volume` of a position at the live quote (a buy at the bid, a sell at the ask).
 * The volume follows the close quantity rule (the market rule capped at the available
 * volume). The position row is locked, so concurrent closes never close more than it has.
 */
export async function closePosition(
  ctx: TradingContext,
  trader: TraderRow,
  req: CloseRequest,
): Promise<{ msg: string; data: CloseData }> {
  const key = idempotencyKey(trader.uuid, req.clientOrderId, 'close', {
    orderId: req.orderId,
    volume: req.volume,
    closeTypeYT: req.closeTypeYT,
  });
  const nowMs = ctx.now();

  const { outcome, closed } = await ctx.db.transaction(async (tx) => {
    await lockAccount(tx, trader.uuid, accountInit(trader, nowMs));
    const seen = await replay<CloseData>(tx, key);
    if (seen) return { outcome: seen, closed: null };

    const position = await lockPosition(tx, trader.uuid, Number(req.orderId));
    if (!position) throw new NotFoundError(TRADING_MESSAGES.orderNotFound(req.orderId));
    if (position.status !== 'open') {
      throw new ConflictError(TRADING_MESSAGES.positionClosed(req.orderId));
    }
    const instrument = requireInstrument(ctx.market, position.symbol);
    const rule = closeQuantityRule(instrument, availableVolume(position));
    const problem = validateQuantity(req.volume, rule);
    if (problem) throw new BadRequestError(problem);
    const volume = normalizeQuantity(req.volume, rule.step);

    const quote = liveQuote(ctx.market, instrument.symbol, nowMs);
    if (!quote) {
      return {
        outcome: await rejectOrder<CloseData>(
          tx,
          {
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
          },
          key,
        ),
        closed: null,
      };
    }
    const result: { position: Position; settlement: Settlement } = await settlePosition(tx, ctx, {
      position,
      instrument,
      volume,
      quote,
      reason: CLOSE_REASON.manual,
      closeType: req.closeTypeYT,
      clientOrderId: req.clientOrderId ?? null,
      nowMs,
      quotes: conversionQuotes(ctx.market, nowMs),
    });
    const answer: Outcome<CloseData> = {
      ok: true,
      msg: TRADING_SUCCESS.positionClosed,
      data: {
        order: positionView(result.position, instrument, quote),
        settle: settleView(result.settlement),
      },
    };
    await remember(tx, key, answer, nowMs);
    return { outcome: answer, closed: result };
  });

  if (closed) {
    ctx.index.trackPosition(closed.position);
    publishAccountEvent(ctx, {
      type: 'position_closed',
      uuid: closed.position.uuid,
      symbol: closed.position.symbol,
      at: nowMs,
      orderId: String(closed.position.id),
      tradeId: String(closed.settlement.id),
      volume: closed.settlement.settleVolume,
      full: closed.position.status === 'closed',
      closeReason: closed.settlement.closeReason,
    });
  }
  return unwrap(outcome);
}
