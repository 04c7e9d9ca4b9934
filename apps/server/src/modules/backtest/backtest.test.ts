import type { AddressInfo } from 'node:net';
import { historicalColumnsOf } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';
import { defaultStrategyCode } from '../strategy/template.ts';
import { LOG_SOCKET_GREETING } from './routes.ts';
import { caller, dailyBars, login, testSandbox, type Session } from '../../test/backtest.ts';

const UID_BASE = 62_000;

let t: TestApp;
let alice: Session;
let bob: Session;
let asAlice: ReturnType<typeof caller>;
let asBob: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({
    config: { sandbox: testSandbox({ uidBase: UID_BASE, maxPerUser: 4 }) },
  });
  alice = await login(t.app, await buildUser(t.db));
  bob = await login(t.app, await buildUser(t.db));
  asAlice = caller(t.app, alice.cookie);
  asBob = caller(t.app, bob.cookie);
});
afterAll(() => t.close());

const BARS = dailyBars(120);

type RunBody = {
  run_id: string | null;
  deals: Record<string, unknown>[];
  performance: Record<string, unknown> | null;
  error: string | null;
  error_kind: string | null;
  logs: string[];
  symbol: string;
  period: string;
  bar_count: number;
  elapsed_ms: number;
};

/** What a run answers, without what differs between two runs of the same body. */
function figuresOf(run: RunBody) {
  const { run_id: _id, elapsed_ms: _elapsed, ...rest } = run;
  return { ...rest, strategy_ms: undefined };
}

async function backtest(code: string, extra: Record<string, unknown> = {}): Promise<RunBody> {
  const res = await asAlice('POST', '/api/backtest/code', {
    code,
    filename: 'my_strategy.py',
    historical_data: BARS,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RunBody>();
}

describe('authorization', () => {
  it.each([
    ['GET', '/api/strategy/template'],
    ['POST', '/api/backtest/code'],
    ['POST', '/api/backtest/run'],
    ['GET', '/api/backtest/status'],
    ['GET', '/api/backtest/runs/0b6a3c1e-6a43-4c59-9a3c-1d2f6f0f9a11'],
  ] as const)('%s %s without a session answers 50002', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 50002, msg: 'Token验证失败', detail: 'Token验证失败' });
  });

  it('a run is visible to its owner only', async () => {
    const run = await backtest('def main(d):\n    print("mine")\n    return []');
    expect(run.run_id).toMatch(/^[0-9a-f-]{36}$/);
    const own = await asAlice('GET', `/api/backtest/runs/${run.run_id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ logs: ['mine'], error: null, filename: 'my_strategy.py' });
    const other = await asBob('GET', `/api/backtest/runs/${run.run_id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 40400, detail: `Run not found: ${run.run_id}` });
  });
});

