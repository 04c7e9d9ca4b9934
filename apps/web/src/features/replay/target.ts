import { replayAccountOf, replayTradingRows, type ReplayView } from '@ct/domain';
import { useEffect, useMemo } from 'react';
import { replay as messages } from '../../i18n/defaults/replay';
import { done, failed, type Outcome } from '../../shared/outcome';
import { setChartTradingTarget, type PlaceOrderInput, type TradingTarget } from '../trading';
import { orderReplay } from './actions';
import type { ReplayOrderBody } from './api';

/*
 * The replay session as the trading panel's target (features/trading target.ts): while a
 * chart replays, its ticket, tables and dialogs trade the session's own account through
 * POST /api/replays/{id}/orders, and nothing reaches the trader's account.
 */

const m = messages.replay;

/** The session's order call as an operation's outcome: the refusal's detail, or `success`. */
async function send(id: string, body: ReplayOrderBody, success: string): Promise<Outcome> {
  const answer = await orderReplay(id, body);
  return answer.ok ? done(success) : failed(answer.detail ?? m.failed);
}

/** The ticket's order as the replay's order body. */
export function replayOrderBody(input: PlaceOrderInput): ReplayOrderBody {
  const cmd = input.side === 'buy' ? 1 : 2;
  const exits = { ...(input.tp ? { tp: input.tp } : {}), ...(input.sl ? { sl: input.sl } : {}) };
  return input.orderType === 'market'
    ? { type: 'market', cmd, volume: input.quantity, ...exits }
    : {
        type: 'limit',
        cmd,
        volume: input.quantity,
        pendPrice: input.limitPrice ?? Number.NaN,
        ...exits,
      };
}

/** The trading target of a session as it now is. */
export function replayTarget(view: ReplayView): TradingTarget {
  const { id } = view;
  return {
    account: replayAccountOf(id),
    label: m.account,
    symbol: view.symbol_id,
    quote: view.quote,
    figures: {
      balance: view.account.balance,
      equity: view.account.equity,
      floating: view.account.floating,
      margin: view.account.margin,
      freeMargin: view.account.free_margin,
      currency: view.account.currency,
    },
    ...replayTradingRows(view),
    place: (input) =>
      send(
        id,
        replayOrderBody(input),
        input.orderType === 'market' ? m.orderPlaced : m.pendingPlaced,
      ),
    close: (orderId, volume) => send(id, { type: 'close', orderId, volume }, m.closed),
    cancel: (pId) => send(id, { type: 'cancel', pId }, m.canceled),
    tpsl: (orderId, tp, sl) => send(id, { type: 'tpsl', orderId, tp, sl }, m.tpslSaved),
    modify: (pId, change) =>
      send(
        id,
        {
          type: 'modify',
          pId,
          pendPrice: change.price,
          ...(change.tp > 0 ? { tp: change.tp } : {}),
          ...(change.sl > 0 ? { sl: change.sl } : {}),
        },
        m.pendingMoved,
      ),
  };
}

/** Makes the session the trading panel's target while `chartId` replays it. */
export function useReplayTradingTarget(chartId: string, view: ReplayView | undefined): void {
  const target = useMemo(() => (view ? replayTarget(view) : null), [view]);
  useEffect(() => setChartTradingTarget(chartId, target), [chartId, target]);
  useEffect(() => () => setChartTradingTarget(chartId, null), [chartId]);
}
