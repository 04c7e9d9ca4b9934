import { describe, expect, it } from 'vitest';
import type { ReplayView } from './schemas.ts';
import { replayAccountOf, replayResults, replayTradingRows } from './views.ts';

const T0 = Date.UTC(2026, 0, 5) / 1000;
const H = 3600;

const VIEW: ReplayView = {
  id: '11111111-1111-4111-8111-111111111111',
  symbol_id: 'BTCUSDT',
  period: '1h',
  start: T0,
  cursor: T0 + 4 * H,
  strategy_name: null,
  created_at: T0,
  updated_at: T0,
  last_bar: T0 + 10 * H,
  quote: { bid: 103, ask: 103.02 },
  account: {
    initial_balance: 100_000,
    balance: 100_004,
    floating: 1.98,
    equity: 100_005.98,
    margin: 10,
    free_margin: 99_995.98,
    currency: 'USD',
  },
  positions: [
    {
      id: 1,
      side: 'buy',
      volume: 1,
      open_price: 101,
      tp: 0,
      sl: 0,
      open_time: T0 + H,
      profit: 1.98,
      source: 'user',
    },
  ],
  pending: [
    {
      id: 3,
      side: 'sell',
      trigger: 'limit',
      price: 110,
      volume: 0.5,
      tp: 0,
      sl: 0,
      placed_at: T0 + 4 * H,
      source: 'user',
    },
  ],
  trades: [
    {
      position_id: 1,
      open_time: T0 + H,
      close_time: T0 + 2 * H,
      side: 'buy',
      volume: 1,
      open_price: 101,
      close_price: 98,
      profit: -5,
      commission: 2,
      reason: 'manual',
      source: 'user',
    },
    {
      position_id: 2,
      open_time: T0 + 2 * H,
      close_time: T0 + 3 * H,
      side: 'sell',
      volume: 2,
      open_price: 98,
      close_price: 93,
      profit: 6,
      commission: 4,
      reason: 'tp',
      source: 'strategy',
    },
  ],
  fills: [
    {
      time: T0 + H,
      position_id: 1,
      action: 'open',
      side: 'buy',
      volume: 2,
      price: 101,
      source: 'user',
      reason: null,
    },
    {
      time: T0 + 2 * H,
      position_id: 2,
      action: 'open',
      side: 'sell',
      volume: 2,
      price: 98,
      source: 'strategy',
      reason: null,
    },
    {
      time: T0 + 2 * H,
      position_id: 1,
      action: 'close',
      side: 'buy',
      volume: 1,
      price: 98,
      source: 'user',
      reason: 'manual',
    },
    {
      time: T0 + 3 * H,
      position_id: 2,
      action: 'close',
      side: 'sell',
      volume: 2,
      price: 93,
      source: 'strategy',
      reason: 'tp',
    },
  ],
  equity: [
    { time: T0, equity: 100_000 },
    { time: T0 + H, equity: 99_990 },
    { time: T0 + 2 * H, equity: 99_995 },
    { time: T0 + 3 * H, equity: 100_001 },
    { time: T0 + 4 * H, equity: 100_005.98 },
  ],
  evaluations: [],
};

describe('a replay session as the trading tables show it', () => {
  it('gives its rows the session account, the cursor prices and the trading shapes', () => {
    const rows = replayTradingRows(VIEW);
    const account = replayAccountOf(VIEW.id);
    expect(account).toBe(`replay:${VIEW.id}`);
    expect(rows.positions).toEqual([
      expect.objectContaining({
        orderId: '1',
        uuid: account,
        symbol: 'BTCUSDT',
        cmd: 1,
        volume: 1,
        settledVol: 0,
        price: 101,
        // a buy closes at the bid
        marketPrice: 103,
        floatProfit: 1.98,
        status: 'open',
      }),
    ]);
    expect(rows.pendings).toEqual([
      expect.objectContaining({
        pId: '3',
        uuid: account,
        cmd: 2,
        pendPrice: 110,
        volume: 0.5,
        expireType: 'GTC',
        triggerType: 'limit',
        status: 'working',
      }),
    ]);
    // newest settlement first; the part of position 1 is partial (the rest is still open)
    expect(rows.settles.map((s) => [s.orderId, s.isSettled, s.closeReason])).toEqual([
      ['2', 2, 1],
      ['1', 1, 0],
    ]);
    expect(rows.settles[1]).toMatchObject({
      settleProfit: -3,
      openCommission: 1,
      closeCommission: 1,
      settleDate: 20260105,
      openCmd: 1,
      closeCmd: 2,
    });
  });

  it('gives its results as a backtest result: deals and figures from its trades and equity', () => {
    const { deals, performance } = replayResults(VIEW, { volume_multiple: 1 });
    expect(deals.map((d) => [d.lots, d.status, d.profit])).toEqual([
      [1, 'YES', -5],
      [-2, 'YES', 6],
      [1, 'NOT', 1.98],
    ]);
    expect(deals[2]).toMatchObject({ close_date: null, close_price: 103, start: T0 + H });
    expect(performance).toMatchObject({
      合约: 'BTCUSDT',
      周期: '1h',
      交易次数: 3,
      净利润: 5.98,
      总盈利: 7.98,
      总亏损: -5,
      winning_trades: 2,
      losing_trades: 1,
      open_trades: 1,
      initial_capital: 100_000,
      final_equity: 100_005.98,
      max_drawdown_amount: 10,
      bar_count: 5,
      最大持仓: 4,
      commission_total: 6,
    });
    expect(performance.equity_curve).toHaveLength(5);
    expect(performance.conventions.commission_per_lot).toBe(1);
  });
});
