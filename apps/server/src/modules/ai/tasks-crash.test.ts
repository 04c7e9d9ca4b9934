import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { aiConversationSchema, aiTaskSchema, type AiTask } from '@ct/domain';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../config.ts';
import {
  pieces,
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../test/openai-test-server.ts';
import '../../test/provided.ts';
import { testTmpDir } from '../../test/tmp-dir.ts';
import { waitFor } from '../../test/wait-for.ts';
import { answerWith, GOOD_STRATEGY } from './tasks-support.ts';

/*
 * The real server process killed with SIGKILL while an AI task is PROCESSING (waiting for
 * the model): after a restart on the same data directory the task's lease runs out, the new
 * worker claims it again and the task completes.
 */

const LEASE_MS = 2000;
const REQUEST_TIMEOUT_MS = 30_000;

const dataDir = fs.mkdtempSync(path.join(testTmpDir(), 'ct-ai-crash-test-'));
fs.cpSync(inject('pgTemplateDir'), path.join(dataDir, 'pglite'), { recursive: true });
const running = new Set<ChildProcess>();
let upstream: OpenAiTestServer;

beforeAll(async () => {
  upstream = await startOpenAiTestServer();
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await upstream?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
      OLLAMA_BASE_URL: upstream.baseUrl,
      AI_TASK_LEASE_MS: String(LEASE_MS),
      AI_TASK_CONCURRENCY: '1',
      AI_TASK_BARS: '300',
      BACKTEST_UID_BASE: '59000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Chart Terminal is running at (\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${stderr}`));
    });
  });
  return { child, url };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function call(url: string, cookie: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: {
      cookie: `ct_sid=${cookie}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/user/api/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    body: JSON.stringify({
      channel: 1,
      login_type: 2,
      user_name: 'demo@example.com',
      password: 'demo1234',
      device: 1,
    }),
  });
  const cookie = /ct_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error('demo login failed');
  return cookie;
}

it('finishes a task after the server was killed while it ran', { timeout: 240_000 }, async () => {
  // the first answer never comes: the task waits for the model when the server dies
  upstream.script({ match: 'T-kill', stallBeforeHeaders: true });
  const first = await startServer();
  let cookie = await login(first.url);
  const settings = await call(`${first.url}/api/settings`, cookie, 'POST', {
    provider: 'ollama',
    baseURL: upstream.baseUrl,
    model: 'test-model',
    apiKey: '',
  });
  expect(settings.status).toBe(200);
  const created = await call(`${first.url}/api/ai/strategy`, cookie, 'POST', {
    prompt: 'T-kill: a moving-average crossover',
    provider: 'ollama',
    model: 'test-model',
    base_url: upstream.baseUrl,
    symbol_id: 'BTCUSDT',
    period: 'day',
  });
  expect(created.status).toBe(200);
  const { id } = created.json as { id: number };
  await waitFor(() => upstream.chats().length === 1, 60_000, 20);
  const during = aiTaskSchema.parse(
    (await call(`${first.url}/api/ai/strategy/${id}`, cookie, 'GET')).json,
  );
  expect(during.status).toBe('PROCESSING');

  first.child.kill('SIGKILL');
  await exited(first.child);
  upstream.script({ match: 'T-kill', content: pieces(answerWith(GOOD_STRATEGY)) });

  const second = await startServer();
  cookie = await login(second.url);
  let task: AiTask | null = null;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const res = await call(`${second.url}/api/ai/strategy/${id}`, cookie, 'GET');
    task = aiTaskSchema.parse(res.json);
    if (task.status === 'COMPLETED' || task.status === 'FAILED') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(task?.status, JSON.stringify(task)).toBe('COMPLETED');
  expect(task?.code).toBe(GOOD_STRATEGY);
  expect(upstream.chats()).toHaveLength(2);
  const conversation = aiConversationSchema.parse(
    (await call(`${second.url}/api/ai/strategy/${id}/conversations`, cookie, 'GET')).json,
  ).conversations;
  const steps = conversation.map((m) => m.step_type);
  expect(steps.slice(0, 3)).toEqual(['initial_prompt', 'generate_prompt', 'generate_prompt']);
  expect(conversation[2]?.extra_data).toEqual({ resumed: true });
  expect(steps.at(-1)).toBe('validation');

  second.child.kill('SIGTERM');
  await exited(second.child);
});
