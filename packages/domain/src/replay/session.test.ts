import { describe, expect, it } from 'vitest';
import type { ValidTrade } from '../backtest/contract.ts';
import type { Bar } from '../market/bars.ts';
import {
  barPath,
  checkReplayAction,
  replaySession,
  type ReplayAction,
  type ReplayTerms,
} from './session.ts';
import { strategyActions } from './strategy.ts';

const TERMS: ReplayTerms = {
  volume_multiple: 1,
  margin_ratio_by_money: 0.1,
  commission_per_lot: 1,
  min_price_tick: 0.01,
  spread: 0.02,
  currency: 'USD',
  vol_limit_min: 0.01,
  vol_limit_max: 100,
  min_limit_ov: 0.01,
  max_limit_ov: 100,
};

const H = 3_600_000;
/** Hourly bars from 2026-01-05 00:00 UTC: [open, high, low, close] each. */
function bars(...ohlc: [number, number, number, number][]): Bar[] {
  return ohlc.map(([open, high, low, close], i) => ({
    time: Date.UTC(2026, 0, 5) + i * H,
    open,
    high,
    low,
    close,
    volume: 1,
  }));
}
const T = (i: number) => Date.UTC(2026, 0, 5) + i * H;

const BARS = bars(
  [100, 101, 99, 100], // 0: start
  [100, 102, 99.5, 101], // 1
  [101, 101.5, 97, 98], // 2: trades down through 98.5
  [95, 96, 94, 95.5], // 3: opens with a gap below
  [95.5, 104, 95, 103], // 4: trades up through 103
  [103, 103, 90, 91], // 5
);

function market(id: number, at: number, side: 'buy' | 'sell', volume: number, tp = 0, sl = 0) {
  return {
    kind: 'order',
    id,
    at,
    side,
    type: 'market',
    volume,
    price: 0,
    tp,
    sl,
    source: 'user',
  } satisfies ReplayAction;
}

function limit(id: number, at: number, side: 'buy' | 'sell', price: number, volume = 1) {
  return {
    kind: 'order',
    id,
    at,
    side,
    type: 'limit',
    volume,
    price,
    tp: 0,
    sl: 0,
    source: 'user',
  } satisfies ReplayAction;
}

function run(cursor: number, actions: ReplayAction[]) {
  return replaySession({
    bars: BARS,
    start: T(0),
    cursor,
    actions,
    terms: TERMS,
    initialBalance: 10_000,
  });
}

