import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyBars, testSandbox } from '../test/backtest.ts';
import { eq } from 'drizzle-orm';
import { aiTaskMessages, aiTasks } from '../db/schema.ts';
import { appendMessage, updateHeldTask } from '../modules/ai/tasks-store.ts';
import { queueTaskJobs } from '../test/ai.ts';
import { InvalidUserError } from '../modules/users/service.ts';
import { buildUser, loginAs, loginBody, type BuiltUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { stateDigest } from './support.ts';

/*
 * Issue 18 items 3, 4 and 11 as a user meets them: control characters, lone surrogates,
 * bidirectional overrides, huge integers and non-decimal volumes are refused with a 400
 * naming the field (never a 500, nothing stored); free text (code, comments, what a
 * strategy prints) is stored without what PostgreSQL cannot hold.
 */

const UID_BASE = 63_000;

let t: TestApp;
let alice: BuiltUser;
let cookie: string;
let creds: { uuid: string; token: string };

beforeAll(async () => {
  t = await createTestApp({
    config: { sandbox: testSandbox({ uidBase: UID_BASE }), marketTestControl: true },
  });
  alice = await buildUser(t.db, { accounts: 1 });
  const session = await loginAs(t.app, alice);
  cookie = session.cookie;
  const trader = session.user.traders[0];
  if (!trader) throw new Error('no trading account');
  creds = { uuid: trader.uuid, token: trader.token };
  await t.app.inject({
    method: 'POST',
    url: '/api/test/market/quote',
    payload: { symbol: 'BTCUSDT', bid: 50000, ask: 50001 },
  });
});
afterAll(() => t?.close());

const as = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, cookies: { ct_sid: cookie }, ...(payload ? { payload } : {}) });

async function refusedWithoutChange(
  request: () => ReturnType<typeof as>,
  status: number,
  message: RegExp,
) {
  const before = await stateDigest(t.db);
  const res = await request();
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ msg?: string; detail?: string }>();
  expect(body.detail ?? body.msg).toMatch(message);
  expect(await stateDigest(t.db)).toBe(before);
}

describe('control characters in names and ids are refused with a clear 400', () => {
  it('a NUL in the login user name (no session needed) is a 400 in the login shape', async () => {
    const before = await stateDigest(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/login',
      payload: loginBody(`${alice.email}\u0000`, alice.password),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 40000,
      msg: 'user_name: must not contain control characters',
      data: [],
    });
    expect(await stateDigest(t.db)).toBe(before);
  });

  it.each([
    ['uuid', { uuid: 'a\u0000b' }, /uuid: must not contain control characters/],
    ['symbol', { symbol: 'BTCUSDT\u0000' }, /symbol: must not contain control characters/],
    ['clientOrderId', { clientOrderId: 'k\u0000' }, /clientOrderId: must not contain control/],
    ['a lone surrogate symbol', { symbol: '\ud800' }, /symbol: must be valid Unicode text/],
    ['a bidi override', { symbol: 'BTC\u202eUSDT' }, /symbol: must not contain invisible/],
    [
      'a zero-width space',
      { clientOrderId: 'a\u200bb' },
      /clientOrderId: must not contain invisible/,
    ],
  ])('an order with a bad %s', async (_label, patch, message) => {
    await refusedWithoutChange(
      () =>
        as('POST', '/trading/order/open', {
          ...creds,
          symbol: 'BTCUSDT',
          cmd: 1,
          volume: 1,
          ...patch,
        }),
      400,
      message,
    );
  });

  it.each([
    ['/api/strategies/a%00b', 'DELETE'],
    ['/api/strategies/a%00b/versions', 'GET'],
    ['/api/strategy-results/a%00b/1', 'GET'],
    ['/api/market/imports/X%00', 'DELETE'],
    ['/api/strategies/%E2%80%AEname', 'DELETE'],
  ] as const)('a path segment %s', async (url, method) => {
    await refusedWithoutChange(() => as(method, url), 400, /must not contain/);
  });

  it('a path segment that is not UTF-8 (a lone surrogate) answers 400 in the /api shape', async () => {
    await refusedWithoutChange(
      () => as('DELETE', '/api/strategies/%ED%A0%80'),
      400,
      /not valid UTF-8/,
    );
  });

  it('strategy names refuse bidirectional overrides and zero-width characters', async () => {
    for (const name of ['evil\u202egnp.py', 'Fuzz\u200b', 'Na\ufeffme', 'a\ud800']) {
      await refusedWithoutChange(
        () => as('POST', '/api/strategies/', { name, code: '# x', create: true }),
        400,
        /^name: Strategy name must/,
      );
    }
  });
});

