import type { Performance } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { buildChatContext, metricsForChat } from './context';

const performance = {
  合约: 'BTCUSDT',
  交易次数: 12,
  胜率: 0.5,
  盈亏比: null,
  equity_curve: [['2024-01-01', 10_000]],
  conventions: { initial_capital: 10_000 },
} as unknown as Performance;

describe('the chat context', () => {
  it('carries the chart, the editor code and the last metrics', () => {
    expect(
      buildChatContext({
        chart: { symbol: 'BTCUSDT', period: '1h' },
        code: 'def main(data_array):\n    return []',
        lastBacktest: { strategyName: 'Cross', performance, error: null },
      }),
    ).toEqual({
      symbol: 'BTCUSDT',
      period: '1h',
      code: 'def main(data_array):\n    return []',
      strategyName: 'Cross',
      backtest: { metrics: { 合约: 'BTCUSDT', 交易次数: 12, 胜率: 0.5, 盈亏比: null } },
    });
  });

  it("carries a failed run's error instead of metrics", () => {
    const context = buildChatContext({
      chart: null,
      code: null,
      lastBacktest: { strategyName: null, performance: null, error: 'NameError: x' },
    });
    expect(context).toEqual({ backtest: { error: 'NameError: x' } });
  });

  it('leaves out what is unknown or empty', () => {
    expect(
      buildChatContext({ chart: { symbol: null, period: '1m' }, code: '  ', lastBacktest: null }),
    ).toEqual({});
  });

  it('keeps only plain metric values', () => {
    expect(Object.keys(metricsForChat(performance))).not.toContain('equity_curve');
  });
});
