import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiSettings } from '../../db/schema.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../test/openai-test-server.ts';
import { testTmpDir } from '../../test/tmp-dir.ts';
import { caller, login } from '../../test/backtest.ts';
import { DEFAULT_AI_CONFIG } from './config.ts';
import { KEY_FILE_NAME } from './key-box.ts';
import { ProviderCatalogue } from './providers.ts';

const KEY = 'sk-test-0123456789abcdef3456';
const MASKED = 'sk-…3456';
const QWEN_URL = 'https://dashscope.aliyuncs.com/compatible-mode/v1';
const DEEPSEEK_URL = 'https://api.deepseek.com';
const LAB = {
  label: 'Lab models',
  value: 'lab',
  base_url: 'http://10.1.2.3:8000/v1',
  models: [{ label: 'Lab 1', value: 'lab-1', description: 'In-house' }],
  requires_key: true,
};

let upstream: OpenAiTestServer;
let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  upstream = await startOpenAiTestServer({ models: ['local-a', 'local-b'] });
  dataDir = fs.mkdtempSync(path.join(testTmpDir(), 'ct-ai-settings-'));
  t = await createTestApp({
    config: {
      dataDir,
      ai: { ...DEFAULT_AI_CONFIG, ollamaBaseUrl: upstream.baseUrl, extraProviders: [LAB] },
    },
  });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function session() {
  const user = await buildUser(t.db);
  const { cookie } = await login(t.app, user);
  return Object.assign(caller(t.app, cookie), { userId: user.user.id });
}

async function storedRow(userId: number) {
  const [row] = await t.db.select().from(aiSettings).where(eq(aiSettings.userId, userId));
  return row;
}

const settingsBody = (overrides: Record<string, unknown> = {}) => ({
  apiKey: KEY,
  baseURL: QWEN_URL,
  model: 'qwen-max',
  provider: 'qwen',
  ...overrides,
});

describe('authorization', () => {
  it.each([
    ['GET', '/api/ai/providers'],
    ['GET', '/api/settings'],
    ['POST', '/api/settings'],
    ['POST', '/api/ai/chat'],
  ] as const)('%s %s without a session answers 50002', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 50002, detail: 'Token验证失败' });
  });
});

describe('GET /api/ai/providers', () => {
  it('lists the spec providers, the local server with its own models, and the admin additions', async () => {
    const as = await session();
    const res = await as('GET', '/api/ai/providers');
    expect(res.statusCode).toBe(200);
    const { providers } = res.json<{
      providers: {
        value: string;
        base_url: string;
        requires_key: boolean;
        models: { value: string }[];
      }[];
    }>();
    const byValue = new Map(providers.map((p) => [p.value, p]));
    expect(providers.map((p) => p.value)).toEqual([
      'openai',
      'openai-proxy',
      'qwen',
      'deepseek',
      'ollama',
      'lab',
    ]);
    const models = (value: string) => byValue.get(value)?.models.map((m) => m.value);
    expect(models('openai')).toEqual([
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4',
      'gpt-3.5-turbo',
    ]);
    expect(models('openai-proxy')).toEqual(models('openai'));
    expect(byValue.get('openai')?.base_url).toBe('https://api.openai.com/v1');
    expect(byValue.get('qwen')?.base_url).toBe(QWEN_URL);
    // selecting a provider fills its first model: qwen-plus is the default
    expect(models('qwen')?.[0]).toBe('qwen-plus');
    expect(models('qwen')).toEqual(
      expect.arrayContaining([
        'qwen-max',
        'qwen-max-latest',
        'qwen-turbo',
        'qwen-long',
        'qwen-math-plus',
        'qwen-math-turbo',
        'qwen-coder-plus',
        'qwen-coder-turbo-latest',
      ]),
    );
    expect(byValue.get('deepseek')?.base_url).toBe(DEEPSEEK_URL);
    expect(models('deepseek')).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect(byValue.get('ollama')).toMatchObject({
      base_url: upstream.baseUrl,
      requires_key: false,
    });
    expect(models('ollama')).toEqual(['local-a', 'local-b']);
    expect(byValue.get('lab')).toMatchObject({ base_url: LAB.base_url, requires_key: true });
    expect(providers.filter((p) => p.value !== 'ollama').every((p) => p.requires_key)).toBe(true);
  });

  it('falls back to the listed local models when the local server does not answer', async () => {
    const catalogue = new ProviderCatalogue(
      { ...DEFAULT_AI_CONFIG, ollamaBaseUrl: 'http://127.0.0.1:1/v1' },
      Date.now,
    );
    const ollama = (await catalogue.list()).find((p) => p.value === 'ollama');
    expect(ollama?.models.length).toBeGreaterThan(0);
    expect(ollama?.models.map((m) => m.value)).not.toContain('local-a');
  });
});

