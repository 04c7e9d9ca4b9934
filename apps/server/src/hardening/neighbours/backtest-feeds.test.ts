import { expect, it } from 'vitest';
import {
  ROUNDS_WHILE_HEAVY,
  describeNeighbour,
  minuteBars,
  roundsBetweenSteps,
  whileHeavy,
} from './support.ts';
import { TRADE_EVERY_BAR_OF_EACH } from '../../test/backtest.ts';

/*
 * A backtest on two feeds (50,000 minute bars of each of two instruments) whose strategy
 * returns a trade per bar on each, 99,998 records in all: merging the feeds' rows, checking
 * the records per instrument, computing each instrument's deals and figures and the
 * portfolio's equity, answering, keeping the run and reading it back leave the event loop
 * free. The result is read, checked and computed in a body worker, as a one-feed run's is;
 * the read-backs come after the answer, and each must see rounds of its own.
 */

const BARS = 50_000;
const READ_BACKS = 2;

describeNeighbour(
  'a backtest on two feeds returning 99,998 records',
  { name: 'backtest-feeds', env: { BACKTEST_UID_BASE: '56400' } },
  (suite) => {
    it("leaves the neighbour's calls answered while it is computed, kept and read back", async () => {
      const bars = minuteBars(BARS);
      const body = JSON.stringify({
        code: TRADE_EVERY_BAR_OF_EACH,
        feeds: [
          { symbol_id: 'GOOG', period: '1m', historical_data: bars },
          { symbol_id: 'XAUUSD', period: '1m', historical_data: bars },
        ],
      });
      const events: string[] = [];
      const outcome = await whileHeavy(
        async () => {
          const res = await suite.heavyCall('/api/backtest/code', body);
          const answer = (await res.json()) as {
            run_id: string;
            deals: unknown[];
            error: unknown;
            per_symbol?: Record<string, { 交易次数: number }>;
          };
          if (!Array.isArray(answer.deals)) throw new Error(`answered ${res.status}`);
          events.push('answered');
          const kept: number[] = [];
          for (let i = 0; i < READ_BACKS; i++) {
            const read = await suite.heavyCall(`/api/backtest/runs/${answer.run_id}`);
            const run = (await read.json()) as { deals: unknown[]; per_symbol?: object };
            events.push('read back');
            kept.push(read.status, run.deals.length, Object.keys(run.per_symbol ?? {}).length);
          }
          return {
            error: answer.error,
            deals: answer.deals.length,
            trades: Object.values(answer.per_symbol ?? {}).map((p) => p.交易次数),
            kept,
          };
        },
        async () => {
          await suite.round({ backtest: true });
          events.push('round');
        },
      );
      expect(outcome.heavy).toEqual({
        error: null,
        deals: 2 * (BARS - 1),
        trades: [BARS - 1, BARS - 1],
        kept: Array.from({ length: READ_BACKS }, () => [200, 2 * (BARS - 1), 2]).flat(),
      });
      expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
      const between = roundsBetweenSteps(events, (event) => event !== 'round');
      for (const rounds of between.slice(1, READ_BACKS + 1)) {
        expect(rounds, events.join(' ')).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
      }
    }, 600_000);
  },
);
