import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedRoutes } from '../hardening/support.ts';
import { buildUser, loginAs } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { API_DOCS_PATH, OPENAPI_JSON_PATH } from './openapi.ts';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
type Operation = {
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Writes that carry no body by design (everything else that POSTs or PUTs has one). */
const BODILESS_WRITES = new Set(['POST /user/api/v1/account/logout']);

/** GET routes whose input is a query string, with the parameters the document must list. */
const QUERIES: Record<string, string[]> = {
  'GET /user/api/v1/account/trader': ['uuid', 'token'],
  'GET /trading/order/position': ['uuid', 'token'],
  'GET /trading/order/pending': ['uuid', 'token'],
  'GET /trading/order/settles': ['uuid', 'token', 'lastSortId', 'limit'],
  'GET /trading/order/logs': ['uuid', 'token', 'lastSortId', 'limit'],
  'GET /trading/account/summary': ['uuid', 'token'],
  'GET /api/live/token': ['uuid', 'token'],
  'GET /trading/kline/lists': ['symbol', 'cycel', 'limit', 'last_id'],
  'GET /api/strategy-results/{strategy}': ['symbol_id', 'skip', 'limit'],
  'GET /api/strategy-results/{strategy}/{id}/deals': ['skip', 'limit'],
  'GET /api/charts/drawings': ['symbol'],
  'GET /api/ai/strategies': [],
};

/** `METHOD /path/:param` as Fastify prints it → `METHOD /path/{param}` as OpenAPI writes it. */
function openApiRoute(route: string): string {
  return route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

let t: TestApp;
let doc: Document;
const operations = new Map<string, Operation>();

beforeAll(async () => {
  t = await createTestApp({ config: { marketTestControl: true, marketLoadControl: true } });
  const res = await t.app.inject({ method: 'GET', url: OPENAPI_JSON_PATH });
  expect(res.statusCode).toBe(200);
  doc = res.json<Document>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
});
afterAll(() => t?.close());

function operation(route: string): Operation {
  const found = operations.get(route);
  if (!found) throw new Error(`${route} is not in the document`);
  return found;
}

function bodySchema(route: string): Schema {
  const schema = operation(route).requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`${route} documents no JSON body`);
  return schema;
}

describe('the OpenAPI document at /api/docs/json', () => {
  it('is an OpenAPI 3 document: version, info, paths of operations with responses', () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    expect(doc.info).toEqual(
      expect.objectContaining({ title: 'Chart Terminal API', version: expect.any(String) }),
    );
    expect(Object.keys(doc.paths).length).toBeGreaterThan(30);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path, path).toMatch(/^\//);
      // OpenAPI path templates use {name}; a Fastify `:name` left in would be a literal path
      expect(path, path).not.toMatch(/:/);
      for (const [method, op] of Object.entries(item)) {
        expect(METHODS, `${method} ${path}`).toContain(method);
        expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
        for (const response of Object.values(op.responses)) {
          expect(typeof response.description).toBe('string');
        }
        // every {param} of the path is declared as a required path parameter
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
          const param = op.parameters?.find((p) => p.in === 'path' && p.name === name);
          expect(param, `${method} ${path}: {${name}}`).toBeDefined();
          expect(param?.required).toBe(true);
        }
      }
    }
  });

  it('lists every route the app serves, each body route with its JSON body', () => {
    const served = servedRoutes(t.app).filter((route) => !route.includes(API_DOCS_PATH));
    expect(served.length).toBeGreaterThan(30);
    const missing = served.map(openApiRoute).filter((route) => !operations.has(route));
    expect(missing).toEqual([]);
    const withoutBody = served
      .map(openApiRoute)
      .filter((route) => /^(POST|PUT|PATCH) /.test(route) && !BODILESS_WRITES.has(route))
      .filter((route) => !operation(route).requestBody?.content['application/json']?.schema);
    expect(withoutBody).toEqual([]);
  });

  it('lists the query parameters of every call that reads a query string', () => {
    for (const [route, names] of Object.entries(QUERIES)) {
      const listed = (operation(route).parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name);
      expect(listed, route).toEqual(expect.arrayContaining(names));
    }
    const settles = operation('GET /trading/order/settles').parameters ?? [];
    expect(settles.find((p) => p.name === 'uuid')?.required).toBe(true);
    expect(settles.find((p) => p.name === 'limit')?.required).toBeFalsy();
  });

  it("lists a market order's required fields and the cmd values", () => {
    const open = bodySchema('POST /trading/order/open');
    expect(open.required).toEqual(expect.arrayContaining(['uuid', 'token', 'symbol', 'cmd']));
    expect(Object.keys(open.properties ?? {})).toEqual(
      expect.arrayContaining(['volume', 'tp', 'sl', 'clientOrderId']),
    );
    const login = bodySchema('POST /user/api/v1/account/login');
    expect(login.required).toEqual(expect.arrayContaining(['user_name', 'password']));
  });

  it('documents the answers of the main calls and which calls need the session cookie', () => {
    const positions = operation('GET /trading/order/position').responses['200'];
    const schema = positions?.content?.['application/json']?.schema;
    expect(schema?.required).toEqual(expect.arrayContaining(['code', 'msg', 'data']));
    expect(schema?.properties?.data?.properties?.orders?.items?.required).toEqual(
      expect.arrayContaining(['orderId', 'symbol', 'cmd', 'volume']),
    );
    expect(doc.components?.securitySchemes?.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'ct_sid',
    });
    expect(operation('GET /trading/order/position').security).toEqual([{ session: [] }]);
    expect(operation('POST /user/api/v1/account/login').security).toBeUndefined();
    expect(operation('GET /trading/symbol/list').security).toBeUndefined();
  });
});

