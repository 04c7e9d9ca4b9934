import type { Performance } from '@ct/domain';
import { describe, expect, it, vi } from 'vitest';
import { MalformedAnswerError } from '../../api/client';
import { buildDeal, jsonResponse } from '../../test/fixtures';
import {
  fetchAllResultDeals,
  fetchResultDetail,
  fetchResults,
  fetchStrategies,
  fetchStrategyTemplate,
  fetchVersions,
  runBacktest,
  saveResult,
  saveStrategy,
} from './api';

const deal = buildDeal();

const performance: Performance = {
  合约: 'GOOG',
  周期: '1d',
  开始时间: '2024-01-02 00:00:00',
  结束时间: '2024-03-01 00:00:00',
  交易次数: 1,
  胜率: 1,
  盈亏比: null,
  总盈利: 10,
  总亏损: 0,
  净利润: 10,
  最大持仓: 1,
  平均每笔盈利: 10,
  profit_rate: 0.0001,
  annual_return: null,
  max_drawdown: 0,
  max_drawdown_amount: 0,
  win_rate: 1,
  sharpe_ratio: null,
  profit_factor: null,
  expectancy: 10,
  winning_trades: 1,
  losing_trades: 0,
  open_trades: 0,
  commission_total: 0,
  initial_capital: 100_000,
  final_equity: 100_010,
  bar_count: 40,
  equity_curve: [['2024/01/02 00:00:00', 100_000]],
  conventions: {
    initial_capital: 100_000,
    contract_multiplier: 1,
    commission_per_lot: 0,
    risk_free_rate: 0,
    days_per_year: 365,
    min_annualise_days: 30,
    currency: 'USD',
    bars_per_year: 252,
    open_trades_valued_at: 'last_close',
  },
};

/** A saved result as listed: no deals, figures without the curve. */
const result = {
  id: 3,
  strategy_name: 'Cross',
  symbol_id: 'GOOG',
  deal_count: 1,
  performance: { 净利润: 10, 胜率: 1, 交易次数: 1 },
  error: null,
  run_id: null,
  has_logs: false,
  size_bytes: 2048,
  automatic: false,
  created_at: 1_700_000_000,
};

function answer(body: unknown) {
  const fetchMock = vi.fn(async () => jsonResponse(body));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const runRequest = { clientId: 'c-1', code: 'def main(): pass', symbol: 'GOOG', period: '1d' };

describe('the strategy api', () => {
  it('hands over answers that match their schemas', async () => {
    answer({ strategies: [{ name: 'Cross', code: 'x', created_at: 1, updated_at: 2 }] });
    expect(await fetchStrategies()).toEqual([
      { name: 'Cross', code: 'x', created_at: 1, updated_at: 2 },
    ]);

    answer({ name: 'Cross', code: 'x', created_at: 1, updated_at: 2, created: true });
    expect(await saveStrategy('Cross', 'x', { create: true })).toMatchObject({ created: true });

    const run = {
      run_id: null,
      deals: [deal],
      performance,
      error: null,
      error_kind: null,
      logs: ['hello'],
      symbol: 'GOOG',
      period: '1d',
      bar_count: 40,
      elapsed_ms: 12,
    };
    answer({ success: true, reason: null, data: run });
    expect(await runBacktest(runRequest)).toEqual({ success: true, reason: null, data: run });

    answer(result);
    expect(await saveResult({ strategy_name: 'Cross', symbol_id: 'GOOG' })).toEqual(result);

    answer({ results: [result], total: 1 });
    expect(await fetchResults('Cross', { skip: 0, limit: 10 })).toEqual({
      results: [result],
      total: 1,
    });
  });

  it('fetches a saved result’s details, and all its deals page by page', async () => {
    answer({ ...result, performance, logs: ['hello'] });
    expect(await fetchResultDetail('Cross', 3)).toEqual({
      ...result,
      performance,
      logs: ['hello'],
    });

    const pages = [
      { deals: Array.from({ length: 1000 }, (_, i) => ({ ...deal, start: i })), total: 1500 },
      { deals: Array.from({ length: 500 }, (_, i) => ({ ...deal, start: 1000 + i })), total: 1500 },
    ];
    const fetchMock = vi.fn(async () => jsonResponse(pages.shift()));
    vi.stubGlobal('fetch', fetchMock);
    const deals = await fetchAllResultDeals('Cross Over', 3);
    expect(deals.map((d) => d.start)).toEqual(Array.from({ length: 1500 }, (_, i) => i));
    const urls = fetchMock.mock.calls.map((call) => String((call as unknown[])[0]));
    expect(urls).toHaveLength(2);
    expect(urls[0]).toMatch(/\/api\/strategy-results\/Cross%20Over\/3\/deals\?skip=0&limit=1000/);
    expect(urls[1]).toMatch(/\/deals\?skip=1000&limit=1000/);
  });

  it('hands over the template of a well-formed answer', async () => {
    answer({ code: 'def main(): pass' });
    expect(await fetchStrategyTemplate()).toBe('def main(): pass');
  });

  it.each([
    ['the template', () => fetchStrategyTemplate(), { code: 42 }],
    ['the strategy list', () => fetchStrategies(), { strategies: [{ name: 'Cross' }] }],
    ['a save', () => saveStrategy('Cross', 'x'), { name: 'Cross', code: 'x' }],
    [
      'a run',
      () => runBacktest(runRequest),
      { success: true, reason: null, data: { run_id: null, deals: [{ profit: '10' }] } },
    ],
    [
      'a saved result',
      () => saveResult({ strategy_name: 'Cross', symbol_id: 'GOOG' }),
      { ...result, performance: { 净利润: 10 } },
    ],
    [
      'a page of results',
      () => fetchResults('Cross', { skip: 0, limit: 10 }),
      { results: [{ ...result, deal_count: 'none' }], total: 1 },
    ],
    [
      'a saved result’s details',
      () => fetchResultDetail('Cross', 3),
      { ...result, performance: { 净利润: 10 }, logs: null },
    ],
    [
      'a page of deals',
      () => fetchAllResultDeals('Cross', 3),
      { deals: [{ profit: '10' }], total: 1 },
    ],
    ['the version list', () => fetchVersions('Cross'), { versions: [{ id: 'x' }] }],
  ])('refuses a malformed answer of %s with a clear error', async (_name, call, body) => {
    answer(body);
    const failure = await call().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MalformedAnswerError);
    expect((failure as Error).message).toMatch(/^Unexpected answer from (GET|POST) \/api\//);
  });
});
