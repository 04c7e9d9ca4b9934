import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROUNDS_WHILE_HEAVY,
  TRADE_EVERY_BAR,
  call,
  minuteBars,
  neighbourRound,
  startNeighbourServer,
  whileHeavy,
  type NeighbourServer,
} from './support.ts';

/*
 * A backtest whose strategy returns 100,000 trade records: reading, checking and computing
 * them and keeping the run leave the event loop free, so the neighbour's calls go on being
 * answered until the run is answered and kept (read back by its id, which waits for the
 * write).
 */

let server: NeighbourServer;
beforeAll(async () => {
  server = await startNeighbourServer('backtest-records', { BACKTEST_UID_BASE: '56000' });
}, 120_000);
afterAll(() => server?.processes.cleanUp());

describe('a backtest returning 100,000 records', () => {
  it("leaves the neighbour's calls answered while it is computed and kept", async () => {
    const body = JSON.stringify({ code: TRADE_EVERY_BAR, historical_data: minuteBars(100_001) });
    const outcome = await whileHeavy(
      async () => {
        const res = await call(server.url, server.heavy, '/api/backtest/code', body);
        const answer = (await res.json()) as { run_id: string; deals: unknown[]; error: unknown };
        const kept = await call(server.url, server.heavy, `/api/backtest/runs/${answer.run_id}`);
        await kept.arrayBuffer();
        return { error: answer.error, deals: answer.deals.length, kept: kept.status };
      },
      () => neighbourRound(server.url, server.neighbour, { backtest: true }),
    );
    expect(outcome.heavy).toEqual({ error: null, deals: 100_000, kept: 200 });
    expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
  }, 300_000);
});
