import {
  aiConversationSchema,
  aiTaskListSchema,
  aiTaskSchema,
  buildStrategyPrompt,
  inSampleEnd,
  type AiConversationMessage,
  type AiTask,
} from '@ct/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiTaskMessages, aiTasks } from '../../db/schema.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import {
  pieces,
  startOpenAiTestServer,
  type OpenAiTestServer,
  type TestScript,
} from '../../test/openai-test-server.ts';
import { waitFor } from '../../test/wait-for.ts';
import { caller, login, testSandbox, type Session } from '../../test/backtest.ts';
import { DEFAULT_AI_CONFIG } from './config.ts';
import {
  BROKEN_STRATEGY,
  GOOD_STRATEGY,
  IDLE_STRATEGY,
  LOOKAHEAD_STRATEGY,
  answerWith,
} from '../../test/ai-strategies.ts';
import { taskWithLease } from './tasks-store.ts';
import { finishedTask, labProvider, queueTaskJobs } from '../../test/ai.ts';

/*
 * AI strategy tasks against the local OpenAI-compatible test server (scripted per task by a
 * marker in the description), a real PGlite database and the real sandbox.
 */

const UID_BASE = 60_000;
const KEY = 'sk-task-0123456789abcdef9876';
const BARS = 300;
const MAX_RETRIES = 3;
const TASK_DEADLINE_MS = 90_000;

let upstream: OpenAiTestServer;
let t: TestApp;
let alice: Session;
let bob: Session;
let asAlice: ReturnType<typeof caller>;
let asBob: ReturnType<typeof caller>;

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
        firstTokenTimeoutMs: 1500,
        idleTimeoutMs: 1500,
        tasks: {
          concurrency: 2,
          maxRetries: MAX_RETRIES,
          modelTimeoutMs: 20_000,
          maxPendingPerUser: 100,
          leaseMs: 60_000,
          pollMs: 100,
          bars: BARS,
        },
      },
    },
  });
  alice = await login(t.app, await buildUser(t.db));
  bob = await login(t.app, await buildUser(t.db));
  asAlice = caller(t.app, alice.cookie);
  asBob = caller(t.app, bob.cookie);
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

/** Queues answers for the task whose description holds `marker`. */
function script(marker: string, ...scripts: TestScript[]): void {
  upstream.script(...scripts.map((s) => ({ ...s, match: marker })));
}

const answer = (code: string): TestScript => ({ content: pieces(answerWith(code)) });

function body(overrides: Record<string, unknown> = {}) {
  return {
    prompt: 'A moving-average crossover',
    provider: 'lab',
    model: 'test-model',
    base_url: upstream.baseUrl,
    symbol_id: 'BTCUSDT',
    period: 'day',
    ...overrides,
  };
}

async function create(prompt: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await asAlice('POST', '/api/ai/strategy', body({ prompt, ...overrides }));
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json<{ id: number; status: string }>();
  expect(answer.status).toBe('PENDING');
  return answer.id;
}

