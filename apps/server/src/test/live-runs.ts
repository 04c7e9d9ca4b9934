import type { Bar, LiveRunEvaluations, LiveRunView } from '@ct/domain';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { testConfig, type TestClock } from './helpers.ts';
import type { Db } from '../db/types.ts';
import { testSandbox } from './backtest.ts';
import { ScriptedMarket } from './trading.ts';
import type { LiveRunner, LiveRunnerOptions } from '../modules/live-runs/runner.ts';
import type { LiveRunSettings } from '../modules/live-runs/settings.ts';

/** The instrument the tests trade: gold trades on Monday 2026-01-05 from 09:00 UTC. */
export const SYMBOL = 'XAUUSD';
export const MINUTE = 60_000;
/** 09:00 UTC on the test clock's day. */
export const NINE = Date.UTC(2026, 0, 5, 9, 0, 0);

/** Settings for tests: few failures allowed, a short lease, no timer (the test drives it). */
export const TEST_LIVE_SETTINGS: Partial<LiveRunSettings> = {
  maxPerUser: 2,
  windowBars: 50,
  maxFailures: 3,
  leaseMs: 5000,
  pollMs: 3_600_000,
};

/**
 * Market data whose bars are the simulation's and whose quotes are scripted: `quoteAtBar`
 * quotes the bid at a bar's close (kline prices are bids), so fills are hand-computable.
 */
export class LiveMarket extends ScriptedMarket {
  /** The closed 1-minute bar starting at `time`. */
  bar(time: number): Bar {
    const bar = this.bars(SYMBOL, '1m', time + MINUTE, 1, time + MINUTE).at(-1);
    if (!bar || bar.time !== time) throw new Error(`no bar at ${new Date(time).toISOString()}`);
    return bar;
  }
}

export type LiveApp = Awaited<ReturnType<typeof buildApp>>;

/** An app on `db` with the live runs' test settings and a sandbox uid range of its own. */
export async function buildLiveApp(
  db: Db,
  clock: TestClock,
  market: LiveMarket,
  uidBase: number,
): Promise<LiveApp> {
  const app = await buildApp({
    db,
    config: testConfig({
      sandbox: testSandbox({ uidBase, maxPerUser: 2, maxConcurrent: 2, timeoutMs: 10_000 }),
      liveRuns: TEST_LIVE_SETTINGS,
    }),
    now: clock.now,
    market,
  });
  market.publish = (symbol) => app.services.feed.pollSymbol(symbol);
  return app;
}

/** Starts the app's runner and waits for its first claims. */
export async function startRunner(
  app: LiveApp,
  extra: Pick<LiveRunnerOptions, 'afterOrderSent' | 'onEvaluated'> = {},
): Promise<LiveRunner> {
  const runner = app.services.liveRuns.startRunner(extra);
  await runner.whenIdle();
  return runner;
}

/**
 * Moves the clock to `at` and publishes a quote there (the first tick of the bar closes the
 * one before), then waits until the runner has acted on it.
 */
export async function tickAt(
  app: LiveApp,
  clock: TestClock,
  market: LiveMarket,
  at: number,
  quote: { bid: number; ask: number },
): Promise<void> {
  clock.set(at);
  market.setQuote(SYMBOL, quote.bid, quote.ask);
  const runner = app.services.liveRuns.runner();
  runner?.notify();
  await runner?.whenIdle();
  await app.services.trading.engine.whenIdle();
}

/** Calls the API as a logged-in user. */
export function api(app: LiveApp, cookie: string) {
  return (
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      cookies: { ct_sid: cookie },
      ...(payload === undefined ? {} : { payload }),
    });
}

export async function runOf(app: LiveApp, cookie: string, id: string): Promise<LiveRunView> {
  const res = await api(app, cookie)('GET', '/api/live-runs');
  const run = res.json<{ runs: LiveRunView[] }>().runs.find((r) => r.id === id);
  if (!run) throw new Error(`run ${id} not listed`);
  return run;
}

export async function evaluationsOf(
  app: LiveApp,
  cookie: string,
  id: string,
): Promise<LiveRunEvaluations> {
  const res = await api(app, cookie)('GET', `/api/live-runs/${id}/evaluations?limit=100`);
  return res.json<LiveRunEvaluations>();
}

/**
 * A strategy that opens a buy of 1 lot at the close of the bar at `open` and closes it at
 * the close of the bar at `close` (contract dates 'YYYY-MM-DD HH:MM:SS'), printing a line.
 */
export function openThenCloseStrategy(open: string, close: string): string {
  return `
OPEN = '${open}'
CLOSE = '${close}'

def main(data_array):
    dates = [row[0] for row in data_array]
    print('saw', len(data_array), 'bars up to', dates[-1])
    if OPEN not in dates:
        return []
    i = dates.index(OPEN)
    record = {'open_date': OPEN, 'open_price': data_array[i][6], 'lots': 1,
              'status': 'NOT', 'close_date': None, 'close_price': None}
    if CLOSE in dates:
        j = dates.index(CLOSE)
        record.update(status='YES', close_date=CLOSE, close_price=data_array[j][6])
    return [record]
`;
}