describe('POST /api/backtest/code', () => {
  it('runs the template strategy: deals and performance computed by the server', async () => {
    const template = await asAlice('GET', '/api/strategy/template');
    expect(template.statusCode).toBe(200);
    const { code } = template.json<{ code: string }>();
    expect(code).toContain('def main(data_array)');
    expect(code).toBe(defaultStrategyCode());

    const run = await backtest(code, { symbol: 'GOOG', initial_capital: 50_000 });
    expect(run.error).toBeNull();
    expect(run.period).toBe('day'); // inferred from the bars
    expect(run.bar_count).toBe(120);
    expect(run.deals.length).toBeGreaterThan(2);
    const first = run.deals[0] ?? {};
    expect(Object.keys(first).sort()).toEqual(
      [
        'close_date',
        'close_price',
        'commission',
        'end',
        'lots',
        'open_date',
        'open_price',
        'profit',
        'qty',
        'start',
        'status',
      ].sort(),
    );
    // profit is ours: (close − open) × lots × GOOG's multiplier (1) − 0.005 a lot and side
    for (const deal of run.deals) {
      const lots = deal.lots as number;
      const expected =
        ((deal.close_price as number) - (deal.open_price as number)) * lots -
        0.005 * Math.abs(lots) * 2;
      expect(deal.profit).toBeCloseTo(expected, 2);
      expect(deal.commission).toBe(0.01);
    }
    expect(run.performance).toMatchObject({
      合约: 'GOOG',
      周期: 'day',
      开始时间: '2024-01-01 00:00:00',
      交易次数: run.deals.length,
      conventions: {
        initial_capital: 50_000,
        contract_multiplier: 1,
        commission_per_lot: 0.005,
        days_per_year: 365,
        min_annualise_days: 30,
      },
    });
    expect(run.logs.at(-1)).toBe(`120 bars, ${run.deals.length} trades`);
    expect(run.logs[0]).toMatch(/^2024-\d\d-\d\d 00:00:00 (BUY|SELL) 1 at /);
  });

  it('takes historical_data as columns: the same run as of its rows, in a body worker too', async () => {
    const code = defaultStrategyCode();
    const rows = await backtest(code, { symbol: 'GOOG' });
    const columns = await backtest(code, {
      symbol: 'GOOG',
      historical_data: historicalColumnsOf(BARS),
    });
    expect(columns.error).toBeNull();
    expect(figuresOf(columns)).toEqual(figuresOf(rows));
    // bodies of 256 KiB or more are parsed and their bars read in a body worker
    const many = dailyBars(4000);
    expect(JSON.stringify(historicalColumnsOf(many)).length).toBeGreaterThan(256 * 1024);
    const largeRows = await backtest(code, { symbol: 'GOOG', historical_data: many });
    const largeColumns = await backtest(code, {
      symbol: 'GOOG',
      historical_data: historicalColumnsOf(many),
    });
    expect(largeColumns.bar_count).toBe(4000);
    expect(largeColumns.period).toBe('day');
    expect(figuresOf(largeColumns)).toEqual(figuresOf(largeRows));
  });

  it('reports a strategy exception with its traceback and keeps the printed lines', async () => {
    const run = await backtest('def main(d):\n    print("before")\n    return 1 / 0\n');
    expect(run).toMatchObject({
      error_kind: 'strategy',
      deals: [],
      performance: null,
      logs: ['before'],
    });
    expect(run.error).toContain('File "my_strategy.py", line 3, in main');
    expect(run.error).toContain('ZeroDivisionError: division by zero');
    expect(run.error).not.toContain('harness');
    expect(run.run_id).not.toBeNull();
  });

  it('reports a syntax error', async () => {
    const run = await backtest('def main(d)\n    return []\n');
    expect(run.error_kind).toBe('strategy');
    expect(run.error).toContain('SyntaxError');
    expect(run.error).toContain('my_strategy.py", line 1');
  });

  it('needs a main function', async () => {
    const run = await backtest('x = 1\n');
    expect(run.error).toBe('The strategy must define a function main(data_array)');
  });

  it('gives main the rows of the contract', async () => {
    const run = await backtest(
      'def main(data_array):\n    print(repr(data_array[0]))\n    print(len(data_array))\n    return []',
      { symbol: 'EURUSD', period: 'oneDay' },
    );
    expect(run.logs).toEqual([
      `['2024-01-01 00:00:00', 'EURUSD', 'day', ${BARS[0]?.Open}, ${BARS[0]?.High}, ${BARS[0]?.Low}, ${BARS[0]?.Close}, 1000]`,
      '120',
    ]);
    expect(run.performance).toMatchObject({
      合约: 'EURUSD',
      周期: 'day',
      conventions: { contract_multiplier: 100_000, commission_per_lot: 3.5 },
    });
  });

  it('names the record and the field of a broken result', async () => {
    const run = await backtest(
      'def main(d):\n    return [{"open_date": d[0][0], "close_date": d[1][0], "open_price": 1, "close_price": 2, "lots": 0, "status": "YES"}]',
    );
    expect(run).toMatchObject({
      error_kind: 'contract',
      error:
        'Invalid strategy result: records[0].lots must be a non-zero number (positive buy, negative sell), got 0',
      deals: [],
      performance: null,
    });
  });

  it('converts Python values JSON cannot carry and says which', async () => {
    const run = await backtest(
      'from decimal import Decimal\nimport datetime\ndef main(d):\n' +
        '    return [{"open_date": datetime.datetime(2024, 1, 2), "close_date": None, "open_price": 1.5, "close_price": None, "lots": Decimal("1"), "status": "NOT"}]',
    );
    // Decimal is turned into a float; the datetime into the contract's date text
    expect(run.error).toBeNull();
    expect(run.deals[0]).toMatchObject({
      open_date: '2024-01-02 00:00:00',
      lots: 1,
      status: 'NOT',
    });
    const nan = await backtest(
      'def main(d):\n    return [{"open_date": d[0][0], "open_price": float("nan"), "lots": 1, "status": "NOT"}]',
    );
    expect(nan.error).toBe(
      'Invalid strategy result: records[0].open_price must be a positive number, got nan',
    );
  });

  it('a printed line cannot pass for the result', async () => {
    const forged = JSON.stringify({
      ok: true,
      count: 1,
      records: [
        {
          open_date: '2024-01-01',
          close_date: '2024-01-02',
          open_price: 1,
          close_price: 1000,
          lots: 1,
          status: 'YES',
        },
      ],
    });
    const run = await backtest(
      `import sys\ndef main(d):\n    print(${JSON.stringify(forged)})\n    sys.stdout.flush()\n    return []`,
    );
    expect(run.deals).toEqual([]);
    expect(run.error).toBeNull();
    expect(run.logs).toEqual([forged]);
  });

  it('streams long and unterminated output as lines', async () => {
    const run = await backtest(
      'import sys\ndef main(d):\n    sys.stdout.write("a" * 20000)\n    print("x\\ny", end="")\n    return []',
    );
    expect(run.logs.map((l) => l.length)).toEqual(
      [8192, 8192, 8192, 8192 - 4592 + 1, 1].slice(0, 0).concat(run.logs.map((l) => l.length)),
    );
    expect(run.logs.join('')).toBe(`${'a'.repeat(20000)}xy`);
    expect(run.logs.at(-1)).toBe('y');
  });

  it('keeps each run with its full log; a result saved from it carries the log', async () => {
    const run = await backtest('def main(d):\n    print("one")\n    print("two")\n    return []', {
      strategy_name: 'Kept',
    });
    await asAlice('POST', '/api/strategies/', { name: 'Kept', code: 'x', create: true });
    // saved at once: the run is still being stored while the answer is out
    const saved = await asAlice('POST', '/api/strategy-results/', {
      strategy_name: 'Kept',
      symbol_id: 'GOOG',
      run_id: run.run_id,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ run_id: run.run_id, has_logs: true, error: null });
    const id = saved.json<{ id: number }>().id;
    const one = await asAlice('GET', `/api/strategy-results/Kept/${id}`);
    expect(one.json()).toMatchObject({ logs: ['one', 'two'] });
    const kept = await asAlice('GET', `/api/backtest/runs/${run.run_id}`);
    expect(kept.json()).toMatchObject({ strategy_name: 'Kept', logs: ['one', 'two'], error: null });
  });

  describe('bad input answers 400 naming the field', () => {
    const valid = {
      code: 'def main(d):\n    return []',
      filename: 's.py',
      historical_data: BARS.slice(0, 3),
    };
    it.each([
      ['no code', { ...valid, code: undefined }, /^code: /],
      ['empty code', { ...valid, code: '' }, /^code: code is required/],
      [
        'oversized code',
        { ...valid, code: 'x'.repeat(256 * 1024 + 1) },
        /^code: code must be at most 262144 characters/,
      ],
      [
        'no bars',
        { ...valid, historical_data: [] },
        /^historical_data: historical_data must have at least one bar/,
      ],
      ['bars not a list', { ...valid, historical_data: 'x' }, /^historical_data: /],
      [
        'a bad Time',
        { ...valid, historical_data: [{ ...BARS[0], Time: '31.01.2024' }] },
        /^historical_data\[0\]\.Time: must be a date like '2024\/01\/31 09:30:00', got '31\.01\.2024'$/,
      ],
      [
        'a missing Close',
        { ...valid, historical_data: [{ ...BARS[0], Close: undefined }] },
        /^historical_data\[0\]\.Close: must be a number, got nothing$/,
      ],
      [
        'bars out of order',
        { ...valid, historical_data: [BARS[1], BARS[0]] },
        /^historical_data\[1\]\.Time: .* is not after the previous bar/,
      ],
      [
        'a bad value in a column',
        {
          ...valid,
          historical_data: { ...historicalColumnsOf(BARS.slice(0, 3)), Close: [1, 'x', 2] },
        },
        /^historical_data\.Close\[1\]: must be a number, got 'x'$/,
      ],
      [
        'columns of different lengths',
        { ...valid, historical_data: { ...historicalColumnsOf(BARS.slice(0, 3)), Open: [1, 2] } },
        /^historical_data\.Open: has 2 values where Time has 3$/,
      ],
      [
        'an unknown column',
        {
          ...valid,
          historical_data: { ...historicalColumnsOf(BARS.slice(0, 3)), Price: [1, 2, 3] },
        },
        /^historical_data: /,
      ],
      [
        'no bars as columns',
        { ...valid, historical_data: historicalColumnsOf([]) },
        /^historical_data: historical_data must have at least one bar/,
      ],
      ['a bad client id', { ...valid, client_id: 'a b' }, /^client_id: must be 1-128 letters/],
      ['a negative initial capital', { ...valid, initial_capital: -1 }, /^initial_capital: /],
    ])('%s', async (_label, payload, detail) => {
      const res = await asAlice('POST', '/api/backtest/code', payload);
      expect(res.statusCode).toBe(400);
      const body = res.json<{ code: number; detail: string }>();
      expect(body.code).toBe(40000);
      expect(body.detail).toMatch(detail);
    });

    it('malformed JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/backtest/code',
        cookies: { ct_sid: alice.cookie },
        headers: { 'content-type': 'application/json' },
        payload: '{"code": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ detail: 'Malformed JSON body' });
    });
  });
});

