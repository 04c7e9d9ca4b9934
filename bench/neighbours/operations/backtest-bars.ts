import { NO_TRADES, minuteBars, post } from '../payloads.ts';
import type { HeavyOperation } from '../types.ts';

export const operation: HeavyOperation = {
  name: 'backtest, 200,000 bars (20 MiB body)',
  async run(context) {
    const answer = (await post(
      context,
      '/api/backtest/code',
      JSON.stringify({ code: NO_TRADES, historical_data: minuteBars(200_000) }),
    )) as { error: string | null };
    if (answer.error !== null) throw new Error(`backtest failed: ${answer.error}`);
  },
};
