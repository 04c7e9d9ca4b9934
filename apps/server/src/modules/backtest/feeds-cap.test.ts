import { MAX_BACKTEST_BARS, MAX_SERVER_LOADED_BARS, type Bar, type Period } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { feedsAround } from './feeds.ts';

/*
 * How many bars a run may take in all: MAX_BACKTEST_BARS when any come in the body,
 * MAX_SERVER_LOADED_BARS when the server loaded them all (no body to parse).
 */

const MINUTE = 60_000;
const START = Date.UTC(2020, 0, 1);

function barsOf(count: number, step: number): Bar[] {
  return Array.from({ length: count }, (_, i) => ({
    time: START + i * step,
    open: 1,
    high: 1,
    low: 1,
    close: 1,
    volume: 0,
  }));
}

/** Bars of 1h over the span asked for, newest `limit` before `endBefore`. */
const service = {
  async loadBars(_user: number, _symbol: string, period: string, limit: number, end = 0) {
    const count = Math.min(limit, Math.floor((end - START) / (60 * MINUTE)));
    return { ok: true as const, bars: barsOf(count, 60 * MINUTE), period: period as Period };
  },
};

describe('the bars a run may take', () => {
  const own = barsOf(250_000, MINUTE);
  const feeds = [{ symbol_id: 'XAUUSD', period: '1h' }];

  it('takes more than MAX_BACKTEST_BARS when the server loaded them all', async () => {
    const run = await feedsAround(
      service,
      1,
      { code: 'GOOG', period: '1m', bars: own, loaded: true },
      feeds,
    );
    expect(run.map((feed) => feed.bars.length)).toEqual([250_000, 4166]);
    expect(MAX_SERVER_LOADED_BARS).toBe(1_000_000);
  });

  it('refuses more than MAX_BACKTEST_BARS when bars came in the body', async () => {
    await expect(
      feedsAround(service, 1, { code: 'GOOG', period: '1m', bars: own }, feeds),
    ).rejects.toThrow(
      `feeds: 254166 bars in all; a backtest may take at most ${MAX_BACKTEST_BARS}`,
    );
  });
});
