import type { AiBacktestResult, AiConversation, AiTask, Performance } from '@ct/domain';
import { vi } from 'vitest';

/** A finished whole-period performance (the shape of POST /api/backtest/code). */
export function buildPerformance(overrides: Partial<Performance> = {}): Performance {
  return {
    合约: 'BTCUSDT',
    周期: '1h',
    开始时间: '2024-01-01 00:00:00',
    结束时间: '2024-02-11 15:00:00',
    交易次数: 8,
    胜率: 0.625,
    盈亏比: 1.8,
    总盈利: 900,
    总亏损: -400,
    净利润: 500,
    最大持仓: 1,
    平均每笔盈利: 62.5,
    profit_rate: 0.005,
    annual_return: null,
    max_drawdown: 0.01,
    max_drawdown_amount: 300,
    win_rate: 0.625,
    sharpe_ratio: 1.2345,
    profit_factor: 2.25,
    expectancy: 62.5,
    winning_trades: 5,
    losing_trades: 3,
    open_trades: 0,
    commission_total: 0,
    initial_capital: 100000,
    final_equity: 100500,
    bar_count: 1000,
    equity_curve: [],
    conventions: {
      initial_capital: 100000,
      contract_multiplier: 1,
      commission_per_lot: 0,
      risk_free_rate: 0,
      days_per_year: 252,
      min_annualise_days: 30,
      currency: 'USD',
      bars_per_year: 252,
      open_trades_valued_at: 'last_close',
    },
    ...overrides,
  };
}

export function buildBacktestResult(overrides: Partial<AiBacktestResult> = {}): AiBacktestResult {
  return {
    performance: buildPerformance(),
    deals: [],
    symbol: 'BTCUSDT',
    period: '1h',
    bar_count: 1000,
    in_sample_fraction: 0.7,
    in_sample: {
      from: '2024-01-01 00:00:00',
      to: '2024-01-30 03:00:00',
      bar_count: 700,
      trade_count: 6,
      performance: buildPerformance({ 交易次数: 6, 净利润: 420 }),
    },
    out_of_sample: {
      from: '2024-01-30 04:00:00',
      to: '2024-02-11 15:00:00',
      bar_count: 300,
      trade_count: 2,
      performance: buildPerformance({ 交易次数: 2, 净利润: 80 }),
    },
    lookahead: { passed: true, cuts: [], detail: 'Entries unchanged at 3 cuts' },
    ...overrides,
  };
}

const CODE = Array.from({ length: 30 }, (_, i) =>
  i === 0 ? 'def main(data_array):' : `    x${i} = ${i}`,
).join('\n');

/** A task as the server answers it (whole code), completed unless overridden. */
export function buildTask(overrides: Partial<AiTask> = {}): AiTask {
  return {
    id: 7,
    status: 'COMPLETED',
    task_type: 'strategy',
    prompt: 'Buy when the fast average crosses above the slow one',
    provider: 'qwen',
    model: 'qwen-plus',
    symbol_id: 'BTCUSDT',
    period: '1h',
    client_id: null,
    code: CODE,
    full_code: CODE,
    code_preview: `${CODE.split('\n').slice(0, 20).join('\n')}\n# … 10 more lines`,
    backtest_result: buildBacktestResult(),
    error_message: null,
    retry_count: 1,
    max_retries: 3,
    created_at: 1_700_000_000,
    updated_at: 1_700_000_060,
    started_at: 1_700_000_001,
    finished_at: 1_700_000_060,
    ...overrides,
  };
}

/** A task still waiting for a worker. */
export function pendingTask(overrides: Partial<AiTask> = {}): AiTask {
  return buildTask({
    status: 'PENDING',
    code: null,
    full_code: null,
    code_preview: null,
    backtest_result: null,
    retry_count: 0,
    started_at: null,
    finished_at: null,
    ...overrides,
  });
}

export function buildConversation(overrides: Partial<AiConversation> = {}): AiConversation {
  const steps: [string, 'user' | 'ai', number][] = [
    ['initial_prompt', 'user', 0],
    ['generate_prompt', 'user', 0],
    ['ai_response', 'ai', 0],
    ['error', 'ai', 0],
    ['fix_prompt', 'user', 1],
    ['ai_response', 'ai', 1],
    ['validation', 'ai', 1],
    ['backtest', 'ai', 1],
  ];
  const conversations = steps.map(([step_type, role, retry_number], i) => ({
    id: i + 1,
    role,
    content: `${step_type} content`,
    step_type,
    retry_number,
    extra_data: null,
    created_at: 1_700_000_000 + i,
  }));
  return {
    task_id: 7,
    conversations,
    total_messages: conversations.length,
    retry_numbers: [0, 1],
    ...overrides,
  };
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

type Route = (url: URL, body: unknown) => Response | Promise<Response>;

/**
 * Stubs fetch with answers by `METHOD /path`; other calls stay pending. Records every call
 * with its query and JSON body.
 */
export function stubServer(routes: Record<string, Route>) {
  const calls: { key: string; url: URL; body: unknown }[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ key, url, body });
    const route = routes[key];
    return route ? Promise.resolve(route(url, body)) : new Promise<Response>(() => {});
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, called: (key: string) => calls.filter((c) => c.key === key) };
}