describe('user names (user:create) refuse control, bidi and zero-width characters', () => {
  it.each([
    [{ nickName: 'Ev\u202eil' }, /The nickname must not contain invisible/],
    [{ nickName: 'zero\u200bwidth' }, /The nickname must not contain invisible/],
    [{ nickName: 'nul\u0000' }, /The nickname must not contain control/],
    [{ email: 'x\u0000@example.com' }, /Invalid email/],
  ])('%j', async (overrides, message) => {
    const before = await stateDigest(t.db);
    const made = buildUser(t.db, overrides);
    await expect(made).rejects.toBeInstanceOf(InvalidUserError);
    await expect(made).rejects.toThrow(message);
    expect(await stateDigest(t.db)).toBe(before);
  });
});

describe('integer parameters are bounded (item 4)', () => {
  it.each(['1e20', '18446744073709551616', '9223372036854775808', '0x10', '1.5'])(
    'lastSortId=%s on order logs and settlements is a 400, not a 500',
    async (lastSortId) => {
      for (const path of ['/trading/order/logs', '/trading/order/settles']) {
        const query = new URLSearchParams({ ...creds, lastSortId }).toString();
        const res = await as('GET', `${path}?${query}`);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json<{ msg: string }>().msg).toMatch(/^lastSortId: lastSortId must be/);
      }
    },
  );

  it('a safe integer lastSortId still pages', async () => {
    const query = new URLSearchParams({ ...creds, lastSortId: String(2 ** 53 - 1) }).toString();
    const res = await as('GET', `/trading/order/logs?${query}`);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a task id beyond the database integer is refused, not a 500', async () => {
    await refusedWithoutChange(
      () => as('POST', '/api/ai/strategies/from-ai', { name: 'X', task_id: 1e308 }),
      422,
      /task_id must be a task id/,
    );
  });
});

describe('volumes are decimal numbers only (item 11)', () => {
  it.each(['0b1', '+1', '0x1', '1e0', 'Infinity', ' '])(
    'volume %j is not taken as 1: the order is refused as an invalid quantity',
    async (volume) => {
      const res = await as('POST', '/trading/order/open', {
        ...creds,
        symbol: 'BTCUSDT',
        cmd: 1,
        volume,
      });
      expect(res.json<{ code: number; msg: string }>().msg, res.body).toBe('Invalid quantity');
      expect(res.json<{ success: boolean }>().success).toBe(false);
    },
  );

  it("volume '1' and '0.5'-style decimal strings are still accepted", async () => {
    const res = await as('POST', '/trading/order/open', {
      ...creds,
      symbol: 'BTCUSDT',
      cmd: 1,
      volume: '1',
    });
    expect(res.json<{ code: number }>().code, res.body).toBe(0);
  });
});