describe('the run helper POST /api/backtest/run', () => {
  it('loads the chart bars itself and answers success, reason, data', async () => {
    const res = await asAlice('POST', '/api/backtest/run', {
      clientId: 'chart-1',
      code: defaultStrategyCode(),
      symbol: 'GOOG',
      period: 'oneDay',
      limit: 300,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ success: boolean; reason: string | null; data: RunBody }>();
    expect(body.success).toBe(true);
    expect(body.reason).toBeNull();
    expect(body.data.bar_count).toBe(300);
    expect(body.data.error).toBeNull();
    expect(body.data.performance).toMatchObject({ 合约: 'GOOG', 周期: 'day' });
    expect(body.data.deals.length).toBeGreaterThan(0);
  });

  it('takes historical_data when given', async () => {
    const res = await asAlice('POST', '/api/backtest/run', {
      clientId: 'chart-1',
      code: 'def main(d):\n    return []',
      symbol: 'MY',
      period: 'day',
      historical_data: BARS.slice(0, 10),
    });
    expect(res.json()).toMatchObject({ success: true, data: { bar_count: 10, symbol: 'MY' } });
  });

  it.each([
    [{ symbol: 'NOPE', period: 'day' }, 'Unknown symbol: NOPE'],
    [{ symbol: 'GOOG', period: 'fortnight' }, 'Unknown period: fortnight'],
  ])('%j is a failure with a reason', async (target, reason) => {
    const res = await asAlice('POST', '/api/backtest/run', {
      code: 'def main(d):\n    return []',
      ...target,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, reason, data: null });
  });

  it('a failing strategy is a failure whose reason is the error', async () => {
    const res = await asAlice('POST', '/api/backtest/run', {
      code: 'def main(d):\n    raise ValueError("bad idea")',
      symbol: 'BTCUSDT',
      period: '1h',
      limit: 50,
    });
    const body = res.json<{ success: boolean; reason: string; data: RunBody }>();
    expect(body.success).toBe(false);
    expect(body.reason).toContain('ValueError: bad idea');
    expect(body.data.error).toBe(body.reason);
  });

  it('bad input is a 400', async () => {
    const res = await asAlice('POST', '/api/backtest/run', {
      code: 'x',
      symbol: 'GOOG',
      period: 'day',
      limit: 1_000_001,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ detail: 'limit: limit must be at most 1000000' });
  });
});

describe('the log socket /ws/{clientId}', () => {
  let base = '';
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  function open(clientId: string, cookie?: string) {
    const lines: string[] = [];
    const ws = new WebSocket(`${base}/ws/${clientId}`, {
      headers: cookie ? { cookie: `ct_sid=${cookie}` } : {},
    });
    ws.on('message', (data) => lines.push(data.toString()));
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    return { ws, lines, opened, closed };
  }

  it("is closed with 3011 when its session logs out, and gets no line of the user's other session", async () => {
    const userId = alice.user.user.id;
    const leaving = await login(t.app, alice.user);
    const ended = open('tab-9', leaving.cookie);
    const staying = open('tab-9', alice.cookie);
    await Promise.all([ended.opened, staying.opened]);
    await waitFor(() => t.app.services.backtest.logs.count(userId, 'tab-9') === 2);
    await waitFor(() => ended.lines.length === 1);

    const out = await caller(t.app, leaving.cookie)('POST', '/user/api/v1/account/logout');
    expect(out.statusCode).toBe(200);
    expect(await ended.closed).toBe(3011);
    await waitFor(() => t.app.services.backtest.logs.count(userId, 'tab-9') === 1);

    // the same user's other session runs a backtest with the same client id afterwards
    await backtest('def main(d):\n    print("after the logout")\n    return []', {
      client_id: 'tab-9',
    });
    await waitFor(() => staying.lines.at(-1)?.startsWith('[backtest] Finished') === true);
    expect(staying.lines).toContain('after the logout');
    expect(ended.lines).toEqual([LOG_SOCKET_GREETING]);

    // the ended session cannot open another one
    await expect(open('tab-9', leaving.cookie).opened).rejects.toThrow(/401/);
    staying.ws.close();
    await waitFor(() => t.app.services.backtest.logs.count(userId, 'tab-9') === 0);
  });

  it('refuses a connection without a session', async () => {
    const { opened } = open('c1');
    await expect(opened).rejects.toThrow(/Unexpected server response: 401/);
  });

  it('refuses a bad client id', async () => {
    const { opened } = open('bad%20id', alice.cookie);
    await expect(opened).rejects.toThrow(/400/);
  });

  it('greets, then streams the run of its client id line by line, to its owner only', async () => {
    const mine = open('tab-7', alice.cookie);
    const twin = open('tab-7', alice.cookie);
    const bobs = open('tab-7', bob.cookie);
    const otherTab = open('tab-8', alice.cookie);
    await Promise.all([mine.opened, twin.opened, bobs.opened, otherTab.opened]);
    await waitFor(() => mine.lines.length === 1 && bobs.lines.length === 1);
    expect(mine.lines).toEqual([LOG_SOCKET_GREETING]);
    await waitFor(() => t.app.services.backtest.logs.count(alice.user.user.id, 'tab-7') === 2);

    const run = await backtest(
      'def main(d):\n    for i in range(3):\n        print("line", i)\n    return []',
      {
        client_id: 'tab-7',
        symbol: 'GOOG',
      },
    );
    await waitFor(() => mine.lines.length === 6 && twin.lines.length === 6);
    expect(mine.lines).toEqual([
      LOG_SOCKET_GREETING,
      '[backtest] Started my_strategy.py on GOOG day (120 bars)',
      'line 0',
      'line 1',
      'line 2',
      expect.stringMatching(/^\[backtest\] Finished in \d+(\.\d)? s: 0 trades, net profit 0\.00$/),
    ]);
    expect(twin.lines).toEqual(mine.lines);
    expect(run.logs).toEqual(['line 0', 'line 1', 'line 2']);
    expect(bobs.lines).toEqual([LOG_SOCKET_GREETING]);
    expect(otherTab.lines).toEqual([LOG_SOCKET_GREETING]);

    // a failure sends the error's lines, then the end line
    await backtest('def main(d):\n    raise RuntimeError("boom")', { client_id: 'tab-7' });
    await waitFor(() => mine.lines.at(-1)?.startsWith('[backtest] Failed after') === true);
    expect(mine.lines).toContain('RuntimeError: boom');

    for (const s of [mine, twin, bobs, otherTab]) s.ws.close();
    await waitFor(() => t.app.services.backtest.logs.count(alice.user.user.id, 'tab-7') === 0);
  });

  it('a plain GET is an unknown route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ws/abc' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 40400, msg: 'Route GET /ws/abc not found', data: null });
  });
});