describe('replay account', () => {
  it('walks a bar open, high, low, close', () => {
    expect(barPath(BARS[1] as Bar)).toEqual([100, 102, 99.5, 101]);
  });

  it('fills a market order at the close of its bar (buy at the ask) and values it at each close', () => {
    const actions = [market(1, T(0), 'buy', 2)];
    const at0 = run(T(0), actions);
    expect(at0.positions).toMatchObject([{ id: 1, side: 'buy', volume: 2, price: 100.02 }]);
    // commission 1 per lot at the open; valued at the bid 100
    expect(at0.account.balance).toBe(9998);
    expect(at0.account.floating).toBe(-0.04);
    expect(at0.account.equity).toBe(9997.96);
    expect(at0.account.margin).toBe(20);
    const at1 = run(T(1), actions);
    expect(at1.account.floating).toBe(1.96);
    expect(at1.equity.map((e) => e.equity)).toEqual([9997.96, 9999.96]);
  });

  it('fills a limit buy at the first bar whose path trades through it, at its price', () => {
    // placed after bar 1 (ask 101.02): a buy at 98.5 is a limit; bar 2 falls to 97
    const state = run(T(2), [limit(1, T(1), 'buy', 98.5)]);
    expect(state.pending).toEqual([]);
    expect(state.positions).toMatchObject([{ id: 1, price: 98.5, openTime: T(2) }]);
    expect(state.fills).toMatchObject([{ time: T(2), action: 'open', price: 98.5 }]);
    // still pending while the cursor is before that bar
    expect(run(T(1), [limit(1, T(1), 'buy', 98.5)]).pending).toMatchObject([
      { id: 1, trigger: 'limit', price: 98.5 },
    ]);
  });

  it('fills at the open of a bar that gaps through the price', () => {
    // placed after bar 2 (ask 98.02): a buy at 97 fills at bar 3's open ask 95.02
    const state = run(T(3), [limit(1, T(2), 'buy', 97)]);
    expect(state.positions).toMatchObject([{ price: 95.02, openTime: T(3) }]);
  });

  it('fills a sell stop below the bid when the path falls to it', () => {
    const state = run(T(2), [limit(1, T(1), 'sell', 99)]);
    expect(state.positions).toMatchObject([{ side: 'sell', price: 99 }]);
  });

  it('closes at the TP when the path reaches it, the high coming before the low', () => {
    // bought after bar 3 at 95.52 with TP 103 and SL 95.1: bar 4 goes to 104 before 95
    const state = run(T(4), [market(1, T(3), 'buy', 1, 103, 95.1)]);
    expect(state.positions).toEqual([]);
    expect(state.trades).toMatchObject([
      { positionId: 1, openPrice: 95.52, closePrice: 103, reason: 'tp', closeTime: T(4) },
    ]);
    // 7.48 gross, 2 commission (both sides)
    expect(state.trades[0]?.profit).toBe(5.48);
    expect(state.account.balance).toBe(10_005.48);
  });

  it('closes part of a position and keeps the rest with its share of the open commission', () => {
    const actions: ReplayAction[] = [
      market(1, T(0), 'buy', 2),
      { kind: 'close', id: 2, at: T(1), positionId: 1, volume: 0.5, source: 'user' },
    ];
    const state = run(T(1), actions);
    expect(state.positions).toMatchObject([{ id: 1, volume: 1.5, openCommission: 1.5 }]);
    // sold 0.5 at the bid 101: (101 − 100.02) × 0.5 = 0.49, less 0.5 open and 0.5 close commission
    expect(state.trades).toMatchObject([{ volume: 0.5, closePrice: 101, profit: -0.51 }]);
  });

  it('steps back by recomputing: what was done after the cursor is not there', () => {
    const actions: ReplayAction[] = [market(1, T(0), 'buy', 1), market(2, T(2), 'sell', 1)];
    const forward = run(T(4), actions);
    expect(forward.positions).toHaveLength(2);
    const back = run(T(1), actions);
    expect(back).toEqual(run(T(1), [market(1, T(0), 'buy', 1)]));
    expect(back.positions).toHaveLength(1);
    expect(back.cursor).toBe(T(1));
    expect(back.equity).toHaveLength(2);
    // deterministic
    expect(run(T(4), actions)).toEqual(forward);
  });

  it('cancels a pending order and changes TP/SL', () => {
    const actions: ReplayAction[] = [
      limit(1, T(0), 'buy', 99),
      { kind: 'cancel', id: 2, at: T(0), pendingId: 1 },
      market(3, T(0), 'buy', 1),
      { kind: 'tpsl', id: 4, at: T(0), positionId: 3, tp: 0, sl: 99.3 },
    ];
    const state = run(T(1), actions);
    expect(state.pending).toEqual([]);
    // bar 1 goes down to 99.5 only: the SL at 99.3 holds
    expect(state.positions).toMatchObject([{ id: 3, sl: 99.3 }]);
    expect(run(T(2), actions).trades).toMatchObject([{ reason: 'sl', closePrice: 99.3 }]);
  });

  it('moves a pending order to a new price: it fills there, not at the old one', () => {
    const move = (
      id: number,
      at: number,
      price: number,
      tp = 0,
      sl = 0,
      pendingId = 1,
    ): ReplayAction => ({ kind: 'modify', id, at, pendingId, price, tp, sl });
    // placed after bar 0 at 98.5, moved after bar 1 to 97.5 with an SL: bar 2 falls to 97
    const actions = [limit(1, T(0), 'buy', 98.5), move(2, T(1), 97.5, 0, 96)];
    expect(run(T(1), actions).pending).toMatchObject([{ id: 1, price: 97.5, sl: 96 }]);
    const state = run(T(2), actions);
    expect(state.positions).toMatchObject([{ id: 1, price: 97.5, sl: 96, openTime: T(2) }]);
    // moved below bar 2's low it waits on
    expect(run(T(2), [limit(1, T(0), 'buy', 98.5), move(2, T(1), 96)]).pending).toMatchObject([
      { id: 1, price: 96 },
    ]);
    // the ticket's band and a pending order that is not there are refused
    const at1 = run(T(1), [limit(1, T(0), 'buy', 98.5)]);
    expect(checkReplayAction(at1, move(2, T(1), 50), 101, TERMS)).toMatch(
      /^Limit price must be between/,
    );
    expect(checkReplayAction(at1, move(2, T(1), 97.5, 0, 0, 7), 101, TERMS)).not.toBeNull();
  });

  it('refuses what the trading rules refuse', () => {
    const state = run(T(0), []);
    expect(checkReplayAction(state, market(1, T(0), 'buy', 0.005), 100, TERMS)).toMatch(
      /Quantity must be at least 0.01/,
    );
    expect(checkReplayAction(state, market(1, T(0), 'buy', 100), 100, TERMS)).toBeNull();
    expect(
      checkReplayAction(state, { ...market(1, T(0), 'buy', 100), volume: 100 }, 2000, TERMS),
    ).toMatch(/^Insufficient margin/);
    expect(checkReplayAction(state, limit(1, T(0), 'buy', 50), 100, TERMS)).toMatch(
      /^Limit price must be between/,
    );
    expect(
      checkReplayAction(
        state,
        { kind: 'close', id: 1, at: T(0), positionId: 9, volume: 1, source: 'user' },
        100,
        TERMS,
      ),
    ).toBe('Order not found: 9');
  });
});

