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
import { finishedTask } from '../../test/ai.ts';

/* An AI task on several feeds: the chart's and more, all in data_array. */

const UID_BASE = 65_000;
const KEY = 'sk-task-0123456789abcdef9876';

let upstream: OpenAiTestServer;
let t: TestApp;
let asAlice: ReturnType<typeof caller>;

beforeAll(async () => {
  upstream = await startOpenAiTestServer();
  const lab = {
    label: 'Lab',
    value: 'lab',
    base_url: upstream.baseUrl,
    models: [{ label: 'Test model', value: 'test-model', description: '' }],
    requires_key: true,
  };
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