describe('the browsable page at /api/docs', () => {
  it('answers Swagger UI as HTML whose scripts are our own files (no inline script)', async () => {
    const page = await t.app.inject({ method: 'GET', url: API_DOCS_PATH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/src="/);
      expect(inline?.trim()).toBe('');
    }
    const src = /src="([^"]*swagger-initializer\.js)"/.exec(page.body)?.[1] ?? '';
    expect(src.startsWith(`${API_DOCS_PATH}/`)).toBe(true);
    const initializer = await t.app.inject({ method: 'GET', url: src });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain('json');
  });
});

describe('input declared in route schemas is refused as before', () => {
  it('a bad order is refused after the account check, with the field named', async () => {
    const user = await buildUser(t.db, { accounts: 1 });
    const { cookie, user: info } = await loginAs(t.app, user);
    const trader = info.traders[0];
    if (!trader) throw new Error('no trader');
    const send = (body: unknown, withCookie = true) =>
      t.app.inject({
        method: 'POST',
        url: '/trading/order/open',
        ...(withCookie ? { cookies: { ct_sid: cookie } } : {}),
        payload: body as object,
      });
    const bad = await send({ uuid: trader.uuid, token: trader.token, symbol: 'BTCUSDT', cmd: 9 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ msg: string; data: unknown }>()).toEqual(
      expect.objectContaining({ msg: expect.stringMatching(/^cmd: /), data: null }),
    );
    // another account's token: 401 before the body is looked at
    const stranger = await send({ uuid: trader.uuid, token: 'nope', symbol: 'BTCUSDT', cmd: 9 });
    expect(stranger.statusCode).toBe(401);
    // no session: 401 whatever the body
    expect((await send({ cmd: 9 }, false)).statusCode).toBe(401);
  });

  it('an absent body is named as before ("body: ...") and a query is parsed with defaults', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(login.statusCode).toBe(400);
    expect(login.json<{ msg: string }>().msg).toMatch(/^body: /);
    const klines = await t.app.inject({
      method: 'GET',
      url: '/trading/kline/lists?symbol=BTCUSDT&cycel=15m',
    });
    expect(klines.statusCode).toBe(200);
    expect(klines.json<{ data: { lists: unknown[] } }>().data.lists.length).toBeGreaterThan(0);
  });
});
