import { barsFromHistorical, type Bar } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import {
  TRADE_EVERY_BAR,
  TRADE_EVERY_BAR_OF_EACH,
  dailyBars,
  testSandbox,
} from '../../test/backtest.ts';
import { createBodyWorkers, type BodyWorkers } from '../../workers/body-workers.ts';
import type { MarketData } from '../market/market-data.ts';
import { LogHub } from './log-hub.ts';
import { SandboxPool } from './sandbox/pool.ts';
import { createBacktestService, type BacktestService } from './service.ts';

/*
 * An AI task's runs (`check`) come back like a backtest's: a large result unread from the
 * sandbox, parsed, checked and computed in a body worker, its trades, deals and equity curve
 * taken back a piece per turn of the event loop. The figures are those of the same result
 * evaluated on the event loop; a small result is still evaluated there.
 */

const UID_BASE = 68_000;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const market = { instrument: () => undefined } as unknown as MarketData;

let pool: SandboxPool;
let workers: BodyWorkers;
const evaluated: { feeds?: true; withTrades: boolean | undefined }[] = [];
let inWorker: BacktestService;
let onLoop: BacktestService;

beforeAll(() => {
  pool = new SandboxPool(testSandbox({ uidBase: UID_BASE, timeoutMs: 20_000 }), quiet);
  workers = createBodyWorkers(1);
  const base = { db: null as unknown as Db, pool, logs: new LogHub(), market, now: Date.now };
  inWorker = createBacktestService({
    ...base,
    evaluateInWorker: (bytes, input, piece, withTrades) => {
      evaluated.push({ withTrades });
      return workers.backtest(bytes, input, piece, withTrades);
    },
    evaluateFeedsInWorker: (bytes, instruments, memoryBytes, piece, withTrades) => {
      evaluated.push({ feeds: true, withTrades });
      return workers.feeds(bytes, instruments, memoryBytes, piece, withTrades);
    },
  });
  onLoop = createBacktestService(base);
});
afterAll(async () => {
  await workers?.close();
  await pool?.close();
});

function bars(count: number): Bar[] {
  const converted = barsFromHistorical(dailyBars(count));
  if (!converted.ok) throw new Error(converted.error);
  return converted.bars;
}

const request = (count: number) => ({
  code: TRADE_EVERY_BAR,
  filename: 'ai_task_1.py',
  bars: bars(count),
  symbol: 'TEST',
  period: 'day',
});

/** A check's figures without what differs from run to run (wall time). */
function figures(result: Awaited<ReturnType<BacktestService['check']>>) {
  if (!result.ok) return result;
  const { elapsedMs: _elapsed, ...rest } = result;
  return rest;
}

describe("an AI task's check", () => {
  it('evaluates a large result in a body worker, with the figures of the event loop', async () => {
    const large = request(4000); // about 400 KB of records
    const answer = await inWorker.check(large);
    expect(evaluated).toEqual([{ withTrades: true }]);
    expect(answer).toMatchObject({ ok: true });
    if (!answer.ok) return;
    expect(answer.trades).toHaveLength(3999);
    expect(answer.deals).toHaveLength(3999);
    expect(figures(answer)).toEqual(figures(await onLoop.check(large)));
  }, 60_000);

  it('evaluates a large result on several feeds in a body worker, with the figures of the event loop', async () => {
    evaluated.length = 0;
    const own = bars(3000);
    const onFeeds = {
      ...request(3000),
      code: TRADE_EVERY_BAR_OF_EACH,
      bars: own,
      feeds: [
        { code: 'TEST', period: 'day' as const, bars: own },
        { code: 'OTHER', period: 'day' as const, bars: own },
      ],
    };
    const answer = await inWorker.check(onFeeds);
    expect(evaluated).toEqual([{ feeds: true, withTrades: true }]);
    expect(answer).toMatchObject({ ok: true });
    if (!answer.ok) return;
    expect(answer.trades).toHaveLength(2 * 2999);
    expect(Object.keys(answer.perSymbol ?? {})).toEqual(['TEST', 'OTHER']);
    expect(answer.equity?.length).toBeGreaterThan(0);
    expect(figures(answer)).toEqual(figures(await onLoop.check(onFeeds)));
  }, 60_000);

  it('evaluates a small result on the event loop, as before', async () => {
    evaluated.length = 0;
    const small = request(50);
    const answer = await inWorker.check(small);
    expect(evaluated).toEqual([]);
    expect(figures(answer)).toEqual(figures(await onLoop.check(small)));
    expect(answer).toMatchObject({ ok: true, trades: expect.any(Array) });
  }, 60_000);
});
