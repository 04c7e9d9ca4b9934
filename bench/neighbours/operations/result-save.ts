import { post } from '../payloads.ts';
import type { HeavyOperation } from '../types.ts';

let created = false;

export const operation: HeavyOperation = {
  name: 'saving a 7.5 MiB result to the run history',
  async run(context) {
    if (!created) {
      await post(
        context,
        '/api/strategies/',
        JSON.stringify({ name: 'BenchBig', code: 'def main(d):\n    return []\n', create: true }),
      );
      created = true;
    }
    const deals = Array.from({ length: 50_000 }, (_, i) => ({
      start: i,
      open_date: '2024-01-01 00:00:00',
      close_date: '2024-01-02 00:00:00',
      lots: 1,
      open_price: 100 + i,
      close_price: 101 + i,
      profit: 1,
      status: 'YES',
    }));
    await post(
      context,
      '/api/strategy-results/',
      JSON.stringify({
        strategy_name: 'BenchBig',
        symbol_id: 'GOOG',
        deals,
        performance: { 净利润: 1, 胜率: 0.5, 交易次数: 50_000, equity_curve: [] },
      }),
    );
  },
};
