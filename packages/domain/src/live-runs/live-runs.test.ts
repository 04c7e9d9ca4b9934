import { describe, expect, it } from 'vitest';
import type { ValidTrade } from '../backtest/contract.ts';
import { backtestTradesOf, compareRuns, type ForwardTrade } from './comparison.ts';
import { reconcile, wantedPositions } from './reconcile.ts';
import {
  liveRunComparisonSchema,
  liveRunIdOfComment,
  liveRunComment,
  startLiveRunRequestSchema,
} from './schemas.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5, 10, 0);
const t = (n: number) => T0 + n * MIN;
const s = (n: number) => Math.floor(t(n) / 1000);

function trade(partial: Partial<ValidTrade> & Pick<ValidTrade, 'lots' | 'openTime'>): ValidTrade {
  return {
    openIndex: 0,
    closeIndex: null,
    closeTime: null,
    openPrice: 100,
    closePrice: null,
    status: 'NOT',
    ...partial,
  };
}

describe('wantedPositions', () => {
  it('keeps the records still open, keyed by open time, side and occurrence', () => {
    const wanted = wantedPositions([
      trade({ lots: 1, openTime: t(0), status: 'YES', closeTime: t(1), closePrice: 101 }),
      trade({ lots: 2, openTime: t(1), openPrice: 101 }),
      trade({ lots: -1, openTime: t(1), openPrice: 101 }),
      trade({ lots: 3, openTime: t(1), openPrice: 101 }),
    ]);
    expect(wanted.map((w) => [w.key, w.cmd, w.lots])).toEqual([
      [`${t(1)}:1:0`, 1, 2],
      [`${t(1)}:2:0`, 2, -1],
      [`${t(1)}:1:1`, 1, 3],
    ]);
  });
});