describe('free text is stored without what PostgreSQL cannot hold', () => {
  it('strategy code and an order comment with NUL and a lone surrogate are saved', async () => {
    const save = await as('POST', '/api/strategies/', {
      name: 'Nul code',
      code: 'print("a")\u0000# \ud800 end',
      create: true,
    });
    expect(save.statusCode, save.body).toBe(200);
    const list = await as('GET', '/api/strategies/');
    const saved = list
      .json<{ strategies: { name: string; code: string }[] }>()
      .strategies.find((s) => s.name === 'Nul code');
    expect(saved?.code).toBe('print("a")# \ufffd end');

    const order = await as('POST', '/trading/order/open', {
      ...creds,
      symbol: 'BTCUSDT',
      cmd: 1,
      volume: 1,
      comment: 'note\u0000\udc00',
    });
    expect(order.json<{ code: number }>().code, order.body).toBe(0);
    expect(order.json<{ data: { order: { comment: string } } }>().data.order.comment).toBe(
      'note\ufffd',
    );
  });

  it('a result whose deals, performance and error hold NUL is saved and listed', async () => {
    const res = await as('POST', '/api/strategy-results/', {
      strategy_name: 'Nul code',
      symbol_id: 'BTCUSDT',
      deals: [{ note: 'x\u0000y', 'k\u0000': 1 }],
      performance: { 'name\u0000': 'v\ud800' },
      error: 'Trace\u0000back',
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = await as('GET', '/api/strategy-results/Nul%20code');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).toContain('Traceback');
  });

  it('a strategy that prints a NUL still gets a stored run with its log', async () => {
    const res = await as('POST', '/api/backtest/code', {
      code: [
        'def main(data_array):',
        '    print("before\\x00after")',
        '    print("\\x00")',
        '    raise ValueError("bad\\x00value")',
      ].join('\n'),
      filename: 'nul.py',
      historical_data: dailyBars(30),
    });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json<{ run_id: string | null; error: string | null; error_kind: string }>();
    expect(run.error_kind).toBe('strategy');
    expect(run.run_id).toMatch(/^[0-9a-f-]{36}$/);
    await t.app.services.backtest.service.flush();
    const stored = await as('GET', `/api/backtest/runs/${run.run_id}`);
    expect(stored.statusCode, stored.body).toBe(200);
    const body = stored.json<{ logs: string[]; error: string }>();
    expect(body.logs.join('\n')).toContain('beforeafter');
    expect(body.error).toContain('badvalue');
  });

  it("a model's answer with NUL and a lone surrogate is stored with its task", async () => {
    const [task] = await t.db
      .insert(aiTasks)
      .values({
        userId: alice.user.id,
        status: 'PROCESSING',
        taskType: 'strategy',
        prompt: 'p',
        provider: 'openai',
        model: 'gpt-4o',
        baseUrl: 'https://api.openai.com/v1',
        symbolId: 'BTCUSDT',
        period: '1d',
        maxRetries: 3,
        createdAt: 1,
        updatedAt: 1,
      })
      .returning();
    if (!task) throw new Error('no task');
    await queueTaskJobs(t.db, [task], 1, { owner: 'worker-1', untilMs: Number.MAX_SAFE_INTEGER });
    const message = await appendMessage(t.db, 'worker-1', {
      taskId: task.id,
      role: 'ai',
      content: 'def main(d):\u0000 # \ud800',
      stepType: 'ai_response',
      retryNumber: 0,
      extraData: { raw: 'x\u0000' },
      createdAt: 2,
    });
    expect(message?.content).toBe('def main(d): # \ufffd');
    const ended = await updateHeldTask(t.db, task.id, 'worker-1', {
      status: 'FAILED',
      code: 'a\u0000b',
      errorMessage: 'Trace\u0000back \udc00',
      backtestResult: { error: '\u0000' },
      updatedAt: 3,
    });
    expect(ended).toBe(true);
    const [row] = await t.db.select().from(aiTasks).where(eq(aiTasks.id, task.id));
    expect(row).toMatchObject({ code: 'ab', errorMessage: 'Traceback \ufffd' });
    const messages = await t.db
      .select()
      .from(aiTaskMessages)
      .where(eq(aiTaskMessages.taskId, task.id));
    expect(messages.map((m) => m.extraData)).toEqual([{ raw: 'x' }]);
  });
});
