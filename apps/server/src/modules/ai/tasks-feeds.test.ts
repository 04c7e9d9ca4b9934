import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import {
  pieces,
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../test/openai-test-server.ts';
import { caller, login, testSandbox } from '../../test/backtest.ts';
import { DEFAULT_AI_CONFIG } from './config.ts';
import { GOOD_STRATEGY, answerWith } from '../../test/ai-strategies.ts';
import { finishedTask, labProvider } from '../../test/ai.ts';

/*
 * An AI task on several feeds: the chart's and more, all in data_array. A large result (the
 * code's trades over 256 KiB) is evaluated in a body worker, on one feed or several, and its
 * trades come back with it.
 */

const UID_BASE = 65_000;
const KEY = 'sk-task-0123456789abcdef9876';

let upstream: OpenAiTestServer;
let t: TestApp;
let asAlice: ReturnType<typeof caller>;

beforeAll(async () => {
  upstream = await startOpenAiTestServer();
  const lab = labProvider(upstream.baseUrl);
  t = await createTestApp({
    config: {
      sandbox: testSandbox({ uidBase: UID_BASE, maxConcurrent: 2, timeoutMs: 10_000 }),
      ai: {
        ...DEFAULT_AI_CONFIG,
        ollamaBaseUrl: upstream.baseUrl,
        extraProviders: [lab],
        encryptionSecret: 'task-test-secret-of-at-least-32-characters',
        tasks: {
          concurrency: 1,
          maxRetries: 0,
          modelTimeoutMs: 20_000,
          maxPendingPerUser: 10,
          leaseMs: 60_000,
          pollMs: 100,
          bars: 300,
        },
      },
    },
  });
  asAlice = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  const saved = await asAlice('POST', '/api/settings', {
    provider: 'lab',
    baseURL: upstream.baseUrl,
    model: 'test-model',
    apiKey: KEY,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  t.app.services.ai.worker.start();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

/** The crossover on the chart's rows, failing when the other feed's rows are missing. */
const ON_FEEDS = GOOD_STRATEGY.replace(
  'def main(data_array):\n',
  [
    'def main(data_array):',
    '    assert any(row[1] == "ETHUSDT" for row in data_array), "no ETHUSDT rows"',
    '    data_array = [row for row in data_array if row[1] == "BTCUSDT"]',
    '',
  ].join('\n'),
);

const body = (prompt: string, feeds: unknown) => ({
  prompt,
  provider: 'lab',
  model: 'test-model',
  base_url: upstream.baseUrl,
  symbol_id: 'BTCUSDT',
  period: 'day',
  feeds,
});

describe('an AI task with feeds', () => {
  it('backtests the generated code on the chart and the other feeds', async () => {
    upstream.script({ content: pieces(answerWith(ON_FEEDS)), match: 'F-two' });
    const res = await asAlice(
      'POST',
      '/api/ai/strategy',
      body('F-two: a crossover', [{ symbol_id: 'ETHUSDT', period: 'day' }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ id: number }>();
    const done = await finishedTask(asAlice, id, 110_000);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    expect(done.backtest_result?.performance.交易次数).toBeGreaterThan(0);
  }, 120_000);

  it('refuses an unknown instrument among the feeds with a detail', async () => {
    const res = await asAlice(
      'POST',
      '/api/ai/strategy',
      body('F-bad', [{ symbol_id: 'NOPE', period: 'day' }]),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toBe('feeds[0]: Unknown symbol: NOPE');
  });
});

/** Twenty closed trades on each bar but the last of every instrument: about 2 MB of records. */
const MANY_TRADES = [
  'def main(data_array):',
  '    rows = {}',
  '    for row in data_array:',
  '        rows.setdefault(row[1], []).append(row)',
  '    out = []',
  '    for code, r in rows.items():',
  '        for i in range(len(r) - 1):',
  '            out.extend([{"code": code, "open_date": r[i][0], "close_date": r[i + 1][0],',
  '                         "open_price": r[i][6], "close_price": r[i + 1][6], "lots": 1,',
  '                         "status": "YES"}] * 20)',
  '    return out',
].join('\n');

describe("an AI task's large result", () => {
  for (const [name, feeds] of [
    ['one feed', undefined],
    ['two feeds', [{ symbol_id: 'ETHUSDT', period: 'day' }]],
  ] as const) {
    it(`is judged with its trades on ${name}`, async () => {
      upstream.script({ content: pieces(answerWith(MANY_TRADES)), match: `L-${name}` });
      const res = await asAlice('POST', '/api/ai/strategy', body(`L-${name}: many`, feeds));
      expect(res.statusCode, res.body).toBe(200);
      const done = await finishedTask(asAlice, res.json<{ id: number }>().id, 110_000);
      expect(done.status, done.error_message ?? '').toBe('COMPLETED');
      const bars = done.backtest_result?.bar_count ?? 0;
      const trades = done.backtest_result?.performance.交易次数 ?? 0;
      // every trade of the chart's instrument, and those of the other feed besides
      if (feeds) expect(trades).toBeGreaterThan(20 * (bars - 1));
      else expect(trades).toBe(20 * (bars - 1));
    }, 120_000);
  }
});