async function task(id: number): Promise<AiTask> {
  const res = await asAlice('GET', `/api/ai/strategy/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return aiTaskSchema.parse(res.json());
}

/** Polls the task until it is COMPLETED or FAILED (no sleeps: a deadline). */
const finished = (id: number): Promise<AiTask> => finishedTask(asAlice, id, TASK_DEADLINE_MS);

async function conversation(id: number, query = ''): Promise<AiConversationMessage[]> {
  const res = await asAlice('GET', `/api/ai/strategy/${id}/conversations${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const parsed = aiConversationSchema.parse(res.json());
  expect(parsed.total_messages).toBe(parsed.conversations.length);
  return parsed.conversations;
}

const steps = (messages: AiConversationMessage[]) => messages.map((m) => m.step_type);

/** True when `wanted` occurs in `list` in this order (other items may come between). */
function inOrder(list: string[], wanted: string[]): boolean {
  let at = 0;
  for (const item of list) if (item === wanted[at]) at += 1;
  return at === wanted.length;
}

function chatBodiesWith(marker: string) {
  return upstream
    .chats()
    .filter((r) => JSON.stringify(r.body).includes(marker))
    .map((r) => r.body as { model: string; messages: { role: string; content: string }[] });
}

describe('the loop', () => {
  it('completes a task whose first code works, judged in and out of sample', async () => {
    script('T-first', answer(GOOD_STRATEGY));
    const id = await create('T-first: buy when the 10-bar average is above the 30-bar one');
    const done = await finished(id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    expect(done).toMatchObject({
      retry_count: 0,
      code: GOOD_STRATEGY,
      full_code: GOOD_STRATEGY,
      error_message: null,
      symbol_id: 'BTCUSDT',
      period: 'day',
    });
    expect(done.code_preview?.split('\n')[0]).toBe('def main(data_array):');
    const result = done.backtest_result;
    if (!result) throw new Error('no backtest_result');
    expect(result.performance.交易次数).toBeGreaterThan(0);
    expect(result.deals.length).toBe(result.performance.交易次数);
    expect(result.bar_count).toBe(BARS);
    expect(result.lookahead.passed).toBe(true);
    expect(result.lookahead.cuts.length).toBeGreaterThan(0);
    expect(result.lookahead.cuts.every((c) => c.changed === 0 && c.error === null)).toBe(true);

    const messages = await conversation(id);
    expect(steps(messages)).toEqual([
      'initial_prompt',
      'generate_prompt',
      'ai_response',
      'validation',
      'backtest',
      'backtest',
      'validation',
    ]);
    expect(messages[0]).toMatchObject({ role: 'user', content: done.prompt });
    expect(messages[1]).toMatchObject({ role: 'user', content: buildStrategyPrompt(done.prompt) });
    expect(messages[2]?.role).toBe('ai');
    expect(messages.every((m) => m.retry_number === 0)).toBe(true);

    // the model got the assembled prompt with the user's key and model
    const sent = upstream.chats().filter((r) => JSON.stringify(r.body).includes('T-first'));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.authorization).toBe(`Bearer ${KEY}`);
    const request = sent[0]?.body as { model: string; messages: { content: string }[] };
    expect(request.model).toBe('test-model');
    expect(request.messages.at(-1)?.content).toBe(buildStrategyPrompt(done.prompt));
  });

  it('splits the bars 70/30 in time: the loop checks in-sample bars only', async () => {
    script('T-split', answer(GOOD_STRATEGY));
    const id = await create('T-split: moving averages');
    const done = await finished(id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    const r = done.backtest_result;
    if (!r) throw new Error('no backtest_result');
    const split = inSampleEnd(BARS);
    expect(split).toBe(210);
    expect(r.in_sample_fraction).toBe(0.7);
    expect(r.in_sample.bar_count).toBe(split);
    expect(r.out_of_sample.bar_count).toBe(BARS - split);
    expect(r.in_sample.to < r.out_of_sample.from).toBe(true);
    // the in-sample run saw its bars only: its figures end at the split
    expect(r.in_sample.performance?.bar_count).toBe(split);
    expect(r.in_sample.performance?.结束时间).toBe(r.in_sample.to);
    expect(r.performance.开始时间).toBe(r.in_sample.from);
    // out of sample counts the whole run's trades opened after the split, on its own bars
    const outStart = Date.parse(`${r.out_of_sample.from.replace(' ', 'T')}Z`) / 1000;
    const opened = r.deals.filter((d) => d.start >= outStart).length;
    expect(r.out_of_sample.trade_count).toBe(opened);
    expect(r.out_of_sample.performance?.交易次数).toBe(opened);
    expect(r.out_of_sample.performance?.bar_count).toBe(BARS - split);

    const validation = (await conversation(id)).find((m) => m.step_type === 'validation');
    expect(validation?.extra_data).toMatchObject({ passed: true, bars: split });
    expect(validation?.content).toContain(`${split} bars`);
  });

  it('feeds an error back and completes with the fix (retry_count 1)', async () => {
    script('T-fix', answer(BROKEN_STRATEGY), answer(GOOD_STRATEGY));
    const id = await create('T-fix: a crossover');
    const done = await finished(id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    expect(done.retry_count).toBe(1);
    expect(done.code).toBe(GOOD_STRATEGY);

    const messages = await conversation(id);
    expect(
      inOrder(steps(messages), [
        'generate_prompt',
        'ai_response',
        'error',
        'fix_prompt',
        'ai_response',
        'validation',
        'backtest',
      ]),
    ).toBe(true);
    const error = messages.find((m) => m.step_type === 'error');
    expect(error?.content).toContain("NameError: name 'closes_all' is not defined");
    const fix = messages.find((m) => m.step_type === 'fix_prompt');
    expect(fix?.role).toBe('user');
    expect(fix?.retry_number).toBe(1);
    expect(fix?.content).toContain('NameError');
    expect(fix?.content).toContain(BROKEN_STRATEGY);

    // the attempts can be read one by one
    const first = await conversation(id, '?retry_number=0');
    expect(steps(first)).toEqual(['initial_prompt', 'generate_prompt', 'ai_response', 'error']);
    const second = await conversation(id, '?retry_number=1');
    expect(steps(second)[0]).toBe('fix_prompt');
    const all = await asAlice('GET', `/api/ai/strategy/${id}/conversations`);
    expect(all.json<{ retry_numbers: number[] }>().retry_numbers).toEqual([0, 1]);

    // the fix request carried the broken answer and the fix prompt
    const requests = chatBodiesWith('T-fix');
    expect(requests).toHaveLength(2);
    const fixRequest = requests[1]?.messages ?? [];
    expect(fixRequest.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(fixRequest[2]?.content).toContain('closes_all');
    expect(fixRequest[3]?.content).toBe(fix?.content);
  });

  it('ends FAILED after the bound with the last error', async () => {
    script(
      'T-never',
      answer(BROKEN_STRATEGY),
      answer(BROKEN_STRATEGY),
      answer(IDLE_STRATEGY),
      answer(BROKEN_STRATEGY),
    );
    const id = await create('T-never: something that cannot work');
    const done = await finished(id);
    expect(done.status).toBe('FAILED');
    expect(done.retry_count).toBe(MAX_RETRIES);
    expect(done.code).toBeNull();
    expect(done.backtest_result).toBeNull();
    expect(done.error_message).toContain(`Gave up after ${MAX_RETRIES + 1} attempts`);
    expect(done.error_message).toContain("NameError: name 'closes_all' is not defined");
    const messages = await conversation(id);
    expect(steps(messages).filter((s) => s === 'error')).toHaveLength(MAX_RETRIES + 1);
    expect(steps(messages).filter((s) => s === 'fix_prompt')).toHaveLength(MAX_RETRIES);
    // a strategy that makes no trades is a failure too, fed back like an error
    expect(messages.map((m) => m.content).join('\n')).toContain('made no trades');
    expect(chatBodiesWith('T-never')).toHaveLength(MAX_RETRIES + 1);
  });

  it('starts over from the description when the answer has no code', async () => {
    script(
      'T-nocode',
      { content: pieces('I would use moving averages, but I will not write code today.') },
      answer(GOOD_STRATEGY),
    );
    const id = await create('T-nocode: averages');
    const done = await finished(id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    expect(done.retry_count).toBe(1);
    const messages = await conversation(id);
    expect(
      inOrder(steps(messages), [
        'generate_prompt',
        'ai_response',
        'error',
        'regenerate_prompt',
        'ai_response',
        'validation',
      ]),
    ).toBe(true);
    expect(steps(messages)).not.toContain('fix_prompt');
    const regenerate = messages.find((m) => m.step_type === 'regenerate_prompt');
    expect(regenerate?.content).toContain(buildStrategyPrompt(done.prompt));
    expect(regenerate?.content).toContain('no Python code block');
    // a fresh start: the unusable answer is not sent back
    const requests = chatBodiesWith('T-nocode');
    expect(requests[1]?.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('retries a provider refusal and a provider timeout within the bound', async () => {
    script(
      'T-timeout',
      { status: 429, error: { message: 'Quota exceeded for today' } },
      { stallBeforeHeaders: true },
      answer(GOOD_STRATEGY),
    );
    const id = await create('T-timeout: averages');
    const done = await finished(id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    expect(done.retry_count).toBe(2);
    const errors = (await conversation(id)).filter((m) => m.step_type === 'error');
    expect(errors.map((m) => m.content)).toEqual([
      expect.stringContaining('Lab is rate limiting the requests (HTTP 429). Quota exceeded'),
      expect.stringContaining('Lab sent no answer within 1.5 s'),
    ]);
    expect(errors.every((m) => m.extra_data?.stage === 'model')).toBe(true);
    // the abandoned request was closed, not left hanging
    await waitFor(() => upstream.chats().filter((r) => r.closedEarly).length > 0, 5000);
  });

  it('flags a strategy that looks at a later bar', async () => {
    script('T-peek', answer(LOOKAHEAD_STRATEGY));
    const id = await create('T-peek: buy before the price rises');
    const done = await finished(id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    const lookahead = done.backtest_result?.lookahead;
    expect(lookahead?.passed).toBe(false);
    expect(lookahead?.cuts.some((c) => c.changed > 0)).toBe(true);
    expect(lookahead?.detail).toContain('Look-ahead check failed');
    const verdict = (await conversation(id)).at(-1);
    expect(verdict).toMatchObject({ step_type: 'validation', role: 'ai' });
    expect(verdict?.content).toContain('uses future data');
    expect(verdict?.extra_data).toMatchObject({ check: 'lookahead', passed: false });
  });
});

describe('surviving a dead worker', () => {
  it('takes up a task left PROCESSING once its lease ran out, and leaves a live lease alone', async () => {
    script('T-crash', answer(GOOD_STRATEGY));
    script('T-alive', answer(GOOD_STRATEGY));
    const at = Math.floor(t.clock.now() / 1000);
    const row = (prompt: string) => ({
      userId: alice.user.user.id,
      status: 'PROCESSING',
      taskType: 'strategy',
      prompt,
      provider: 'lab',
      model: 'test-model',
      baseUrl: upstream.baseUrl,
      symbolId: 'BTCUSDT',
      period: 'day',
      maxRetries: MAX_RETRIES,
      createdAt: at,
      updatedAt: at,
      startedAt: at,
    });
    // as a killed server leaves them: claimed, a first message written, nobody renewing
    const [stale] = await t.db.insert(aiTasks).values(row('T-crash: averages')).returning();
    const [alive] = await t.db.insert(aiTasks).values(row('T-alive: averages')).returning();
    if (!stale || !alive) throw new Error('insert failed');
    const owner = 'a-worker-that-died';
    await queueTaskJobs(t.db, [stale], t.clock.now(), { owner, untilMs: t.clock.now() - 1 });
    await queueTaskJobs(t.db, [alive], t.clock.now(), { owner, untilMs: t.clock.now() + 60_000 });
    await t.db.insert(aiTaskMessages).values({
      taskId: stale.id,
      role: 'user',
      content: stale.prompt,
      stepType: 'initial_prompt',
      retryNumber: 0,
      createdAt: at,
    });
    t.app.services.ai.worker.notify();

    const done = await finished(stale.id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    const messages = await conversation(stale.id);
    expect(steps(messages).filter((s) => s === 'initial_prompt')).toHaveLength(1);
    expect(messages[1]).toMatchObject({
      step_type: 'generate_prompt',
      extra_data: { resumed: true },
    });
    const claimed = await taskWithLease(t.db, stale.id);
    expect(claimed?.claims).toBe(2);
    expect(claimed?.leaseOwner).toBeNull();

    // another worker still holds this one: it is not touched
    expect((await task(alive.id)).status).toBe('PROCESSING');
    expect(await conversation(alive.id)).toEqual([]);
    // until its lease runs out
    t.clock.advance(61_000);
    t.app.services.ai.worker.notify();
    expect((await finished(alive.id)).status).toBe('COMPLETED');
  });
});

describe('the calls', () => {
  it('lists the user’s tasks newest first with skip, limit and preview_code', async () => {
    const before = aiTaskListSchema.parse((await asAlice('GET', '/api/ai/strategies')).json());
    expect(before.total).toBeGreaterThan(2);
    expect(before.tasks.length).toBe(Math.min(10, before.total));
    const ids = before.tasks.map((x) => x.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const page = aiTaskListSchema.parse(
      (await asAlice('GET', '/api/ai/strategies?skip=1&limit=2&preview_code=true')).json(),
    );
    expect(page.total).toBe(before.total);
    expect(page.tasks.map((x) => x.id)).toEqual(ids.slice(1, 3));
    const withCode = page.tasks.find((x) => x.code_preview !== null);
    expect(withCode?.code).toBeNull();
    expect(withCode?.full_code).toBeNull();
    const bad = await asAlice('GET', '/api/ai/strategies?limit=0');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 42200, detail: expect.stringContaining('limit') });
  });

  it('deletes a task; a running one is cancelled', async () => {
    script('T-delete', { content: pieces(answerWith(GOOD_STRATEGY)), delayMs: 200 });
    const id = await create('T-delete: averages');
    await waitFor(() => t.app.services.ai.worker.activeTasks().includes(id), 20_000);
    const res = await asAlice('DELETE', `/api/ai/strategy/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id, deleted: true, cancelled: true });
    await waitFor(() => !t.app.services.ai.worker.activeTasks().includes(id), 20_000);
    expect((await asAlice('GET', `/api/ai/strategy/${id}`)).statusCode).toBe(404);
    expect((await asAlice('DELETE', `/api/ai/strategy/${id}`)).statusCode).toBe(404);
    const rows = await t.db.select().from(aiTaskMessages).where(eqTask(id));
    expect(rows).toEqual([]);
  });

  it('saves a completed task’s code as a strategy of the user, by the strategy name rules', async () => {
    script('T-save', answer(GOOD_STRATEGY));
    const id = await create('T-save: averages');
    expect((await finished(id)).status).toBe('COMPLETED');
    const saved = await asAlice('POST', '/api/ai/strategies/from-ai', {
      name: '  AI crossover ',
      task_id: id,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      name: 'AI crossover',
      code: GOOD_STRATEGY,
      created: true,
    });
    const list = await asAlice('GET', '/api/strategies/');
    expect(list.json<{ strategies: { name: string }[] }>().strategies.map((s) => s.name)).toContain(
      'AI crossover',
    );
    const again = await asAlice('POST', '/api/ai/strategies/from-ai', {
      name: 'AI crossover',
      task_id: id,
    });
    expect(again.statusCode).toBe(409);
    const reserved = await asAlice('POST', '/api/ai/strategies/from-ai', {
      name: 'Default',
      task_id: id,
    });
    expect(reserved.statusCode).toBe(400);
    const blank = await asAlice('POST', '/api/ai/strategies/from-ai', { name: ' ', task_id: id });
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toMatchObject({ detail: 'name: Please enter a strategy name' });

    const failed = (await asAlice('GET', '/api/ai/strategies?limit=100'))
      .json<{ tasks: AiTask[] }>()
      .tasks.find((x) => x.status === 'FAILED');
    const refused = await asAlice('POST', '/api/ai/strategies/from-ai', {
      name: 'From a failed task',
      task_id: failed?.id,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      detail: 'Only a completed task with code can be saved as a strategy',
    });
  });

  it('shows another user’s task to nobody but its owner (404 on every call)', async () => {
    const [mine] = (await asAlice('GET', '/api/ai/strategies')).json<{ tasks: AiTask[] }>().tasks;
    if (!mine) throw new Error('alice has no task');
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/ai/strategy/${mine.id}`],
      ['GET', `/api/ai/strategy/${mine.id}/conversations`],
      ['DELETE', `/api/ai/strategy/${mine.id}`],
      ['POST', '/api/ai/strategies/from-ai', { name: 'Stolen', task_id: mine.id }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await asBob(method as 'GET', url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 40400, detail: `Task not found: ${mine.id}` });
    }
    expect((await asBob('GET', '/api/ai/strategies')).json()).toEqual({ tasks: [], total: 0 });
    expect((await task(mine.id)).id).toBe(mine.id); // still there
    for (const url of ['/api/ai/strategy/abc', '/api/ai/strategy/0/conversations']) {
      expect((await asAlice('GET', url)).statusCode).toBe(404);
    }
    for (const [method, url] of [
      ['POST', '/api/ai/strategy'],
      ['GET', '/api/ai/strategies'],
      ['GET', `/api/ai/strategy/${mine.id}/conversations`],
      ['DELETE', `/api/ai/strategy/${mine.id}`],
      ['POST', '/api/ai/strategies/from-ai'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses bad bodies with 422 { detail } and creates nothing', async () => {
    const count = async () =>
      (await asAlice('GET', '/api/ai/strategies')).json<{ total: number }>().total;
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ prompt: '' }, 'prompt: Please enter strategy description'],
      [{ prompt: '   ' }, 'prompt: Please enter strategy description'],
      [{ prompt: undefined }, 'prompt: Please enter strategy description'],
      [
        { prompt: 'x'.repeat(1001) },
        'prompt: Strategy description must be at most 1000 characters',
      ],
      [{ provider: '' }, 'provider: Please select an AI provider'],
      [{ model: '' }, 'model: Please select an AI model'],
      [{ base_url: '' }, 'base_url: Please enter API Base URL'],
      [{ symbol_id: '' }, 'symbol_id: No active chart'],
      [{ provider: 'nope' }, 'Unknown service provider: nope'],
      [
        { base_url: 'http://169.254.169.254/v1' },
        `API endpoint not allowed: http://169.254.169.254/v1. The endpoint of Lab is ${upstream.baseUrl}`,
      ],
      [{ symbol_id: 'NOPE' }, 'symbol_id: Unknown symbol: NOPE'],
      [{ period: 'fortnight' }, 'period: Unknown period: fortnight'],
      [{ api_key: 'sk-…9999' }, 'api_key: this is a masked key that does not match the saved one'],
    ];
    for (const [overrides, detail] of cases) {
      const res = await asAlice('POST', '/api/ai/strategy', body(overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(res.json<{ code: number; detail: string }>()).toMatchObject({ code: 42200 });
      expect(res.json<{ detail: string }>().detail).toContain(detail);
    }
    // bob saved no key: the spec's message
    const noKey = await asBob('POST', '/api/ai/strategy', body());
    expect(noKey.statusCode).toBe(422);
    expect(noKey.json()).toMatchObject({ detail: 'Please set OpenAI API Key first' });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/ai/strategy',
      cookies: { ct_sid: alice.cookie },
      headers: { 'content-type': 'application/json' },
      payload: '{"prompt":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await count()).toBe(before);
    expect((await asBob('GET', '/api/ai/strategies')).json()).toMatchObject({ total: 0 });
  });

  it('runs a task with a key sent in the request, which is never answered', async () => {
    script('T-ownkey', answer(GOOD_STRATEGY));
    const id = await create('T-ownkey: averages', { api_key: 'sk-own-key-1234567890' });
    const done = await finished(id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    expect(JSON.stringify(done)).not.toContain('sk-own-key');
    const sent = upstream.chats().find((r) => JSON.stringify(r.body).includes('T-ownkey'));
    expect(sent?.authorization).toBe('Bearer sk-own-key-1234567890');
    const [row] = await t.db.select().from(aiTasks).where(eqId(id));
    expect(row?.apiKeyEnc).toBeTruthy();
    expect(row?.apiKeyEnc).not.toContain('sk-own-key');
  });
});

const eqId = (id: number) => eq(aiTasks.id, id);
const eqTask = (id: number) => eq(aiTaskMessages.taskId, id);
