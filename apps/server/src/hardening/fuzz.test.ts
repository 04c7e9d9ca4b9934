import {
  alertLogQuerySchema,
  createAlertBodySchema,
  updateAlertBodySchema,
  backtestCodeRequestSchema,
  backtestRunRequestSchema,
  chartIndicatorsBodySchema,
  chatRequestSchema,
  closeRequestSchema,
  createAiTaskRequestSchema,
  createDrawingBodySchema,
  createStrategyFromAiRequestSchema,
  csvImportRequestSchema,
  drawingsQuerySchema,
  klineQuerySchema,
  liveRunComparisonQuerySchema,
  liveRunEvaluationsQuerySchema,
  startLiveRunRequestSchema,
  startReplayRequestSchema,
  replayOrderRequestSchema,
  replayStepRequestSchema,
  optimizationBacktestRequestSchema,
  optimizationQuerySchema,
  optimizationRequestSchema,
  loginRequestSchema,
  openOrderRequestSchema,
  pendingDelRequestSchema,
  pendingModifyRequestSchema,
  pendingOrderRequestSchema,
  resultDealsQuerySchema,
  resultsQuerySchema,
  saveApiSettingsRequestSchema,
  saveResultRequestSchema,
  saveStrategyRequestSchema,
  symbolCacheRequestSchema,
  testQuoteRequestSchema,
  tpslRequestSchema,
  tradingAccountSchema,
  tradingPageQuerySchema,
  aiConversationQuerySchema,
  aiTaskListQuerySchema,
  updateDrawingBodySchema,
  markNotificationsReadSchema,
  notificationsQuerySchema,
} from '@ct/domain';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildUser, loginAs, type BuiltUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { arbitraryOf, hostileString, hostileValue, type Overrides } from './arbitraries.ts';
import {
  changedTables,
  encodeAny,
  queryString,
  servedRoutes,
  stateDigest,
  writeMark,
} from './support.ts';

/*
 * Property-based fuzzing of every HTTP route (issue 18): requests generated from the
 * domain's zod schemas, mostly well-formed and realistic (the user's own account, ids and
 * symbols) with hostile values anywhere (NUL, lone surrogates, bidi overrides, 1e20,
 * '0b1', wrong types). Whatever arrives, the server never answers 5xx, a refusal (4xx)
 * changes nothing stored, and it keeps the answer shape of its family.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

let t: TestApp;
let alice: BuiltUser;
let bob: BuiltUser;
let cookie: string;
let own: { uuid: string; token: string };
let theirs: { uuid: string; token: string };
const ids = { orderId: '1', pId: '1', drawingId: '1', taskId: '1', runId: '', resultId: '1' };

type Generated = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** Send this cookie instead of the session's (undefined: the session's). */
  cookie?: string | null;
};

type RouteCase = { route: string; request: fc.Arbitrary<Generated> };

const pathValue = (...valid: (() => string)[]) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...valid).map((get) => get()) },
    { weight: 3, arbitrary: hostileString },
  );