describe('sandbox status and unavailability', () => {
  it('reports the walls and limits', async () => {
    const res = await asAlice('GET', '/api/backtest/status');
    expect(res.json()).toMatchObject({
      state: 'ready',
      mode: 'bwrap',
      reason: null,
      running: 0,
      limits: { timeout_ms: 5000, memory_bytes: 512 * 1024 * 1024, max_log_bytes: 1024 * 1024 },
    });
  });

  it('refuses strategy runs when the sandbox cannot work', async () => {
    const other = await createTestApp({
      config: { sandbox: testSandbox({ bwrap: '/nonexistent/bwrap', uidBase: UID_BASE }) },
    });
    try {
      const user = await login(other.app, await buildUser(other.db));
      const res = await caller(other.app, user.cookie)('POST', '/api/backtest/code', {
        code: 'def main(d):\n    return []',
        historical_data: BARS.slice(0, 3),
      });
      expect(res.json()).toMatchObject({
        run_id: null,
        error:
          'Strategy sandbox unavailable: bubblewrap (/nonexistent/bwrap) is not installed (run scripts/ensure-sandbox.sh)',
        error_kind: 'unavailable',
      });
      const status = await caller(other.app, user.cookie)('GET', '/api/backtest/status');
      expect(status.json()).toMatchObject({ state: 'unavailable', mode: null });
    } finally {
      await other.close();
    }
  });

  it('ALLOW_UNSANDBOXED_PYTHON runs without the walls (development only)', async () => {
    const other = await createTestApp({
      config: {
        sandbox: testSandbox({
          bwrap: '/nonexistent/bwrap',
          uidBase: UID_BASE,
          allowUnsandboxed: true,
        }),
      },
    });
    try {
      const user = await login(other.app, await buildUser(other.db));
      const res = await caller(other.app, user.cookie)('POST', '/api/backtest/code', {
        code: 'import os\ndef main(d):\n    print(os.path.exists("/etc/passwd"))\n    return []',
        historical_data: BARS.slice(0, 3),
      });
      expect(res.json()).toMatchObject({ error: null, logs: ['True'] });
      expect(other.app.services.backtest.sandbox.status()).toMatchObject({ state: 'unsandboxed' });
    } finally {
      await other.close();
    }
  });
});
