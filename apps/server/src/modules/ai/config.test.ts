import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { testTmpDir } from '../../test/tmp-dir.ts';
import { DEFAULT_AI_CONFIG } from './config.ts';

const dir = fs.mkdtempSync(path.join(testTmpDir(), 'ct-ai-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const LAB = {
  label: 'Lab',
  value: 'lab',
  base_url: 'http://10.0.0.5:8000/v1',
  models: [{ label: 'm', value: 'm', description: '' }],
};

describe('AI settings from the environment', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}, dir).ai).toEqual(DEFAULT_AI_CONFIG);
    expect(DEFAULT_AI_CONFIG).toMatchObject({
      ollamaBaseUrl: 'http://127.0.0.1:11434/v1',
      encryptionSecret: null,
      chatRate: { limit: 20, windowMs: 60_000 },
      answerTimeoutMs: 300_000,
      answerMaxChars: 300_000,
      tasks: {
        concurrency: 2,
        maxRetries: 3,
        modelTimeoutMs: 300_000,
        maxPendingPerUser: 10,
        leaseMs: 60_000,
        bars: 1000,
      },
    });
  });

  it('reads every variable; extra providers as JSON or from a file', () => {
    const env = {
      OLLAMA_BASE_URL: 'http://gpu-box:11434/v1',
      SETTINGS_ENCRYPTION_KEY: 'k'.repeat(32),
      AI_FIRST_TOKEN_TIMEOUT_MS: '5000',
      AI_IDLE_TIMEOUT_MS: '2000',
      AI_ANSWER_TIMEOUT_MS: '60000',
      AI_ANSWER_MAX_CHARS: '50000',
      AI_CHAT_RATE_LIMIT: '3',
      AI_EXTRA_PROVIDERS: JSON.stringify([LAB]),
      AI_TASK_CONCURRENCY: '4',
      AI_TASK_MAX_RETRIES: '5',
      AI_TASK_MODEL_TIMEOUT_MS: '90000',
      AI_TASK_MAX_PENDING_PER_USER: '4',
      AI_TASK_LEASE_MS: '30000',
      AI_TASK_BARS: '500',
    };
    expect(loadConfig(env, dir).ai).toEqual({
      ollamaBaseUrl: 'http://gpu-box:11434/v1',
      encryptionSecret: 'k'.repeat(32),
      firstTokenTimeoutMs: 5000,
      idleTimeoutMs: 2000,
      answerTimeoutMs: 60_000,
      answerMaxChars: 50_000,
      chatRate: { limit: 3, windowMs: 60_000 },
      extraProviders: [{ ...LAB, requires_key: true }],
      tasks: {
        ...DEFAULT_AI_CONFIG.tasks,
        concurrency: 4,
        maxRetries: 5,
        modelTimeoutMs: 90_000,
        maxPendingPerUser: 4,
        leaseMs: 30_000,
        bars: 500,
      },
    });
    fs.writeFileSync(path.join(dir, 'providers.json'), JSON.stringify([LAB]));
    expect(
      loadConfig({ AI_EXTRA_PROVIDERS: 'providers.json' }, dir).ai?.extraProviders[0]?.value,
    ).toBe('lab');
  });

  it.each([
    [{ SETTINGS_ENCRYPTION_KEY: 'short' }, /SETTINGS_ENCRYPTION_KEY/],
    [{ OLLAMA_BASE_URL: 'ftp://x' }, /OLLAMA_BASE_URL/],
    [{ AI_EXTRA_PROVIDERS: '[{"value":"x"}]' }, /AI_EXTRA_PROVIDERS: 0\.label/],
    [{ AI_EXTRA_PROVIDERS: '[not json' }, /AI_EXTRA_PROVIDERS: not valid JSON/],
    [{ AI_EXTRA_PROVIDERS: 'missing.json' }, /AI_EXTRA_PROVIDERS: cannot read/],
    [{ AI_TASK_MAX_RETRIES: '-1' }, /AI_TASK_MAX_RETRIES/],
    [{ AI_TASK_CONCURRENCY: 'many' }, /AI_TASK_CONCURRENCY/],
  ])('refuses %j naming the variable', (env, message) => {
    expect(() => loadConfig(env, dir)).toThrow(ConfigError);
    expect(() => loadConfig(env, dir)).toThrow(message);
  });
});
