import { expect, it } from 'vitest';
import { ROUNDS_WHILE_HEAVY, describeNeighbour, minuteCsv, whileHeavy } from './support.ts';

/*
 * A CSV import of 100,000 rows (about 5 MiB): its body is parsed off the event loop and its
 * bars are written in batches that let other requests in between, so the neighbour's calls
 * go on being answered while it runs.
 */

describeNeighbour('a large CSV import', { name: 'import' }, (suite) => {
  it("leaves the neighbour's health, order and kline calls answered while it runs", async () => {
    const csv = minuteCsv(100_000);
    const outcome = await whileHeavy(
      async () => {
        const res = await suite.heavyCall('/api/market/imports', {
          name: 'big',
          csv,
        });
        return { status: res.status, body: (await res.json()) as { bars?: number } };
      },
      () => suite.round(),
    );
    expect(outcome.heavy).toMatchObject({ status: 200, body: { bars: 100_000 } });
    expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
  }, 300_000);
});
