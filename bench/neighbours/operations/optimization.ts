import { post } from '../payloads.ts';
import type { BenchContext, HeavyOperation } from '../types.ts';

/*
 * Heavy operation: one user optimises the Default strategy over a grid of 200 trials on GOOG
 * daily (1,000 bars) and polls it until it has completed. The trials run in the server's own
 * worker, in batches (several per claim, sandbox message, body worker task and transaction)
 * in warm sandbox interpreters, while the neighbour is measured.
 */

const FAST = { min: 2, max: 41, step: 1 };
const SLOW = { values: [50, 60, 70, 80, 90] };
const TRIALS = 40 * 5;

type Seen = { status: string; progress: { done: number; total: number } };

async function seen(context: BenchContext, id: string): Promise<Seen> {
  const res = await fetch(`${context.url}/api/optimizations/${id}?limit=1`, {
    headers: { cookie: `ct_sid=${context.heavy.cookie}` },
  });
  if (!res.ok) throw new Error(`optimization answered ${res.status}`);
  return (await res.json()) as Seen;
}

export const operation: HeavyOperation = {
  name: `optimisation, ${TRIALS} trials of the Default strategy on 1,000 daily bars`,
  async run(context) {
    const { id } = (await post(
      context,
      '/api/optimizations',
      JSON.stringify({
        strategy_name: 'Default',
        symbol_id: 'GOOG',
        period: 'day',
        bars: 1000,
        params: { fast: FAST, slow: SLOW },
        objective: 'net_profit',
        method: 'grid',
      }),
    )) as { id: string };
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      const now = await seen(context, id);
      if (now.status === 'COMPLETED') break;
      if (now.status === 'FAILED' || now.status === 'CANCELLED')
        throw new Error(`optimization ended ${now.status}`);
      if (Date.now() > deadline) throw new Error(`optimization not done in 30 min`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  },
};