describe('strategy in replay', () => {
  const trade = (open: number, lots: number, status: 'YES' | 'NOT'): ValidTrade => ({
    openIndex: open,
    closeIndex: status === 'YES' ? open + 1 : null,
    openTime: T(open),
    closeTime: status === 'YES' ? T(open + 1) : null,
    openPrice: 100,
    closePrice: status === 'YES' ? 101 : null,
    lots,
    status,
  });

  it('opens the positions the strategy wants and closes those it no longer wants', () => {
    const first = strategyActions({
      state: run(T(1), []),
      trades: [trade(1, 2, 'NOT')],
      at: T(1),
      nextId: 1,
      notBefore: T(0),
    });
    expect(first).toMatchObject([
      { kind: 'order', id: 1, side: 'buy', volume: 2, key: `${T(1)}:1:0`, source: 'strategy' },
    ]);
    const held = run(T(2), first);
    expect(
      strategyActions({
        state: held,
        trades: [trade(1, 2, 'NOT')],
        at: T(2),
        nextId: 2,
        notBefore: T(0),
      }),
    ).toEqual([]);
    const closing = strategyActions({
      state: held,
      trades: [trade(1, 2, 'YES')],
      at: T(2),
      nextId: 2,
      notBefore: T(0),
    });
    expect(closing).toMatchObject([{ kind: 'close', positionId: 1, volume: 2 }]);
    const closed = run(T(2), [...first, ...closing]);
    expect(closed.trades).toMatchObject([
      { openTime: T(1), closeTime: T(2), side: 'buy', volume: 2, reason: 'strategy' },
    ]);
  });

  it('does not chase records opened before the start', () => {
    expect(
      strategyActions({
        state: run(T(1), []),
        trades: [trade(0, 1, 'NOT')],
        at: T(1),
        nextId: 1,
        notBefore: T(1),
      }),
    ).toEqual([]);
  });
});