beforeAll(async () => {
  t = await createTestApp({ config: { marketTestControl: true } });
  alice = await buildUser(t.db, { accounts: 1 });
  bob = await buildUser(t.db, { accounts: 1 });
  const a = await loginAs(t.app, alice);
  const b = await loginAs(t.app, bob);
  cookie = a.cookie;
  const pick = (user: typeof a.user) => {
    const trader = user.traders[0];
    if (!trader) throw new Error('no trader');
    return { uuid: trader.uuid, token: trader.token };
  };
  own = pick(a.user);
  theirs = pick(b.user);
  const call = (method: Generated['method'], url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      cookies: { ct_sid: cookie },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const opened = await call('POST', '/trading/order/open', {
    ...own,
    symbol: 'BTCUSDT',
    cmd: 1,
    volume: 1,
  });
  ids.orderId = String(
    opened.json<{ data: { order: { orderId: string } } }>().data?.order?.orderId ?? '1',
  );
  await call('POST', '/api/strategies/', {
    name: 'Fuzz',
    code: 'def main(d):\n  return []\n',
    create: true,
  });
  const drawing = await call('POST', '/api/charts/drawings', {
    symbol: 'BTCUSDT',
    kind: 'horizontal',
    price: 100,
  });
  ids.drawingId = String(drawing.json<{ id?: number }>().id ?? 1);
});
afterAll(() => t?.close());

const accountOverrides = (): Overrides => ({
  uuid: fc.constantFrom(own.uuid, own.uuid, own.uuid, theirs.uuid),
  token: fc.constantFrom(own.token, own.token, own.token, theirs.token),
  symbol: fc.constantFrom('BTCUSDT', 'EURUSD', 'XAUUSD'),
  symbol_id: fc.constantFrom('BTCUSDT', 'EURUSD'),
  orderId: fc.constantFrom(ids.orderId, '1', '999999'),
  pId: fc.constantFrom(ids.pId, '1'),
  cmd: fc.constantFrom(1, 2, '1'),
  volume: fc.constantFrom(1, '1', 0.5, '0b1', '+1', '1e0', ' 1 '),
  pendPrice: fc.constantFrom(30000, '30000', 60000),
  strategy_name: fc.constantFrom('Fuzz', 'Other'),
  name: fc.constantFrom('Fuzz', 'Fuzz 2', 'Default'),
  lastSortId: fc.constantFrom(
    -1,
    '-1',
    1e20,
    '1e20',
    2 ** 63,
    '9223372036854775808',
    '18446744073709551616',
  ),
  period: fc.constantFrom('1d', 'day', 'oneDay', '1m'),
  cycel: fc.constantFrom('1d', 'oneDay', '1m'),
});

function bodyCase(
  route: string,
  method: Generated['method'],
  url: string,
  schema: z.ZodType,
  extra: Overrides = {},
): RouteCase {
  const body = fc.oneof(
    { weight: 6, arbitrary: arbitraryOf(schema, { ...accountOverrides(), ...extra }) },
    { weight: 1, arbitrary: hostileValue },
  );
  return { route, request: body.map((b) => ({ method, url, body: b ?? {} })) };
}

function queryCase(
  route: string,
  url: string,
  schema: z.ZodType | null,
  extra: Overrides = {},
): RouteCase {
  const query = schema
    ? fc.oneof(
        { weight: 6, arbitrary: arbitraryOf(schema, { ...accountOverrides(), ...extra }) },
        { weight: 1, arbitrary: hostileValue },
      )
    : fc.oneof(fc.constant(undefined), hostileValue);
  return {
    route,
    request: query.map((q) => ({ method: 'GET' as const, url: url + queryString(q) })),
  };
}

function pathCase(
  route: string,
  method: Generated['method'],
  build: fc.Arbitrary<string>,
  body?: z.ZodType,
  query?: z.ZodType,
): RouteCase {
  const bodyArb = body ? arbitraryOf(body, accountOverrides()) : fc.constant(undefined);
  const queryArb = query ? arbitraryOf(query, accountOverrides()) : fc.constant(undefined);
  return {
    route,
    request: fc.tuple(build, bodyArb, queryArb).map(([url, b, q]) => ({
      method,
      url: url + queryString(q),
      ...(body ? { body: b ?? {} } : {}),
    })),
  };
}

const seg = (arb: fc.Arbitrary<string>) => arb.map(encodeAny);

/** One generator per route the app serves (the first test checks none is missing). */
function catalogue(): RouteCase[] {
  const strategyName = seg(
    pathValue(
      () => 'Fuzz',
      () => 'Default',
      () => 'Fuzz%20x',
    ),
  );
  const positive = (get: () => string) =>
    seg(
      pathValue(
        get,
        () => '1',
        () => '0',
        () => '1e3',
      ),
    );
  return [
    bodyCase(
      'POST /user/api/v1/account/login',
      'POST',
      '/user/api/v1/account/login',
      loginRequestSchema,
      {
        user_name: fc.constantFrom(alice.email, bob.email, alice.email.toUpperCase()),
        password: fc.constantFrom(alice.password, 'wrong'),
      },
    ),
    {
      route: 'POST /user/api/v1/account/logout',
      // Never the fuzz's own session: a forged or missing cookie only.
      request: fc
        .oneof(hostileString, fc.constant(null))
        .map((c) => ({ method: 'POST' as const, url: '/user/api/v1/account/logout', cookie: c })),
    },
    queryCase('GET /user/api/v1/account/session', '/user/api/v1/account/session', null),
    queryCase(
      'GET /user/api/v1/account/trader',
      '/user/api/v1/account/trader',
      tradingAccountSchema,
    ),
    queryCase('GET /trading/order/position', '/trading/order/position', tradingAccountSchema),
    queryCase('GET /trading/order/pending', '/trading/order/pending', tradingAccountSchema),
    queryCase('GET /trading/order/settles', '/trading/order/settles', tradingPageQuerySchema),
    queryCase('GET /trading/order/logs', '/trading/order/logs', tradingPageQuerySchema),
    queryCase('GET /trading/account/summary', '/trading/account/summary', tradingAccountSchema),
    queryCase('GET /api/live/token', '/api/live/token', tradingAccountSchema),
    bodyCase('POST /trading/order/open', 'POST', '/trading/order/open', openOrderRequestSchema),
    bodyCase(
      'POST /trading/order/pending/add',
      'POST',
      '/trading/order/pending/add',
      pendingOrderRequestSchema,
    ),
    bodyCase('POST /trading/order/tpsl', 'POST', '/trading/order/tpsl', tpslRequestSchema),
    bodyCase('POST /trading/order/close', 'POST', '/trading/order/close', closeRequestSchema),
    bodyCase(
      'POST /trading/order/pending/del',
      'POST',
      '/trading/order/pending/del',
      pendingDelRequestSchema,
    ),
    bodyCase(
      'POST /trading/order/pending/modify',
      'POST',
      '/trading/order/pending/modify',
      pendingModifyRequestSchema,
    ),
    queryCase('GET /trading/symbol/list', '/trading/symbol/list', null),
    queryCase('GET /trading/symbol/groups', '/trading/symbol/groups', null),
    bodyCase(
      'POST /trading/symbol/cache',
      'POST',
      '/trading/symbol/cache',
      symbolCacheRequestSchema,
      {
        symbols: fc.constantFrom('BTCUSDT,EURUSD', 'BTCUSDT', 'BTC\u0000USDT', ',,,'),
      },
    ),
    queryCase('GET /trading/kline/lists', '/trading/kline/lists', klineQuerySchema),
    bodyCase('POST /api/backtest/code', 'POST', '/api/backtest/code', backtestCodeRequestSchema),
    bodyCase('POST /api/backtest/run', 'POST', '/api/backtest/run', backtestRunRequestSchema, {
      // A well-formed run would start a sandbox: keep the symbol hostile or unknown.
      symbol: fc.constantFrom('NOPE', 'BTC\u0000', '\ud800'),
    }),
    pathCase(
      'GET /api/backtest/runs/:runId',
      'GET',
      seg(pathValue(() => '00000000-0000-4000-8000-000000000000')).map(
        (id) => `/api/backtest/runs/${id}`,
      ),
    ),
    queryCase('GET /api/backtest/status', '/api/backtest/status', null),
    queryCase('GET /api/strategy/template', '/api/strategy/template', null),
    queryCase('GET /api/strategies', '/api/strategies', null),
    queryCase('GET /api/strategies/', '/api/strategies/', null),
    bodyCase('POST /api/strategies', 'POST', '/api/strategies', saveStrategyRequestSchema),
    bodyCase('POST /api/strategies/', 'POST', '/api/strategies/', saveStrategyRequestSchema),
    pathCase(
      'DELETE /api/strategies/:name',
      'DELETE',
      strategyName.map((n) => `/api/strategies/${n}`),
    ),
    pathCase(
      'GET /api/strategies/:name/versions',
      'GET',
      strategyName.map((n) => `/api/strategies/${n}/versions`),
    ),
    pathCase(
      'GET /api/strategies/:name/versions/:id',
      'GET',
      fc
        .tuple(
          strategyName,
          positive(() => '1'),
        )
        .map(([n, id]) => `/api/strategies/${n}/versions/${id}`),
    ),
    bodyCase(
      'POST /api/strategy-results',
      'POST',
      '/api/strategy-results',
      saveResultRequestSchema,
    ),
    bodyCase(
      'POST /api/strategy-results/',
      'POST',
      '/api/strategy-results/',
      saveResultRequestSchema,
    ),
    pathCase(
      'GET /api/strategy-results/:strategy',
      'GET',
      strategyName.map((n) => `/api/strategy-results/${n}`),
      undefined,
      resultsQuerySchema,
    ),
    pathCase(
      'GET /api/strategy-results/:strategy/:id',
      'GET',
      fc
        .tuple(
          strategyName,
          positive(() => ids.resultId),
        )
        .map(([n, id]) => `/api/strategy-results/${n}/${id}`),
    ),
    pathCase(
      'DELETE /api/strategy-results/:strategy/:id',
      'DELETE',
      fc
        .tuple(
          strategyName,
          positive(() => '999999'),
        )
        .map(([n, id]) => `/api/strategy-results/${n}/${id}`),
    ),
    pathCase(
      'GET /api/strategy-results/:strategy/:id/deals',
      'GET',
      fc
        .tuple(
          strategyName,
          positive(() => ids.resultId),
        )
        .map(([n, id]) => `/api/strategy-results/${n}/${id}/deals`),
      undefined,
      resultDealsQuerySchema,
    ),
    queryCase('GET /api/settings', '/api/settings', null),
    bodyCase('POST /api/settings', 'POST', '/api/settings', saveApiSettingsRequestSchema),
    queryCase('GET /api/ai/providers', '/api/ai/providers', null),
    bodyCase('POST /api/ai/chat', 'POST', '/api/ai/chat', chatRequestSchema),
    bodyCase('POST /api/ai/strategy', 'POST', '/api/ai/strategy', createAiTaskRequestSchema),
    pathCase(
      'GET /api/ai/strategy/:id',
      'GET',
      positive(() => ids.taskId).map((id) => `/api/ai/strategy/${id}`),
    ),
    pathCase(
      'DELETE /api/ai/strategy/:id',
      'DELETE',
      positive(() => '999999').map((id) => `/api/ai/strategy/${id}`),
    ),
    pathCase(
      'GET /api/ai/strategy/:id/conversations',
      'GET',
      positive(() => ids.taskId).map((id) => `/api/ai/strategy/${id}/conversations`),
      undefined,
      aiConversationQuerySchema,
    ),
    queryCase('GET /api/ai/strategies', '/api/ai/strategies', aiTaskListQuerySchema),
    bodyCase(
      'POST /api/ai/strategies/from-ai',
      'POST',
      '/api/ai/strategies/from-ai',
      createStrategyFromAiRequestSchema,
    ),
    queryCase('GET /api/health', '/api/health', null),
    queryCase('GET /healthz', '/healthz', null),
    queryCase('GET /readyz', '/readyz', null),
    queryCase('GET /metrics', '/metrics', null),
    bodyCase(
      'POST /api/test/market/quote',
      'POST',
      '/api/test/market/quote',
      testQuoteRequestSchema,
    ),
    pathCase(
      'DELETE /api/test/market/quote/:symbol',
      'DELETE',
      seg(pathValue(() => 'NOPE')).map((s) => `/api/test/market/quote/${s}`),
    ),
    bodyCase('POST /api/market/imports', 'POST', '/api/market/imports', csvImportRequestSchema, {
      csv: fc.constantFrom('', 'Time,Open,High,Low,Close\n', 'a\u0000b', '\ud800'),
    }),
    queryCase('GET /api/market/imports', '/api/market/imports', null),
    pathCase(
      'DELETE /api/market/imports/:symbol',
      'DELETE',
      seg(pathValue(() => 'NOPE')).map((s) => `/api/market/imports/${s}`),
    ),
    queryCase('GET /api/charts/drawings', '/api/charts/drawings', drawingsQuerySchema),
    queryCase('GET /api/charts/live-token', '/api/charts/live-token', null),
    // alerts (modules/alerts): webhook URLs are addresses only, so nothing is looked up in DNS
    bodyCase('POST /api/alerts', 'POST', '/api/alerts', createAlertBodySchema, {
      webhook_url: fc.constantFrom('http://10.0.0.1/h', 'ftp://1.2.3.4/', 'http://[::1]/', null),
    }),
    queryCase('GET /api/alerts', '/api/alerts', null),
    queryCase('GET /api/alerts/log', '/api/alerts/log', alertLogQuerySchema),
    queryCase('GET /api/alerts/live-token', '/api/alerts/live-token', null),
    bodyCase('POST /api/alerts/webhook-secret', 'POST', '/api/alerts/webhook-secret', z.object({})),
    pathCase(
      'PATCH /api/alerts/:id',
      'PATCH',
      positive(() => '999999').map((id) => `/api/alerts/${id}`),
      updateAlertBodySchema,
    ),
    pathCase(
      'DELETE /api/alerts/:id',
      'DELETE',
      positive(() => '999999').map((id) => `/api/alerts/${id}`),
    ),
    bodyCase('POST /api/charts/drawings', 'POST', '/api/charts/drawings', createDrawingBodySchema),
    pathCase(
      'PUT /api/charts/drawings/:id',
      'PUT',
      positive(() => ids.drawingId).map((id) => `/api/charts/drawings/${id}`),
      updateDrawingBodySchema,
    ),
    pathCase(
      'DELETE /api/charts/drawings/:id',
      'DELETE',
      positive(() => '999999').map((id) => `/api/charts/drawings/${id}`),
    ),
    pathCase(
      'GET /api/charts/indicators/:chartKey',
      'GET',
      seg(pathValue(() => 'main')).map((k) => `/api/charts/indicators/${k}`),
    ),
    pathCase(
      'PUT /api/charts/indicators/:chartKey',
      'PUT',
      seg(pathValue(() => 'main')).map((k) => `/api/charts/indicators/${k}`),
      chartIndicatorsBodySchema,
    ),
    pathCase(
      'GET /ws/:clientId',
      'GET',
      seg(pathValue(() => 'c1')).map((c) => `/ws/${c}`),
    ),
    queryCase('GET /connection/websocket', '/connection/websocket', null),
    // forward tests on paper (modules/live-runs)
    bodyCase('POST /api/live-runs', 'POST', '/api/live-runs', startLiveRunRequestSchema, {
      strategy_name: fc.constantFrom('Fuzz', 'Default', 'Other'),
    }),
    queryCase('GET /api/live-runs', '/api/live-runs', null),
    ...(
      [
        ['POST', 'stop', undefined],
        ['GET', 'evaluations', liveRunEvaluationsQuerySchema],
        ['GET', 'comparison', liveRunComparisonQuerySchema],
      ] as const
    ).map(([method, tail, query]) =>
      pathCase(
        `${method} /api/live-runs/:id/${tail}`,
        method,
        seg(pathValue(() => '00000000-0000-4000-8000-000000000000')).map(
          (id) => `/api/live-runs/${id}/${tail}`,
        ),
        undefined,
        query,
      ),
    ),
    // bar replay sessions (modules/replays)
    bodyCase('POST /api/replays', 'POST', '/api/replays', startReplayRequestSchema, {
      strategy_name: fc.constantFrom(undefined, null, 'Fuzz', 'Default'),
    }),
    queryCase('GET /api/replays', '/api/replays', null),
    ...(
      [
        ['GET', '', undefined],
        ['POST', '/step', replayStepRequestSchema],
        ['POST', '/orders', replayOrderRequestSchema],
        ['DELETE', '', undefined],
      ] as const
    ).map(([method, tail, body]) =>
      pathCase(
        `${method} /api/replays/:id${tail}`,
        method,
        seg(pathValue(() => '00000000-0000-4000-8000-000000000000')).map(
          (id) => `/api/replays/${id}${tail}`,
        ),
        body,
      ),
    ),
    // parameter optimisation (modules/optimization)
    bodyCase('POST /api/optimizations', 'POST', '/api/optimizations', optimizationRequestSchema, {
      strategy_name: fc.constantFrom('Fuzz', 'Default'),
    }),
    queryCase('GET /api/optimizations', '/api/optimizations', null),
    ...(
      [
        ['GET', '', optimizationQuerySchema],
        ['POST', '/cancel', undefined],
        ['DELETE', '', undefined],
      ] as const
    ).map(([method, tail, query]) =>
      pathCase(
        `${method} /api/optimizations/:id${tail}`,
        method,
        seg(pathValue(() => '00000000-0000-4000-8000-000000000000')).map(
          (id) => `/api/optimizations/${id}${tail}`,
        ),
        undefined,
        query,
      ),
    ),
    pathCase(
      'POST /api/optimizations/:id/backtest',
      'POST',
      seg(pathValue(() => '00000000-0000-4000-8000-000000000000')).map(
        (id) => `/api/optimizations/${id}/backtest`,
      ),
      optimizationBacktestRequestSchema,
    ),
    // the user's notifications (modules/notifications)
    queryCase('GET /api/notifications', '/api/notifications', notificationsQuerySchema),
    bodyCase(
      'POST /api/notifications/read',
      'POST',
      '/api/notifications/read',
      markNotificationsReadSchema,
    ),
    queryCase('GET /api/notifications/live-token', '/api/notifications/live-token', null),
    // the API reference (http/openapi.ts): a static page, its files and the document
    ...['', '/', '/json', '/yaml', '/static/index.html', '/static/swagger-initializer.js'].map(
      (tail) => queryCase(`GET /api/docs${tail}`, `/api/docs${tail}`, null),
    ),
    pathCase(
      'GET /api/docs/*',
      'GET',
      seg(
        pathValue(
          () => 'swagger-ui.css',
          () => 'index.css',
        ),
      ).map((f) => `/api/docs/static/${f}`),
    ),
  ];
}

/** A 4xx, or a login the credentials did not pass (HTTP 200 with `status` ≠ 0, per the spec). */
function isRefusal(res: LightMyRequestResponse): boolean {
  if (res.statusCode >= 400) return true;
  try {
    const status = res.json<{ status?: unknown }>().status;
    return typeof status === 'number' && status !== 0;
  } catch {
    return false;
  }
}

/** What a refused order leaves by design: its rejected order log row (spec: status 1). */
const REJECTION_RECORD = new Set(['order_logs', 'order_events', 'idempotency_keys']);

/**
 * A trading mutation the venue refused for a business reason (422: market closed, margin,
 * quantity rule) records the rejection in the account's order log; an input refusal
 * (400, 401, 404) records nothing.
 */
function isRecordedRejection(route: string, res: LightMyRequestResponse, changed: string[]) {
  return (
    route.startsWith('POST /trading/order/') &&
    res.statusCode === 422 &&
    changed.every((table) => REJECTION_RECORD.has(table))
  );
}

/** A refusal in the family's shape: JSON with a message (`msg`, or `detail` on /api). */
function refusalShapeOk(res: LightMyRequestResponse): boolean {
  try {
    const body = res.json<Record<string, unknown>>();
    return typeof body.msg === 'string' || typeof body.detail === 'string';
  } catch {
    return false;
  }
}

describe('fuzzing every HTTP route from the domain schemas', () => {
  it('the fuzz catalogue covers every route the app serves', () => {
    const covered = catalogue().map((c) => c.route);
    expect(servedRoutes(t.app).filter((route) => !covered.includes(route))).toEqual([]);
  });

  it(`${RUNS} generated requests: never a 5xx, refusals change nothing and say why`, async () => {
    const cases = catalogue();
    const failures = new Map<string, string>();
    const statuses = new Map<number, number>();
    let digest = await stateDigest(t.db);
    let mark = await writeMark(t.db);
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    const request = fc
      .integer({ min: 0, max: cases.length - 1 })
      .chain((i) =>
        (cases[i] as RouteCase).request.map((r) => ({ route: (cases[i] as RouteCase).route, r })),
      );
    await fc.assert(
      fc.asyncProperty(request, async ({ route, r }) => {
        const sessionCookie = r.cookie === undefined ? cookie : r.cookie;
        const res = await t.app.inject({
          method: r.method,
          url: r.url,
          headers: {
            ...(sessionCookie === null ? {} : { cookie: `ct_sid=${encodeAny(sessionCookie)}` }),
            ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(r.body === undefined ? {} : { payload: JSON.stringify(r.body) }),
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const show = () =>
          `${r.method} ${r.url} ${JSON.stringify(r.body)?.slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        // /readyz's 503 is its answer (the test app's sandbox is never checked), not a failure
        const probe = route === 'GET /readyz' && res.statusCode === 503;
        if (res.statusCode >= 500 && !probe) failures.set(`${route} 5xx`, show());
        if (isRefusal(res) && !route.includes('/connection/websocket') && !refusalShapeOk(res)) {
          failures.set(`${route} shape`, show());
        }
        if (!isRefusal(res)) {
          await t.app.services.trading.engine.whenIdle();
          await t.app.services.backtest.service.flush();
        }
        // Only when something wrote (the transaction id moved) are the tables compared.
        const markAfter = await writeMark(t.db);
        if (markAfter !== mark) {
          const after = await stateDigest(t.db);
          const changed = changedTables(digest, after);
          if (isRefusal(res) && changed.length > 0 && !isRecordedRejection(route, res, changed)) {
            failures.set(`${route} changed ${changed.join(',')}`, show());
          }
          digest = after;
          mark = await writeMark(t.db);
        }
        return true;
      }),
      { numRuns: RUNS, seed },
    );
    expect(
      Object.fromEntries(failures),
      `seed ${seed}; statuses ${JSON.stringify([...statuses])}`,
    ).toEqual({});
  }, 300_000);
});