describe('reconcile', () => {
  const wanted = wantedPositions([
    trade({ lots: 1, openTime: t(2), openPrice: 100 }),
    trade({ lots: -0.5, openTime: t(3), openPrice: 101 }),
    trade({ lots: 1, openTime: t(4), openPrice: 102 }),
  ]);

  it('opens what is new with the lots multiplier and closes what is no longer wanted', () => {
    const plan = reconcile({
      wanted,
      held: [
        { positionId: '7', key: `${t(2)}:1:0`, cmd: 1, volume: 3 },
        { positionId: '8', key: `${t(1)}:1:0`, cmd: 1, volume: 3 },
      ],
      lotsMultiplier: 3,
      maxPositions: 5,
      notBefore: t(0),
    });
    expect(plan.close.map((h) => h.positionId)).toEqual(['8']);
    expect(plan.open.map((o) => [o.key, o.cmd, o.volume])).toEqual([
      [`${t(3)}:2:0`, 2, 1.5],
      [`${t(4)}:1:0`, 1, 3],
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it('never holds more than max_positions, counting after the closes', () => {
    const plan = reconcile({
      wanted,
      held: [{ positionId: '9', key: 'gone', cmd: 1, volume: 1 }],
      lotsMultiplier: 1,
      maxPositions: 2,
      notBefore: t(0),
    });
    expect(plan.close.map((h) => h.positionId)).toEqual(['9']);
    expect(plan.open.map((o) => o.key)).toEqual([`${t(2)}:1:0`, `${t(3)}:2:0`]);
    expect(plan.skipped).toEqual([{ key: `${t(4)}:1:0`, reason: 'max_positions' }]);
  });

  it('does not chase entries made before the run started', () => {
    const plan = reconcile({
      wanted,
      held: [],
      lotsMultiplier: 1,
      maxPositions: 5,
      notBefore: t(3),
    });
    expect(plan.open.map((o) => o.key)).toEqual([`${t(3)}:2:0`, `${t(4)}:1:0`]);
    expect(plan.skipped).toEqual([{ key: `${t(2)}:1:0`, reason: 'before_start' }]);
  });

  it('does nothing when what is held is what is wanted', () => {
    const held = wanted.map((w, i) => ({
      positionId: String(i),
      key: w.key,
      cmd: w.cmd,
      volume: 1,
    }));
    const plan = reconcile({ wanted, held, lotsMultiplier: 1, maxPositions: 3, notBefore: 0 });
    expect(plan).toEqual({ close: [], open: [], skipped: [] });
  });
});

describe('compareRuns', () => {
  it('splits a matched trade’s gap into spread and slippage (hand-computed)', () => {
    // buy 1 lot × multiplier 2 = 2 lots, contract multiplier 10, commission 0.5 per lot and side:
    // backtest 100 → 105: 20 × 5 = 100 − 2 commission = 98
    // forward: ask 100.2 (bid 100.0) → bid 104.9 (bar close 105): 20 × 4.7 = 94 − 2 = 92
    const backtest = backtestTradesOf(
      [
        trade({
          lots: 1,
          openTime: t(0),
          openIndex: 0,
          openPrice: 100,
          status: 'YES',
          closeTime: t(2),
          closeIndex: 2,
          closePrice: 105,
        }),
      ],
      [t(0), t(1), t(2)],
      2,
    );
    const forward: ForwardTrade[] = [
      {
        cmd: 1,
        volume: 2,
        open: { barTime: t(0), price: 100.2, reference: 100, strategyPrice: 100, commission: 1 },
        close: { barTime: t(2), price: 104.9, reference: 104.9, strategyPrice: 105, commission: 1 },
      },
    ];
    const result = compareRuns(
      {
        backtest,
        forward,
        contractMultiplier: 10,
        commissionPerLot: 0.5,
        toleranceMs: MIN,
        lastClose: 105,
      },
      t(3),
    );
    expect(result.pnl_backtest).toBe(98);
    expect(result.pnl_forward).toBe(92);
    // spread: −20 × 0.2 = −4; slippage: 20 × (104.9 − 105) = −2; commission 2 vs 2
    expect(result.causes).toEqual({
      spread: -4,
      commission: 0,
      slippage: -2,
      missed_bars: 0,
      other: 0,
    });
    expect(result.matched).toHaveLength(1);
    expect(result.matched[0]).toMatchObject({
      open_price_diff: 0.2,
      close_price_diff: -0.1,
      open_delay: 0,
      close_delay: 0,
      profit_diff: -6,
    });
    expect(result.only_backtest).toEqual([]);
    expect(result.only_forward).toEqual([]);
  });

  it('charges a commission the backtest did not to the commission cause', () => {
    const backtest = backtestTradesOf(
      [
        trade({
          lots: 1,
          openTime: t(0),
          openPrice: 10,
          status: 'YES',
          closeTime: t(1),
          closeIndex: 1,
          closePrice: 11,
        }),
      ],
      [t(0), t(1)],
      1,
    );
    const forward: ForwardTrade[] = [
      {
        cmd: 1,
        volume: 1,
        open: { barTime: t(0), price: 10, reference: 10, strategyPrice: 10, commission: 0.25 },
        close: { barTime: t(1), price: 11, reference: 11, strategyPrice: 11, commission: 0.25 },
      },
    ];
    const result = compareRuns(
      {
        backtest,
        forward,
        contractMultiplier: 1,
        commissionPerLot: 0,
        toleranceMs: MIN,
        lastClose: 11,
      },
      t(2),
    );
    expect([result.pnl_backtest, result.pnl_forward]).toEqual([1, 0.5]);
    expect(result.causes).toEqual({
      spread: 0,
      commission: -0.5,
      slippage: 0,
      missed_bars: 0,
      other: 0,
    });
  });

  it('reports late entries, trades in one list only and open trades (hand-computed)', () => {
    // backtest: sell 50 → 48 (t0 → t1) = +2; buy 10 → 12 (t3 → t4) = +2; total 4
    // forward: sell one bar late, bid 49.0 (bar close 49.1) → ask 47.6 (bid 47.5, bar close 47.4)
    //          = 1.4; buy at t5, ask 12.1, still open at 12.5 = 0.4; total 1.8; gap −2.2
    const barTimes = [t(0), t(1), t(2), t(3), t(4), t(5), t(6)];
    const backtest = backtestTradesOf(
      [
        trade({
          lots: -1,
          openTime: t(0),
          openIndex: 0,
          openPrice: 50,
          status: 'YES',
          closeTime: t(1),
          closeIndex: 1,
          closePrice: 48,
        }),
        trade({
          lots: 1,
          openTime: t(3),
          openIndex: 3,
          openPrice: 10,
          status: 'YES',
          closeTime: t(4),
          closeIndex: 4,
          closePrice: 12,
        }),
      ],
      barTimes,
      1,
    );
    const forward: ForwardTrade[] = [
      {
        cmd: 2,
        volume: 1,
        open: { barTime: t(1), price: 49, reference: 49, strategyPrice: 49.1, commission: 0 },
        close: { barTime: t(2), price: 47.6, reference: 47.5, strategyPrice: 47.4, commission: 0 },
      },
      {
        cmd: 1,
        volume: 1,
        open: { barTime: t(5), price: 12.1, reference: 12, strategyPrice: 12, commission: 0 },
        close: null,
      },
    ];
    const result = compareRuns(
      {
        backtest,
        forward,
        contractMultiplier: 1,
        commissionPerLot: 0,
        toleranceMs: MIN,
        lastClose: 12.5,
      },
      t(6),
    );
    expect(result.pnl_backtest).toBe(4);
    expect(result.pnl_forward).toBe(1.8);
    // sell pair: spread (close) −0.1; slippage −0.1 (open) −0.1 (close); missed −0.9 + 0.6
    // one-list trades: −2 (backtest only) + 0.4 (forward only)
    expect(result.causes).toEqual({
      spread: -0.1,
      commission: 0,
      slippage: -0.2,
      missed_bars: -1.9,
      other: 0,
    });
    expect(result.matched).toHaveLength(1);
    expect(result.matched[0]).toMatchObject({
      open_price_diff: -1,
      close_price_diff: -0.4,
      open_delay: 60,
      close_delay: 60,
      profit_diff: -0.6,
    });
    expect(result.only_backtest).toEqual([
      {
        cmd: 1,
        volume: 1,
        open_time: s(3),
        open_price: 10,
        close_time: s(4),
        close_price: 12,
        profit: 2,
        commission: 0,
      },
    ]);
    expect(result.only_forward).toEqual([
      {
        cmd: 1,
        volume: 1,
        open_time: s(5),
        open_price: 12.1,
        close_time: null,
        close_price: null,
        profit: 0.4,
        commission: 0,
      },
    ]);
    expect(result.curve_backtest).toEqual([
      [s(1), 2],
      [s(4), 4],
    ]);
    expect(result.curve_forward).toEqual([
      [s(2), 1.4],
      [s(6), 1.8],
    ]);
    const parsed = liveRunComparisonSchema.safeParse({
      ...result,
      from: s(0),
      to: s(6),
      bars: 7,
      backtest_error: null,
    });
    expect(parsed.success).toBe(true);
  });
});

describe('live run schemas', () => {
  it('reads a start request with client period names and numeric strings', () => {
    const parsed = startLiveRunRequestSchema.parse({
      strategy_name: 'Cross',
      uuid: 'abc',
      token: 't',
      symbol_id: 'BTCUSDT',
      period: 'oneMinute',
      lots: '0.5',
      max_positions: '3',
    });
    expect(parsed).toMatchObject({ period: '1m', lots: 0.5, max_positions: 3 });
  });

  it('refuses lots of 0 and an unknown period with messages naming them', () => {
    const result = startLiveRunRequestSchema.safeParse({
      strategy_name: 'Cross',
      uuid: 'abc',
      token: 't',
      symbol_id: 'BTCUSDT',
      period: '2m',
      lots: 0,
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toContain('lots must be a number above 0 and at most 1000');
    expect(messages.some((m) => m.startsWith('period must be one of'))).toBe(true);
  });

  it('tags orders with the run id and reads it back', () => {
    const id = '0b7e0c2e-8d1c-4c7e-9a57-2f0d8b1e4a11';
    expect(liveRunComment(id)).toBe(`live:${id}`);
    expect(liveRunIdOfComment(liveRunComment(id))).toBe(id);
    expect(liveRunIdOfComment('manual')).toBeNull();
  });
});
