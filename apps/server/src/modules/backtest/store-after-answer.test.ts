import { barsFromHistorical } from '@ct/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import { dailyBars, testSandbox } from '../../test/backtest.ts';
import type { MarketData } from '../market/market-data.ts';
import { LogHub } from './log-hub.ts';
import { SandboxPool } from './sandbox/pool.ts';
import { createBacktestService } from './service.ts';

/*
 * A run is stored once its answer has been written (`RunRequest.answered`): the database's
 * statements of a large run do not hold the event loop while its answer is being sent.
 */

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let pool: SandboxPool;

beforeAll(() => {
  pool = new SandboxPool(testSandbox({ uidBase: 68_400, timeoutMs: 20_000 }), quiet);
});
afterAll(async () => {
  await pool?.close();
});

it('stores a run only after its answer was written', async () => {
  const events: string[] = [];
  // no database: the store fails at once, which is the moment it was tried
  const service = createBacktestService({
    db: null as unknown as Db,
    pool,
    logs: new LogHub(),
    market: { instrument: () => undefined } as unknown as MarketData,
    now: Date.now,
    onStoreError: () => events.push('stored'),
  });
  const converted = barsFromHistorical(dailyBars(20));
  if (!converted.ok) throw new Error(converted.error);
  let answer = () => undefined as void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const result = await service.run({
    userId: 1,
    clientId: null,
    code: 'def main(d):\n    return []\n',
    filename: 'a.py',
    bars: converted.bars,
    symbol: 'GOOG',
    period: 'day',
    strategyName: null,
    answered,
  });
  expect(result.error).toBeNull();
  await new Promise((resolve) => setImmediate(resolve));
  events.push('answered');
  answer();
  await service.storedFor(1);
  expect(events).toEqual(['answered', 'stored']);
});
