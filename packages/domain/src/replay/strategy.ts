import type { ValidTrade } from '../backtest/contract.ts';
import { reconcile, wantedPositions } from '../live-runs/reconcile.ts';
import type { ReplayAction, ReplayState } from './session.ts';

/** Most positions a strategy holds at once in a replay. */
export const REPLAY_STRATEGY_MAX_POSITIONS = 100;

/**
 * The orders a strategy's answer at a replayed bar close sends, exactly as a live run's
 * (live-runs/reconcile.ts): held positions it no longer wants are closed first, wanted ones
 * not held are opened at market with |lots| lots. Records opened before `notBefore` (the
 * session's start bar) are not chased. Ids are taken from `nextId` on.
 */
export function strategyActions(input: {
  state: ReplayState;
  trades: readonly ValidTrade[];
  at: number;
  nextId: number;
  notBefore: number;
}): ReplayAction[] {
  const held = input.state.positions
    .filter((p) => p.source === 'strategy' && p.key !== null)
    .map((p) => ({
      positionId: String(p.id),
      key: p.key ?? '',
      cmd: p.side === 'buy' ? (1 as const) : (2 as const),
      volume: p.volume,
    }));
  const plan = reconcile({
    wanted: wantedPositions(input.trades),
    held,
    lotsMultiplier: 1,
    maxPositions: REPLAY_STRATEGY_MAX_POSITIONS,
    notBefore: input.notBefore,
  });
  let id = input.nextId;
  const actions: ReplayAction[] = [];
  for (const h of plan.close) {
    actions.push({
      kind: 'close',
      id: id++,
      at: input.at,
      positionId: Number(h.positionId),
      volume: h.volume,
      source: 'strategy',
    });
  }
  for (const w of plan.open) {
    actions.push({
      kind: 'order',
      id: id++,
      at: input.at,
      side: w.cmd === 1 ? 'buy' : 'sell',
      type: 'market',
      volume: w.volume,
      price: 0,
      tp: 0,
      sl: 0,
      source: 'strategy',
      key: w.key,
    });
  }
  return actions;
}
