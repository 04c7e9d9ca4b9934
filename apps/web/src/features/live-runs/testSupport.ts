import type {
  ComparedTradeView,
  LiveRunComparison,
  LiveRunEvaluationView,
  LiveRunView,
} from './api';

/** A run id (the server's are UUIDs). */
export const RUN_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const OTHER_RUN_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A running run of SMA Cross on BTCUSDT 1m, as GET /api/live-runs lists it. */
export function buildRun(overrides: Partial<LiveRunView> = {}): LiveRunView {
  return {
    id: RUN_ID,
    strategy_name: 'SMA Cross',
    task_id: null,
    uuid: 'acc-1',
    symbol_id: 'BTCUSDT',
    period: '1m',
    lots: 2,
    max_positions: 3,
    status: 'running',
    started_at: 1_700_000_000,
    stopped_at: null,
    evaluations: 12,
    orders: 4,
    net_profit: -12.5,
    open_positions: 1,
    last_evaluation_at: 1_700_000_720,
    consecutive_failures: 0,
    max_failures: 5,
    error: null,
    ...overrides,
  };
}

/** An evaluation at bar close `at` that opened a buy of 2 at 45,010. */
export function buildEvaluation(
  overrides: Partial<LiveRunEvaluationView> = {},
): LiveRunEvaluationView {
  return {
    at: 1_700_000_720,
    bar_time: 1_700_000_660,
    bars: 500,
    wanted: [{ lots: 1, open_date: '2023-11-14 22:11:00', open_price: 45_000 }],
    orders: [
      {
        action: 'open',
        cmd: 1,
        volume: 2,
        client_order_id: 'lr0f8fad5bd9cb-o1700000660-1-0',
        order_id: '31',
        status: 'filled',
        price: 45_010,
        strategy_price: 45_000,
        message: '',
      },
    ],
    error: null,
    printed: [],
    duration_ms: 42,
    ...overrides,
  };
}

export function buildTrade(overrides: Partial<ComparedTradeView> = {}): ComparedTradeView {
  return {
    cmd: 1,
    volume: 2,
    open_time: 1_700_000_060,
    open_price: 45_000,
    close_time: 1_700_000_180,
    close_price: 45_100,
    profit: 200,
    commission: 0,
    ...overrides,
  };
}

/**
 * The comparison of a run with its own backtest: one matched trade whose forward side paid
 * the spread (10 a lot at each end) and the commission, one trade of each side only.
 */
export function buildComparison(overrides: Partial<LiveRunComparison> = {}): LiveRunComparison {
  const backtest = buildTrade();
  const forward = buildTrade({
    open_price: 45_010,
    close_price: 45_090,
    profit: 156,
    commission: 4,
  });
  return {
    from: 1_700_000_000,
    to: 1_700_000_600,
    bars: 10,
    matched: [
      {
        backtest,
        forward,
        open_price_diff: 10,
        close_price_diff: -10,
        open_delay: 0,
        close_delay: 0,
        profit_diff: -44,
      },
    ],
    only_backtest: [
      buildTrade({ open_time: 1_700_000_300, close_time: 1_700_000_420, profit: 50 }),
    ],
    only_forward: [
      buildTrade({
        cmd: 2,
        open_time: 1_700_000_240,
        close_time: null,
        close_price: null,
        profit: -6,
      }),
    ],
    pnl_backtest: 250,
    pnl_forward: 150,
    causes: { spread: -40, commission: -4, slippage: 0, missed_bars: -56, other: 0 },
    curve_backtest: [
      [1_700_000_180, 200],
      [1_700_000_420, 250],
    ],
    curve_forward: [
      [1_700_000_180, 156],
      [1_700_000_600, 150],
    ],
    backtest_error: null,
    ...overrides,
  };
}
