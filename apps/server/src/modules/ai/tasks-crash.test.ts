import { aiConversationSchema, aiTaskSchema, type AiTask } from '@ct/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  pieces,
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../test/openai-test-server.ts';
import { exited, loginDemo, serverProcesses } from '../../test/server-process.ts';
import { waitFor } from '../../test/wait-for.ts';
import { answerWith, GOOD_STRATEGY } from '../../test/ai-strategies.ts';

/*
 * The real server process killed with SIGKILL while an AI task is PROCESSING (waiting for
 * the model): after a restart on the same data directory the task's lease runs out, the new
 * worker claims it again and the task completes.
 */

const LEASE_MS = 2000;
const REQUEST_TIMEOUT_MS = 30_000;

const servers = serverProcesses('ai-crash-test');
let upstream: OpenAiTestServer;

beforeAll(async () => {
  upstream = await startOpenAiTestServer();
});

afterAll(async () => {
  servers.cleanUp();
  await upstream?.close();
});

function startServer() {
  return servers.start({
    OLLAMA_BASE_URL: upstream.baseUrl,
    AI_TASK_LEASE_MS: String(LEASE_MS),
    AI_TASK_CONCURRENCY: '1',
    AI_TASK_BARS: '300',
    BACKTEST_UID_BASE: '59000',
  });
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
  return (await loginDemo(url, REQUEST_TIMEOUT_MS)).cookie;
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