describe('API settings', () => {
  it('answers the qwen / qwen-plus defaults and no key before anything is saved', async () => {
    const as = await session();
    const res = await as('GET', '/api/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      apiKey: '',
      baseURL: QWEN_URL,
      model: 'qwen-plus',
      provider: 'qwen',
    });
  });

  it('saves per user, answers the key masked, and stores it encrypted', async () => {
    const as = await session();
    const saved = await as('POST', '/api/settings', settingsBody());
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      apiKey: MASKED,
      baseURL: QWEN_URL,
      model: 'qwen-max',
      provider: 'qwen',
    });
    const read = await as('GET', '/api/settings');
    expect(read.json()).toEqual(saved.json());
    expect(saved.body + read.body).not.toContain(KEY);

    const row = await storedRow(as.userId);
    expect(row?.apiKeyEnc).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(KEY.slice(3, -4));

    // another user sees only their own (default) settings
    const other = await session();
    expect((await other('GET', '/api/settings')).json()).toMatchObject({
      apiKey: '',
      model: 'qwen-plus',
    });
  });

  it('keeps the stored key when the masked value is sent back, clears it when blank', async () => {
    const as = await session();
    await as('POST', '/api/settings', settingsBody());
    const before = await storedRow(as.userId);
    expect(before?.apiKeyEnc).toMatch(/^v1:/);
    const kept = await as(
      'POST',
      '/api/settings',
      settingsBody({ apiKey: MASKED, model: 'qwen-turbo' }),
    );
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ apiKey: MASKED, model: 'qwen-turbo' });
    expect((await storedRow(as.userId))?.apiKeyEnc).toBe(before?.apiKeyEnc);

    const wrongMask = await as('POST', '/api/settings', settingsBody({ apiKey: 'sk-…9999' }));
    expect(wrongMask.statusCode).toBe(422);
    expect(wrongMask.json().detail).toMatch(/masked key/);

    const cleared = await as('POST', '/api/settings', settingsBody({ apiKey: '' }));
    expect(cleared.json()).toMatchObject({ apiKey: '' });
  });

  it('switches provider with the endpoint of that provider', async () => {
    const as = await session();
    const res = await as(
      'POST',
      '/api/settings',
      settingsBody({
        provider: 'deepseek',
        baseURL: `${DEEPSEEK_URL}/`,
        model: 'deepseek-reasoner',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      apiKey: MASKED,
      baseURL: DEEPSEEK_URL,
      model: 'deepseek-reasoner',
      provider: 'deepseek',
    });
  });

  it.each([
    ['no body', undefined, /body: /],
    ['a missing provider', { baseURL: QWEN_URL, model: 'qwen-plus' }, /provider/],
    ['an empty model', settingsBody({ model: '' }), /Please select a model/],
    ['an empty endpoint', settingsBody({ baseURL: '' }), /Please enter API endpoint/],
    ['a key of the wrong type', settingsBody({ apiKey: 42 }), /apiKey/],
    ['an unknown provider', settingsBody({ provider: 'acme' }), /Unknown service provider: acme/],
    [
      'an endpoint outside the allow-list',
      settingsBody({ baseURL: 'http://169.254.169.254/latest' }),
      /API endpoint not allowed: http:\/\/169\.254\.169\.254\/latest/,
    ],
    [
      "another provider's endpoint",
      settingsBody({ baseURL: DEEPSEEK_URL }),
      /API endpoint not allowed/,
    ],
  ])('refuses %s with a 422 and stores nothing', async (_name, body, detail) => {
    const as = await session();
    const res = await as('POST', '/api/settings', body);
    expect(res.statusCode).toBe(422);
    const answer = res.json<{ code: number; msg: string; detail: string }>();
    expect(answer.code).toBe(42200);
    expect(answer.detail).toMatch(detail);
    expect(answer.msg).toBe(answer.detail);
    expect((await as('GET', '/api/settings')).json()).toMatchObject({
      apiKey: '',
      model: 'qwen-plus',
    });
  });

  it('made the server key file with mode 0600 in the data directory', () => {
    const stat = fs.statSync(path.join(dataDir, KEY_FILE_NAME));
    expect(stat.mode & 0o777).toBe(0o600);
  });
});
