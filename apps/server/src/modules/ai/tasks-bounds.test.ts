import { aiConversationSchema, type AiTask } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import {
  startOpenAiTestServer,
  type OpenAiTestServer,
  type TestScript,
} from '../../test/openai-test-server.ts';
import { waitFor } from '../../test/wait-for.ts';
import { caller, login, testSandbox } from '../../test/backtest.ts';
import { finishedTask, labProvider } from '../../test/ai.ts';
import { DEFAULT_AI_CONFIG } from './config.ts';

/*
 * The bounds of AI strategy tasks: a user's tasks waiting or running at once
 * (AI_TASK_MAX_PENDING_PER_USER), and each attempt's model answer by size
 * (AI_ANSWER_MAX_CHARS) and time (AI_TASK_MODEL_TIMEOUT_MS): what fits is kept in the
 * conversation, a note says why it ends, and the provider's request is aborted.
 */

const MAX_PENDING = 3;
const MAX_CHARS = 5000;
const MODEL_MS = 1500;

let upstream: OpenAiTestServer;
let t: TestApp;
let asAlice: ReturnType<typeof caller>;
let asBob: ReturnType<typeof caller>;

beforeAll(async () => {
  upstream = await startOpenAiTestServer();
  const lab = labProvider(upstream.baseUrl);
  t = await createTestApp({
    config: {
      sandbox: testSandbox({ uidBase: 57_000 }),
      ai: {
        ...DEFAULT_AI_CONFIG,
        ollamaBaseUrl: upstream.baseUrl,
        extraProviders: [lab],
        encryptionSecret: 'task-bounds-secret-of-at-least-32-characters',
        firstTokenTimeoutMs: 5000,
        idleTimeoutMs: 5000,
        answerMaxChars: MAX_CHARS,
        tasks: {
          ...DEFAULT_AI_CONFIG.tasks,
          concurrency: 2,
          maxRetries: 0,
          modelTimeoutMs: MODEL_MS,
          maxPendingPerUser: MAX_PENDING,
          pollMs: 100,
          bars: 300,
        },
      },
    },
  });
  asAlice = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  asBob = caller(t.app, (await login(t.app, await buildUser(t.db))).cookie);
  for (const as of [asAlice, asBob]) {
    const saved = await as('POST', '/api/settings', {
      provider: 'lab',
      baseURL: upstream.baseUrl,
      model: 'test-model',
      apiKey: 'sk-task-0123456789abcdef9876',
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

const body = (prompt: string) => ({
  prompt,
  provider: 'lab',
  model: 'test-model',
  base_url: upstream.baseUrl,
  symbol_id: 'BTCUSDT',
  period: 'day',
});

async function create(as: ReturnType<typeof caller>, prompt: string): Promise<number> {
  const res = await as('POST', '/api/ai/strategy', body(prompt));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: number }>().id;
}

/** Polls the task until it is COMPLETED or FAILED (no sleeps: a deadline). */
const finished = (id: number): Promise<AiTask> => finishedTask(asAlice, id);

async function conversation(id: number) {
  const res = await asAlice('GET', `/api/ai/strategy/${id}/conversations`);
  expect(res.statusCode, res.body).toBe(200);
  return aiConversationSchema.parse(res.json()).conversations;
}

describe("a user's waiting and running tasks are bounded", () => {
  // the worker is not started yet: every task created here stays PENDING
  it('refuses one past the bound with a clear reason; other users are not affected', async () => {
    const ids: number[] = [];
    for (let i = 0; i < MAX_PENDING; i++) ids.push(await create(asAlice, `P-${i}: averages`));

    const refused = await asAlice('POST', '/api/ai/strategy', body('P-more: averages'));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 42900,
      detail: `You already have ${MAX_PENDING} AI tasks waiting or running: at most ${MAX_PENDING} per user. Wait for one to finish, or delete one.`,
    });
    const listed = await asAlice('GET', '/api/ai/strategies');
    expect(listed.json<{ total: number }>().total).toBe(MAX_PENDING);

    // another user's own bound
    await create(asBob, 'P-bob: averages');

    // a deleted task makes room again
    const [first] = ids;
    expect((await asAlice('DELETE', `/api/ai/strategy/${first}`)).statusCode).toBe(200);
    ids.push(await create(asAlice, 'P-again: averages'));

    // concurrent creates cannot pass the bound together
    const again = await Promise.all(
      Array.from({ length: 4 }, () => asAlice('POST', '/api/ai/strategy', body('P-race'))),
    );
    expect(again.map((r) => r.statusCode)).toEqual([429, 429, 429, 429]);

    for (const id of ids.slice(1)) await asAlice('DELETE', `/api/ai/strategy/${id}`);
    const remaining = await asBob('GET', '/api/ai/strategies');
    for (const task of remaining.json<{ tasks: { id: number }[] }>().tasks) {
      await asBob('DELETE', `/api/ai/strategy/${task.id}`);
    }
  });
});

describe("an attempt's model answer is bounded", () => {
  beforeAll(() => t.app.services.ai.worker.start());

  const scripted = (marker: string, s: TestScript) => upstream.script({ ...s, match: marker });

  it('keeps what fits of a huge answer, with a note, and stops reading it', async () => {
    scripted('B-huge', { content: ['Start '], repeat: { piece: 'y'.repeat(1000), times: 60_000 } });
    const id = await create(asAlice, 'B-huge: averages');
    const task = await finished(id);
    const note = `The answer passed the limit of ${MAX_CHARS} characters and was cut there; the rest was not read.`;
    expect(task.status).toBe('FAILED');
    expect(task.error_message).toBe(`Gave up after 1 attempt. Last error: ${note}`);

    const messages = await conversation(id);
    expect(messages.map((m) => m.step_type)).toEqual([
      'initial_prompt',
      'generate_prompt',
      'ai_response',
      'error',
    ]);
    const [, , kept, error] = messages;
    expect(kept?.content.length).toBe(MAX_CHARS);
    expect(kept?.content.startsWith('Start yyy')).toBe(true);
    expect(kept?.extra_data).toMatchObject({ incomplete: 'too_long' });
    expect(error).toMatchObject({ content: note, extra_data: { stage: 'model' } });

    const request = upstream.chats().find((r) => JSON.stringify(r.body).includes('B-huge'));
    await waitFor(() => request?.closedEarly === true);
    expect(request?.finished).toBe(false);
  });

  it('ends a trickling answer at the model time limit, keeping what arrived', async () => {
    scripted('B-slow', {
      content: ['Slow'],
      repeat: { piece: ' tick', times: 1000 },
      delayMs: 100,
    });
    const id = await create(asAlice, 'B-slow: averages');
    const task = await finished(id);
    const note = 'Lab did not finish its answer within 1.5 s; the answer is incomplete.';
    expect(task.status).toBe('FAILED');
    expect(task.error_message).toBe(`Gave up after 1 attempt. Last error: ${note}`);

    const messages = await conversation(id);
    expect(messages.map((m) => m.step_type)).toEqual([
      'initial_prompt',
      'generate_prompt',
      'ai_response',
      'error',
    ]);
    const [, , kept, error] = messages;
    expect(kept?.content.startsWith('Slow tick')).toBe(true);
    expect(kept?.extra_data).toMatchObject({ incomplete: 'timeout' });
    expect(error).toMatchObject({ content: note, extra_data: { stage: 'model' } });
    const request = upstream.chats().find((r) => JSON.stringify(r.body).includes('B-slow'));
    await waitFor(() => request?.closedEarly === true);
  });
});
