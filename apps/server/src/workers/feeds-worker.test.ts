import {
  DEFAULT_BACKTEST_CONVENTIONS,
  formatContractDate,
  type Bar,
  type FeedInstrument,
} from '@ct/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateFeedsPayload, fromPieces } from '../modules/backtest/evaluate.ts';
import { createBodyWorkers } from './body-workers.ts';

/*
 * A run on several feeds evaluated in a body worker gives exactly what the event loop's
 * evaluation gives: the portfolio's deals and figures, each instrument's figures, and the
 * same refusals.
 */

const workers = createBodyWorkers(1);
afterAll(() => workers.close());

const DAY = 86_400_000;
function bars(count: number, base: number): Bar[] {
  return Array.from({ length: count }, (_, i) => {
    const close = base + 5 * Math.sin(i / 7);
    return {
      time: Date.UTC(2023, 0, 1) + i * DAY,
      open: close,
      high: close + 1,
      low: close - 1,
      close,
      volume: 10,
    };
  });
}

const instruments: FeedInstrument[] = [
  {
    code: 'GOOG',
    period: 'day',
    bars: bars(300, 100),
    conventions: { ...DEFAULT_BACKTEST_CONVENTIONS, commissionPerLot: 1 },
  },
  {
    code: 'XAUUSD',
    period: 'day',
    bars: bars(300, 1900),
    conventions: { ...DEFAULT_BACKTEST_CONVENTIONS, contractMultiplier: 100 },
  },
];

/** One closed trade per bar pair on each instrument, in the payload the harness writes. */
function payload(records: unknown[]) {
  return { ok: true, count: records.length, records, elapsed_ms: 12.5 };
}
const records = instruments.flatMap((instrument) =>
  instrument.bars.slice(0, -1).map((bar, i) => ({
    code: instrument.code,
    open_date: formatContractDate(bar.time),
    close_date: formatContractDate(instrument.bars[i + 1]!.time),
    open_price: bar.close,
    close_price: instrument.bars[i + 1]!.close,
    lots: i % 2 === 0 ? 1 : -1,
    status: 'YES',
  })),
);
const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('a multi-feed result in a body worker', () => {
  it('gives the deals, portfolio figures and per-instrument figures of the event loop', async () => {
    const here = evaluateFeedsPayload(payload(records), instruments, 1024);
    if ('error' in here) throw new Error(here.error);
    const there = await workers.feeds(bytesOf(payload(records)), instruments, 1024, 100);
    if (!there.ok) throw new Error(there.failure.error);
    expect(await fromPieces(there.deals)).toEqual(here.deals);
    expect({
      ...there.performance,
      equity_curve: await fromPieces(there.curve),
    }).toEqual(here.performance);
    expect(there.perSymbol).toEqual(here.perSymbol);
    expect(Object.keys(there.perSymbol ?? {})).toEqual(['GOOG', 'XAUUSD']);
    expect(there.strategyMs).toBe(12.5);
  });

  it('refuses a record of an instrument that is not a feed, as the event loop does', async () => {
    const bad = [...records.slice(0, 3), { ...records[0], code: 'NOPE' }];
    const here = evaluateFeedsPayload(payload(bad), instruments, 1024);
    const there = await workers.feeds(bytesOf(payload(bad)), instruments, 1024, 100);
    expect(there).toEqual({ ok: false, failure: here, strategyMs: 12.5 });
    expect(here).toMatchObject({
      kind: 'contract',
      error: expect.stringMatching(/records\[3\]\.code/),
    });
  });
});
