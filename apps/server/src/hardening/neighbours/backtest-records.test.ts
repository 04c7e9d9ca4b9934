import { expect, it } from 'vitest';
import {
  ROUNDS_WHILE_HEAVY,
  TRADE_EVERY_BAR,
  describeNeighbour,
  minuteBars,
  roundsBetweenSteps,
  whileHeavy,
} from './support.ts';

/*
 * A backtest whose strategy returns 100,000 trade records (the most a strategy may return;
 * the answer is over 20 MB): reading, checking and computing them, answering, keeping the
 * run and reading it back leave the event loop free, so the neighbour's calls go on being
 * answered until the run is answered and kept, and while it is read back.
 *
 * The strategy's own run in the sandbox leaves the loop free in any case, so the rounds
 * answered before the first answer prove little; the read-backs (each waits for the run's
 * write, then reads and sends the deals) come after it, and each must see rounds of its own.
 */

/** Reads of the kept run after its answer. */
const READ_BACKS = 2;

describeNeighbour(
  'a backtest returning 100,000 records',
  { name: 'backtest-records', env: { BACKTEST_UID_BASE: '56000' } },
  (suite) => {
    it("leaves the neighbour's calls answered while it is computed, kept and read back", async () => {
      const body = JSON.stringify({ code: TRADE_EVERY_BAR, historical_data: minuteBars(100_001) });
      // the order of events: 'round' per neighbour round, the heavy call's steps by name
      const events: string[] = [];
      const outcome = await whileHeavy(
        async () => {
          const res = await suite.heavyCall('/api/backtest/code', body);
          const answer = (await res.json()) as { run_id: string; deals: unknown[]; error: unknown };
          if (!Array.isArray(answer.deals)) throw new Error(`answered ${res.status}`);
          events.push('answered');
          const kept: number[] = [];
          for (let i = 0; i < READ_BACKS; i++) {
            const read = await suite.heavyCall(`/api/backtest/runs/${answer.run_id}`);
            const run = (await read.json()) as { deals: unknown[] };
            events.push('read back');
            kept.push(read.status, run.deals.length);
          }
          return { error: answer.error, deals: answer.deals.length, kept };
        },
        async () => {
          await suite.round({ backtest: true });
          events.push('round');
        },
      );
      expect(outcome.heavy).toEqual({
        error: null,
        deals: 100_000,
        kept: Array.from({ length: READ_BACKS }, () => [200, 100_000]).flat(),
      });
      expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
      // rounds answered between the heavy call's steps: each read-back has its own
      const between = roundsBetweenSteps(events, (event) => event !== 'round');
      expect(between.slice(1, READ_BACKS + 1)).toEqual(
        Array.from({ length: READ_BACKS }, () => expect.any(Number)),
      );
      for (const rounds of between.slice(1, READ_BACKS + 1)) {
        expect(rounds, events.join(' ')).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
      }
    }, 600_000);
  },
);
