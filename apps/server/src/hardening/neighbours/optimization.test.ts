import { expect, it } from 'vitest';
import {
  ROUNDS_WHILE_HEAVY,
  describeNeighbour,
  whileHeavy,
  type NeighbourSuite,
} from './support.ts';

/*
 * Noisy neighbour: a parameter optimisation. The heavy user optimises the Default strategy
 * over a grid of 200 trials and polls it until it has completed; its trials run in the
 * worker of the same process, in batches in warm sandbox interpreters (their figures computed
 * in a body worker, each batch kept in one transaction). The neighbour's
 * rounds, a small backtest of its own included (the sandbox's fair queue puts it beside the
 * trials, not after them), go on being answered meanwhile. The rounds are counted from the
 * moment the server reports the optimisation running until it reports it completed.
 */

const FAST = { min: 2, max: 41, step: 1 };
const SLOW = { values: [50, 60, 70, 80, 90] };
const TRIALS = 40 * 5;

type Progress = { status: string; progress: { done: number; total: number } };

async function progress(suite: NeighbourSuite, id: string): Promise<Progress> {
  const res = await suite.heavyCall(`/api/optimizations/${id}?limit=1`);
  const body = (await res.json()) as Progress;
  if (res.status !== 200) throw new Error(`optimization answered ${res.status}`);
  return body;
}

const ended = (status: string) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(status);
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));

describeNeighbour(
  "a heavy user's optimisation",
  { name: 'optimization', env: { BACKTEST_UID_BASE: '58000' } },
  (suite) => {
    it("leaves the neighbour's calls and backtests answered while its trials run", async () => {
      const created = await suite.heavyCall('/api/optimizations', {
        strategy_name: 'Default',
        symbol_id: 'GOOG',
        period: 'day',
        bars: 1000,
        params: { fast: FAST, slow: SLOW },
        objective: 'net_profit',
        method: 'grid',
      });
      const { id, trials_total } = (await created.json()) as { id: string; trials_total: number };
      expect(created.status).toBe(200);
      expect(trials_total).toBe(TRIALS);

      const outcome = await whileHeavy(
        async () => {
          for (;;) {
            const seen = await progress(suite, id);
            if (ended(seen.status)) return seen;
            await pause();
          }
        },
        () => suite.round({ backtest: true }),
        // the trials have begun: the server reports the optimisation running
        async () => {
          while ((await progress(suite, id)).status === 'PENDING') await pause();
        },
      );

      expect(outcome.heavy).toMatchObject({
        status: 'COMPLETED',
        progress: { done: TRIALS, total: TRIALS },
      });
      expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
    }, 600_000);
  },
);
