import { TRADE_EVERY_BAR, get, minuteBars, post } from '../payloads.ts';
import type { HeavyOperation } from '../types.ts';

export const operation: HeavyOperation = {
  name: 'backtest returning 100,000 records (answered and kept)',
  async run(context) {
    const answer = (await post(
      context,
      '/api/backtest/code',
      JSON.stringify({ code: TRADE_EVERY_BAR, historical_data: minuteBars(100_001) }),
    )) as { error: string | null; run_id: string };
    if (answer.error !== null) throw new Error(`backtest failed: ${answer.error}`);
    // reading the run back waits for its write
    await get(context, `/api/backtest/runs/${answer.run_id}`);
  },
};
