import { expect, it } from 'vitest';
import {
  ROUNDS_WHILE_HEAVY,
  call,
  describeNeighbour,
  whileHeavy,
  type NeighbourServer,
} from './support.ts';

/*
 * Saving a result of about 7.5 MiB to a strategy's run history (under the 8 MiB limit):
 * the body is parsed off the event loop, so the neighbour's calls go on being answered
 * while it is saved.
 */

/** The heavy user's strategy whose run history keeps the result. */
async function createBig(server: NeighbourServer): Promise<void> {
  const created = await call(server.url, server.heavy, '/api/strategies/', {
    name: 'Big',
    code: 'def main(d):\n    return []\n',
    create: true,
  });
  if (created.status !== 200) throw new Error(`strategy not created: ${await created.text()}`);
}

function deals(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    start: i,
    open_date: '2024-01-01 00:00:00',
    close_date: '2024-01-02 00:00:00',
    lots: 1,
    open_price: 100 + i,
    close_price: 101 + i,
    profit: 1,
    status: 'YES',
  }));
}

describeNeighbour('saving a large result', { name: 'result-save', prepare: createBig }, (suite) => {
  it("leaves the neighbour's health, order and kline calls answered while it is saved", async () => {
    const body = JSON.stringify({
      strategy_name: 'Big',
      symbol_id: 'GOOG',
      deals: deals(50_000),
      performance: { 净利润: 1, 胜率: 0.5, 交易次数: 50_000, equity_curve: [] },
    });
    expect(body.length).toBeGreaterThan(7 * 1024 * 1024);
    const outcome = await whileHeavy(
      async () => {
        const res = await suite.heavyCall('/api/strategy-results/', body);
        return { status: res.status, body: await res.text() };
      },
      () => suite.round(),
    );
    expect(outcome.heavy.status, outcome.heavy.body).toBe(200);
    expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
  }, 300_000);
});
