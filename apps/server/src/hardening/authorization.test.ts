import { CODE_AUTH_FAILED } from '@ct/domain';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiTasks } from '../db/schema.ts';
import { recordNotification } from '../modules/notifications/service.ts';
import { buildUser, loginAs, type BuiltUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { servedRoutes, userDigest } from './support.ts';

/*
 * The authorization matrix (issue 18): every call of the API × who calls it — the owner,
 * another user reaching for the owner's account and ids, forged user headers, no cookie,
 * an expired session, a logged-out session. Anyone but the owner gets 401 with code 50002
 * (the session or account is not theirs) or 404 (an id that is not theirs does not exist
 * for them), and the owner's data never changes.
 */

type Creds = { uuid: string; token: string };
type Ids = {
  orderId: string;
  pId: string;
  strategy: string;
  resultId: string;
  drawingId: string;
  taskId: string;
  chartKey: string;
  liveRunId: string;
  optimizationId: string;
  notificationId: string;
  alertId: string;
  replayId: string;
};
type Caller = { cookie: string | null; headers: Record<string, string>; creds: Creds; ids: Ids };
type Call = {
  route: string;
  /** Public calls (market data, login, health) need no session. */
  open?: boolean;
  send: (c: Caller) => {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    body?: unknown;
  };
};

let t: TestApp;
let bob: BuiltUser;
let bobCaller: Caller;
let aliceCaller: Caller;
let bobUuids: string[];

const q = (creds: Creds, extra = '') =>
  `uuid=${encodeURIComponent(creds.uuid)}&token=${encodeURIComponent(creds.token)}${extra}`;

const CALLS: Call[] = [
  {
    route: 'GET /user/api/v1/account/session',
    send: () => ({ method: 'GET', url: '/user/api/v1/account/session' }),
  },
  {
    route: 'GET /user/api/v1/account/trader',
    send: (c) => ({ method: 'GET', url: `/user/api/v1/account/trader?${q(c.creds)}` }),
  },
  {
    route: 'POST /user/api/v1/account/logout',
    send: () => ({ method: 'POST', url: '/user/api/v1/account/logout' }),
  },
  {
    route: 'GET /trading/order/position',
    send: (c) => ({ method: 'GET', url: `/trading/order/position?${q(c.creds)}` }),
  },
  {
    route: 'GET /trading/order/pending',
    send: (c) => ({ method: 'GET', url: `/trading/order/pending?${q(c.creds)}` }),
  },
  {
    route: 'GET /trading/order/settles',
    send: (c) => ({ method: 'GET', url: `/trading/order/settles?${q(c.creds, '&lastSortId=-1')}` }),
  },
  {
    route: 'GET /trading/order/logs',
    send: (c) => ({ method: 'GET', url: `/trading/order/logs?${q(c.creds)}` }),
  },
  {
    route: 'GET /trading/account/summary',
    send: (c) => ({ method: 'GET', url: `/trading/account/summary?${q(c.creds)}` }),
  },
  {
    route: 'GET /api/live/token',
    send: (c) => ({ method: 'GET', url: `/api/live/token?${q(c.creds)}` }),
  },
  {
    route: 'POST /trading/order/open',
    send: (c) => ({
      method: 'POST',
      url: '/trading/order/open',
      body: { ...c.creds, symbol: 'BTCUSDT', cmd: 1, volume: 1 },
    }),
  },
  {
    route: 'POST /trading/order/pending/add',
    send: (c) => ({
      method: 'POST',
      url: '/trading/order/pending/add',
      body: { ...c.creds, symbol: 'BTCUSDT', cmd: 1, volume: 1, pendPrice: 1, expireType: 'GTC' },
    }),
  },
  {
    route: 'POST /trading/order/tpsl',
    send: (c) => ({
      method: 'POST',
      url: '/trading/order/tpsl',
      body: { ...c.creds, orderId: c.ids.orderId },
    }),
  },
  {
    route: 'POST /trading/order/close',
    send: (c) => ({
      method: 'POST',
      url: '/trading/order/close',
      body: { ...c.creds, orderId: c.ids.orderId, volume: 1 },
    }),
  },
  {
    route: 'POST /trading/order/pending/del',
    send: (c) => ({
      method: 'POST',
      url: '/trading/order/pending/del',
      body: { ...c.creds, pId: c.ids.pId },
    }),
  },
  {
    route: 'POST /trading/order/pending/modify',
    send: (c) => ({
      method: 'POST',
      url: '/trading/order/pending/modify',
      body: { ...c.creds, pId: c.ids.pId, pendPrice: 1 },
    }),
  },
  {
    route: 'GET /api/backtest/runs/:runId',
    send: () => ({ method: 'GET', url: '/api/backtest/runs/00000000-0000-4000-8000-000000000000' }),
  },
  {
    route: 'GET /api/backtest/status',
    send: () => ({ method: 'GET', url: '/api/backtest/status' }),
  },
  {
    route: 'POST /api/backtest/code',
    send: () => ({
      method: 'POST',
      url: '/api/backtest/code',
      body: { code: '', historical_data: [] },
    }),
  },
  {
    route: 'POST /api/backtest/run',
    send: () => ({
      method: 'POST',
      url: '/api/backtest/run',
      body: { code: '', symbol: '', period: '' },
    }),
  },
  {
    route: 'GET /api/strategy/template',
    send: () => ({ method: 'GET', url: '/api/strategy/template' }),
  },
  { route: 'GET /api/strategies', send: () => ({ method: 'GET', url: '/api/strategies' }) },
  { route: 'GET /api/strategies/', send: () => ({ method: 'GET', url: '/api/strategies/' }) },
  {
    route: 'POST /api/strategies',
    send: (c) => ({
      method: 'POST',
      url: '/api/strategies',
      body: { name: c.ids.strategy, code: '# mine now' },
    }),
  },
  {
    route: 'POST /api/strategies/',
    send: (c) => ({
      method: 'POST',
      url: '/api/strategies/',
      body: { name: c.ids.strategy, code: '# mine now' },
    }),
  },
  {
    route: 'DELETE /api/strategies/:name',
    send: (c) => ({
      method: 'DELETE',
      url: `/api/strategies/${encodeURIComponent(c.ids.strategy)}`,
    }),
  },
  {
    route: 'GET /api/strategies/:name/versions',
    send: (c) => ({
      method: 'GET',
      url: `/api/strategies/${encodeURIComponent(c.ids.strategy)}/versions`,
    }),
  },
  {
    route: 'GET /api/strategies/:name/versions/:id',
    send: (c) => ({
      method: 'GET',
      url: `/api/strategies/${encodeURIComponent(c.ids.strategy)}/versions/1`,
    }),
  },
  {
    route: 'POST /api/strategy-results',
    send: (c) => ({
      method: 'POST',
      url: '/api/strategy-results',
      body: { strategy_name: c.ids.strategy, symbol_id: 'BTCUSDT', deals: [], performance: {} },
    }),
  },
  {
    route: 'POST /api/strategy-results/',
    send: (c) => ({
      method: 'POST',
      url: '/api/strategy-results/',
      body: { strategy_name: c.ids.strategy, symbol_id: 'BTCUSDT', deals: [], performance: {} },
    }),
  },
  {
    route: 'GET /api/strategy-results/:strategy',
    send: (c) => ({
      method: 'GET',
      url: `/api/strategy-results/${encodeURIComponent(c.ids.strategy)}`,
    }),
  },
  {
    route: 'GET /api/strategy-results/:strategy/:id',
    send: (c) => ({
      method: 'GET',
      url: `/api/strategy-results/${encodeURIComponent(c.ids.strategy)}/${c.ids.resultId}`,
    }),
  },
  {
    route: 'DELETE /api/strategy-results/:strategy/:id',
    send: (c) => ({
      method: 'DELETE',
      url: `/api/strategy-results/${encodeURIComponent(c.ids.strategy)}/${c.ids.resultId}`,
    }),
  },
  {
    route: 'GET /api/strategy-results/:strategy/:id/deals',
    send: (c) => ({
      method: 'GET',
      url: `/api/strategy-results/${encodeURIComponent(c.ids.strategy)}/${c.ids.resultId}/deals`,
    }),
  },
  { route: 'GET /api/settings', send: () => ({ method: 'GET', url: '/api/settings' }) },
  {
    route: 'POST /api/settings',
    send: () => ({
      method: 'POST',
      url: '/api/settings',
      body: { apiKey: '', baseURL: 'x', model: 'm', provider: 'p' },
    }),
  },
  { route: 'GET /api/ai/providers', send: () => ({ method: 'GET', url: '/api/ai/providers' }) },
  {
    route: 'POST /api/ai/chat',
    send: () => ({
      method: 'POST',
      url: '/api/ai/chat',
      body: { messages: [{ role: 'user', content: 'hi' }] },
    }),
  },
  {
    route: 'POST /api/ai/strategy',
    send: () => ({ method: 'POST', url: '/api/ai/strategy', body: {} }),
  },
  {
    route: 'GET /api/ai/strategy/:id',
    send: (c) => ({ method: 'GET', url: `/api/ai/strategy/${c.ids.taskId}` }),
  },
  {
    route: 'DELETE /api/ai/strategy/:id',
    send: (c) => ({ method: 'DELETE', url: `/api/ai/strategy/${c.ids.taskId}` }),
  },
  {
    route: 'GET /api/ai/strategy/:id/conversations',
    send: (c) => ({ method: 'GET', url: `/api/ai/strategy/${c.ids.taskId}/conversations` }),
  },
  { route: 'GET /api/ai/strategies', send: () => ({ method: 'GET', url: '/api/ai/strategies' }) },
  {
    route: 'POST /api/ai/strategies/from-ai',
    send: (c) => ({
      method: 'POST',
      url: '/api/ai/strategies/from-ai',
      body: { name: 'Taken', task_id: Number(c.ids.taskId) },
    }),
  },
  {
    route: 'POST /api/market/imports',
    send: () => ({ method: 'POST', url: '/api/market/imports', body: { name: 'X', csv: 'x' } }),
  },
  { route: 'GET /api/market/imports', send: () => ({ method: 'GET', url: '/api/market/imports' }) },
  {
    route: 'DELETE /api/market/imports/:symbol',
    send: () => ({ method: 'DELETE', url: '/api/market/imports/BOBCSV' }),
  },
  {
    route: 'GET /api/charts/drawings',
    send: () => ({ method: 'GET', url: '/api/charts/drawings?symbol=BTCUSDT' }),
  },
  {
    route: 'POST /api/charts/drawings',
    send: () => ({
      method: 'POST',
      url: '/api/charts/drawings',
      body: { symbol: 'BTCUSDT', kind: 'horizontal', price: 1 },
    }),
  },
  {
    route: 'PUT /api/charts/drawings/:id',
    send: (c) => ({
      method: 'PUT',
      url: `/api/charts/drawings/${c.ids.drawingId}`,
      body: { kind: 'horizontal', price: 2 },
    }),
  },
  {
    route: 'DELETE /api/charts/drawings/:id',
    send: (c) => ({ method: 'DELETE', url: `/api/charts/drawings/${c.ids.drawingId}` }),
  },
  {
    route: 'GET /api/charts/live-token',
    send: () => ({ method: 'GET', url: '/api/charts/live-token' }),
  },
  {
    route: 'POST /api/alerts',
    send: () => ({
      method: 'POST',
      url: '/api/alerts',
      body: { symbol_id: 'BTCUSDT', kind: 'price', condition: 'crossing', level: 1 },
    }),
  },
  { route: 'GET /api/alerts', send: () => ({ method: 'GET', url: '/api/alerts' }) },
  { route: 'GET /api/alerts/log', send: () => ({ method: 'GET', url: '/api/alerts/log' }) },
  {
    route: 'GET /api/alerts/live-token',
    send: () => ({ method: 'GET', url: '/api/alerts/live-token' }),
  },
  {
    route: 'POST /api/alerts/webhook-secret',
    send: () => ({ method: 'POST', url: '/api/alerts/webhook-secret' }),
  },
  {
    route: 'PATCH /api/alerts/:id',
    send: (c) => ({ method: 'PATCH', url: `/api/alerts/${c.ids.alertId}`, body: { level: 2 } }),
  },
  {
    route: 'DELETE /api/alerts/:id',
    send: (c) => ({ method: 'DELETE', url: `/api/alerts/${c.ids.alertId}` }),
  },
  {
    route: 'GET /api/charts/indicators/:chartKey',
    send: (c) => ({ method: 'GET', url: `/api/charts/indicators/${c.ids.chartKey}` }),
  },
  {
    route: 'PUT /api/charts/indicators/:chartKey',
    send: (c) => ({
      method: 'PUT',
      url: `/api/charts/indicators/${c.ids.chartKey}`,
      body: { indicators: [] },
    }),
  },
  // Forward tests on paper (modules/live-runs).
  {
    route: 'POST /api/live-runs',
    send: (c) => ({
      method: 'POST',
      url: '/api/live-runs',
      body: { strategy_name: 'Bob strategy', ...c.creds, symbol_id: 'BTCUSDT', period: '1m' },
    }),
  },
  { route: 'GET /api/live-runs', send: () => ({ method: 'GET', url: '/api/live-runs' }) },
  {
    route: 'POST /api/live-runs/:id/stop',
    send: (c) => ({ method: 'POST', url: `/api/live-runs/${c.ids.liveRunId}/stop` }),
  },
  {
    route: 'GET /api/live-runs/:id/evaluations',
    send: (c) => ({ method: 'GET', url: `/api/live-runs/${c.ids.liveRunId}/evaluations` }),
  },
  {
    route: 'GET /api/live-runs/:id/comparison',
    send: (c) => ({ method: 'GET', url: `/api/live-runs/${c.ids.liveRunId}/comparison` }),
  },
  // Bar replay sessions (modules/replays).
  {
    route: 'POST /api/replays',
    send: () => ({
      method: 'POST',
      url: '/api/replays',
      body: { symbol_id: 'BTCUSDT', period: '1h', start: replayStart() },
    }),
  },
  { route: 'GET /api/replays', send: () => ({ method: 'GET', url: '/api/replays' }) },
  {
    route: 'GET /api/replays/:id',
    send: (c) => ({ method: 'GET', url: `/api/replays/${c.ids.replayId}` }),
  },
  {
    route: 'POST /api/replays/:id/step',
    send: (c) => ({
      method: 'POST',
      url: `/api/replays/${c.ids.replayId}/step`,
      body: { bars: 1 },
    }),
  },
  {
    route: 'POST /api/replays/:id/orders',
    send: (c) => ({
      method: 'POST',
      url: `/api/replays/${c.ids.replayId}/orders`,
      body: { type: 'market', cmd: 1, volume: 1 },
    }),
  },
  {
    route: 'DELETE /api/replays/:id',
    send: (c) => ({ method: 'DELETE', url: `/api/replays/${c.ids.replayId}` }),
  },
  // Parameter optimisation (modules/optimization).
  {
    route: 'POST /api/optimizations',
    send: () => ({
      method: 'POST',
      url: '/api/optimizations',
      body: {
        strategy_name: 'Default',
        symbol_id: 'BTCUSDT',
        period: '1m',
        bars: 100,
        params: { fast: { values: [5] } },
        objective: 'net_profit',
        method: 'grid',
      },
    }),
  },
  { route: 'GET /api/optimizations', send: () => ({ method: 'GET', url: '/api/optimizations' }) },
  {
    route: 'GET /api/optimizations/:id',
    send: (c) => ({ method: 'GET', url: `/api/optimizations/${c.ids.optimizationId}` }),
  },
  {
    route: 'POST /api/optimizations/:id/cancel',
    send: (c) => ({ method: 'POST', url: `/api/optimizations/${c.ids.optimizationId}/cancel` }),
  },
  {
    route: 'DELETE /api/optimizations/:id',
    send: (c) => ({ method: 'DELETE', url: `/api/optimizations/${c.ids.optimizationId}` }),
  },
  {
    route: 'POST /api/optimizations/:id/backtest',
    send: (c) => ({
      method: 'POST',
      url: `/api/optimizations/${c.ids.optimizationId}/backtest`,
      body: { params: {} },
    }),
  },
  {
    route: 'GET /api/notifications',
    send: () => ({ method: 'GET', url: '/api/notifications' }),
  },
  {
    route: 'POST /api/notifications/read',
    send: (c) => ({
      method: 'POST',
      url: '/api/notifications/read',
      body: { ids: [c.ids.notificationId] },
    }),
  },
  {
    route: 'GET /api/notifications/live-token',
    send: () => ({ method: 'GET', url: '/api/notifications/live-token' }),
  },
  // Public: market data, login, health, the live sockets' plain GETs (404), the test quote.
  {
    route: 'POST /user/api/v1/account/login',
    open: true,
    send: () => ({
      method: 'POST',
      url: '/user/api/v1/account/login',
      body: {
        channel: 1,
        login_type: 2,
        user_name: 'nobody@example.com',
        password: 'x',
        device: 1,
      },
    }),
  },
  {
    route: 'GET /trading/symbol/list',
    open: true,
    send: () => ({ method: 'GET', url: '/trading/symbol/list' }),
  },
  {
    route: 'GET /trading/symbol/groups',
    open: true,
    send: () => ({ method: 'GET', url: '/trading/symbol/groups' }),
  },
  {
    route: 'POST /trading/symbol/cache',
    open: true,
    send: () => ({ method: 'POST', url: '/trading/symbol/cache', body: { symbols: 'BTCUSDT' } }),
  },
  {
    route: 'GET /trading/kline/lists',
    open: true,
    send: () => ({ method: 'GET', url: '/trading/kline/lists?symbol=BTCUSDT&cycel=1d' }),
  },
  { route: 'GET /api/health', open: true, send: () => ({ method: 'GET', url: '/api/health' }) },
  // operations (modules/health): no session; /metrics is loopback-only or token-guarded
  { route: 'GET /healthz', open: true, send: () => ({ method: 'GET', url: '/healthz' }) },
  { route: 'GET /readyz', open: true, send: () => ({ method: 'GET', url: '/readyz' }) },
  { route: 'GET /metrics', open: true, send: () => ({ method: 'GET', url: '/metrics' }) },
  { route: 'GET /ws/:clientId', open: true, send: () => ({ method: 'GET', url: '/ws/c1' }) },
  {
    route: 'GET /connection/websocket',
    open: true,
    send: () => ({ method: 'GET', url: '/connection/websocket' }),
  },
  // the API reference (http/openapi.ts): public, like the page that links to it
  ...['', '/', '/json', '/yaml', '/static/index.html', '/static/swagger-initializer.js'].map(
    (tail): Call => ({
      route: `GET /api/docs${tail}`,
      open: true,
      send: () => ({ method: 'GET', url: `/api/docs${tail}` }),
    }),
  ),
  {
    route: 'GET /api/docs/*',
    open: true,
    send: () => ({ method: 'GET', url: '/api/docs/static/swagger-ui.css' }),
  },
  {
    route: 'POST /api/test/market/quote',
    open: true,
    send: () => ({ method: 'POST', url: '/api/test/market/quote', body: {} }),
  },
  {
    route: 'DELETE /api/test/market/quote/:symbol',
    open: true,
    send: () => ({ method: 'DELETE', url: '/api/test/market/quote/NOPE' }),
  },
];

async function call(caller: Caller, c: Call): Promise<LightMyRequestResponse> {
  const r = c.send(caller);
  return t.app.inject({
    method: r.method,
    url: r.url,
    headers: caller.headers,
    ...(caller.cookie === null ? {} : { cookies: { ct_sid: caller.cookie } }),
    ...(r.body === undefined ? {} : { payload: r.body as object }),
  });
}

/** Open time of a closed hourly BTCUSDT bar ten hours back, epoch seconds (a replay's start). */
function replayStart(): number {
  const now = t.clock.now();
  const bars = t.app.services.market.bars('BTCUSDT', '1h', now - 3_600_000, 10, now);
  return Math.floor((bars[0]?.time ?? 0) / 1000);
}

function bobsData(): Promise<string> {
  return userDigest(t.db, bob.user.id, bobUuids);
}

const expectAuthFailed = (res: LightMyRequestResponse, label: string) => {
  expect(res.statusCode, `${label}: ${res.body}`).toBe(401);
  expect(res.json<{ code: number }>().code, label).toBe(CODE_AUTH_FAILED);
};

beforeAll(async () => {
  t = await createTestApp({ config: { marketTestControl: true } });
  bob = await buildUser(t.db, { accounts: 1 });
  const alice = await buildUser(t.db, { accounts: 1 });
  const b = await loginAs(t.app, bob);
  const a = await loginAs(t.app, alice);
  const credsOf = (user: typeof b.user): Creds => {
    const trader = user.traders[0];
    if (!trader) throw new Error('no trading account');
    return { uuid: trader.uuid, token: trader.token };
  };
  bobUuids = b.user.traders.map((trader) => trader.uuid);
  const bobCreds = credsOf(b.user);
  const as = (body: unknown, method: 'POST' | 'PUT', url: string) =>
    t.app.inject({ method, url, cookies: { ct_sid: b.cookie }, payload: body as object });

  // Bob's things: a position, a pending order, a strategy with a saved result, a drawing,
  // indicators, an AI task.
  await as({ symbol: 'BTCUSDT', bid: 50000, ask: 50001 }, 'POST', '/api/test/market/quote');
  const opened = await as(
    { ...bobCreds, symbol: 'BTCUSDT', cmd: 1, volume: 1 },
    'POST',
    '/trading/order/open',
  );
  const pending = await as(
    { ...bobCreds, symbol: 'BTCUSDT', cmd: 1, volume: 1, pendPrice: 45000, expireType: 'GTC' },
    'POST',
    '/trading/order/pending/add',
  );
  await as({ name: 'Bob strategy', code: '# bob', create: true }, 'POST', '/api/strategies/');
  const result = await as(
    { strategy_name: 'Bob strategy', symbol_id: 'BTCUSDT', deals: [], performance: {} },
    'POST',
    '/api/strategy-results/',
  );
  const drawing = await as(
    { symbol: 'BTCUSDT', kind: 'horizontal', price: 100 },
    'POST',
    '/api/charts/drawings',
  );
  await as({ indicators: [] }, 'PUT', '/api/charts/indicators/bobchart');
  const alert = await as(
    { symbol_id: 'BTCUSDT', kind: 'price', condition: 'crossing', level: 60000 },
    'POST',
    '/api/alerts',
  );
  const run = await as(
    { ...bobCreds, strategy_name: 'Bob strategy', symbol_id: 'BTCUSDT', period: '1m' },
    'POST',
    '/api/live-runs',
  );
  const optimization = await as(
    {
      strategy_name: 'Default',
      symbol_id: 'BTCUSDT',
      period: '1m',
      bars: 100,
      params: { fast: { values: [5] } },
      objective: 'net_profit',
      method: 'grid',
    },
    'POST',
    '/api/optimizations',
  );
  const replay = await as(
    { symbol_id: 'BTCUSDT', period: '1h', start: replayStart() },
    'POST',
    '/api/replays',
  );
  const [task] = await t.db
    .insert(aiTasks)
    .values({
      userId: bob.user.id,
      status: 'COMPLETED',
      taskType: 'strategy',
      prompt: 'bob',
      provider: 'openai',
      model: 'gpt-4o',
      baseUrl: 'https://api.openai.com/v1',
      symbolId: 'BTCUSDT',
      period: '1d',
      code: '# bob',
      maxRetries: 3,
      createdAt: 1,
      updatedAt: 1,
    })
    .returning();
  const note = await recordNotification(t.app.services.notifications.context, bob.user.id, {
    kind: 'margin_warning',
  });
  const ids: Ids = {
    orderId: opened.json<{ data: { order: { orderId: string } } }>().data.order.orderId,
    pId: pending.json<{ data: { pending: { pId: string } } }>().data.pending.pId,
    strategy: 'Bob strategy',
    resultId: String(result.json<{ id?: number }>().id ?? 1),
    drawingId: String(drawing.json<{ id: number }>().id),
    taskId: String(task?.id ?? 1),
    chartKey: 'bobchart',
    liveRunId: run.json<{ id: string }>().id,
    optimizationId: optimization.json<{ id: string }>().id,
    notificationId: note?.id ?? '0',
    alertId: String(alert.json<{ id: number }>().id),
    replayId: replay.json<{ id: string }>().id,
  };
  expect(ids.replayId, replay.body).toMatch(/^[0-9a-f-]{36}$/);
  expect(ids.alertId, alert.body).toMatch(/^\d+$/);
  expect(ids.optimizationId, optimization.body).toMatch(/^[0-9a-f-]{36}$/);
  expect(ids.orderId, opened.body).toMatch(/^\d+$/);
  expect(ids.pId, pending.body).toMatch(/^\d+$/);
  bobCaller = { cookie: b.cookie, headers: {}, creds: bobCreds, ids };
  aliceCaller = { cookie: a.cookie, headers: {}, creds: credsOf(a.user), ids };
});
afterAll(() => t?.close());

describe('authorization matrix: every call × who calls it', () => {
  it('the matrix covers every route the app serves', () => {
    const covered = new Set(CALLS.map((c) => c.route));
    expect(servedRoutes(t.app).filter((route) => !covered.has(route))).toEqual([]);
  });

  it("another user's account (uuid and token) is refused with 401/50002 and changes nothing of the owner's", async () => {
    const before = await bobsData();
    const stranger: Caller = { ...aliceCaller, creds: bobCaller.creds };
    const mixed: Caller = {
      ...aliceCaller,
      creds: { uuid: bobCaller.creds.uuid, token: aliceCaller.creds.token },
    };
    for (const c of CALLS.filter(
      (x) =>
        /[?&]token=/.test(x.send(stranger).url) ||
        JSON.stringify(x.send(stranger).body ?? '').includes('token'),
    )) {
      expectAuthFailed(await call(stranger, c), `${c.route} with bob's uuid and token`);
      expectAuthFailed(await call(mixed, c), `${c.route} with bob's uuid and alice's token`);
    }
    expect(await bobsData()).toBe(before);
  });

  it("another user's ids (orders, pendings, strategies, results, drawings, tasks) are not found for a stranger, and stay as they were", async () => {
    const before = await bobsData();
    const answers: Record<string, number> = {};
    for (const c of CALLS.filter(
      (x) => !x.open && x.route !== 'POST /user/api/v1/account/logout',
    )) {
      const res = await call(aliceCaller, c);
      expect(res.statusCode, `${c.route}: ${res.body}`).toBeLessThan(500);
      answers[c.route] = res.statusCode;
    }
    // Calls that name one of bob's things answer "not found" (trading: a refused order).
    expect(answers).toMatchObject({
      'POST /trading/order/tpsl': 404,
      'POST /trading/order/close': 404,
      'POST /trading/order/pending/del': 404,
      'POST /trading/order/pending/modify': 404,
      'GET /api/strategies/:name/versions': 404,
      'GET /api/strategy-results/:strategy/:id': 404,
      'DELETE /api/strategy-results/:strategy/:id': 404,
      'GET /api/strategy-results/:strategy/:id/deals': 404,
      'PUT /api/charts/drawings/:id': 404,
      'DELETE /api/charts/drawings/:id': 404,
      'PATCH /api/alerts/:id': 404,
      'DELETE /api/alerts/:id': 404,
      'GET /api/ai/strategy/:id': 404,
      'DELETE /api/ai/strategy/:id': 404,
      'GET /api/ai/strategy/:id/conversations': 404,
      'POST /api/ai/strategies/from-ai': 404,
      'POST /api/live-runs/:id/stop': 404,
      'GET /api/live-runs/:id/evaluations': 404,
      'GET /api/live-runs/:id/comparison': 404,
      'GET /api/optimizations/:id': 404,
      'POST /api/optimizations/:id/cancel': 404,
      'DELETE /api/optimizations/:id': 404,
      'POST /api/optimizations/:id/backtest': 404,
      'GET /api/replays/:id': 404,
      'POST /api/replays/:id/step': 404,
      'POST /api/replays/:id/orders': 404,
      'DELETE /api/replays/:id': 404,
    });
    expect(await bobsData()).toBe(before);
  });

  const refusedEverywhere = async (caller: () => Caller, label: string) => {
    const before = await bobsData();
    for (const c of CALLS.filter((x) => !x.open))
      expectAuthFailed(await call(caller(), c), `${c.route} ${label}`);
    expect(await bobsData()).toBe(before);
  };

  it('no cookie: every session call answers 401/50002', async () => {
    await refusedEverywhere(() => ({ ...bobCaller, cookie: null }), 'without a cookie');
  });

  it("forged user headers (someone else's id or name) with a valid cookie: 401/50002", async () => {
    const other = { 'x-user-id': String(bob.user.id + 1000) };
    await refusedEverywhere(() => ({ ...bobCaller, headers: other }), 'with a forged x-user-id');
    const name = { 'x-user-name': 'someone@example.com' };
    await refusedEverywhere(() => ({ ...bobCaller, headers: name }), 'with a forged x-user-name');
  });

  it('a forged or garbage cookie: 401/50002', async () => {
    await refusedEverywhere(
      () => ({ ...bobCaller, cookie: 'A'.repeat(43) }),
      'with a forged cookie',
    );
    await refusedEverywhere(
      () => ({ ...bobCaller, cookie: 'x\u0000y' }),
      'with a NUL in the cookie',
    );
  });

  it('an expired session: 401/50002', async () => {
    const session = await loginAs(t.app, bob);
    const start = t.clock.now();
    t.clock.advance((t.config.sessionTtlHours + 1) * 3600 * 1000);
    try {
      await refusedEverywhere(
        () => ({ ...bobCaller, cookie: session.cookie }),
        'with an expired session',
      );
    } finally {
      t.clock.set(start);
    }
  });

  it('a logged-out session: 401/50002, and its trading token no longer works', async () => {
    const session = await loginAs(t.app, bob);
    const trader = session.user.traders[0];
    if (!trader) throw new Error('no trading account');
    const out = await t.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/logout',
      cookies: { ct_sid: session.cookie },
    });
    expect(out.statusCode).toBe(200);
    await refusedEverywhere(
      () => ({
        ...bobCaller,
        cookie: session.cookie,
        creds: { uuid: trader.uuid, token: trader.token },
      }),
      'after logout',
    );
    // The same token with the owner's other, live session is not that session's token.
    const res = await call(
      { ...bobCaller, creds: { uuid: trader.uuid, token: trader.token } },
      CALLS[3] as Call,
    );
    expectAuthFailed(res, 'a logged-out session’s trading token with another session');
  });

  it('the owner still reaches everything afterwards (the refusals left the session working)', async () => {
    for (const route of [
      'GET /trading/order/position',
      'GET /api/strategies',
      'GET /api/charts/drawings',
    ]) {
      const c = CALLS.find((x) => x.route === route) as Call;
      expect((await call(bobCaller, c)).statusCode, route).toBe(200);
    }
  });
});
