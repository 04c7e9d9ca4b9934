import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedRoutes, stateDigest } from '../hardening/support.ts';
import { buildUser, loginAs, loginBody, type BuiltUser } from '../test/factories.ts';
import { createTestApp, sessionCookie, type TestApp } from '../test/helpers.ts';
import { CROSS_SITE_MESSAGE } from './csrf.ts';

const HOST = 'trade.local:8080';
const OWN = `http://${HOST}`;
const EVIL = 'http://trade.local:9999'; // another port of the same host: SameSite=Lax lets the cookie through

let t: TestApp;
let alice: BuiltUser;
let cookie: string;
let uuid: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ config: { publicOrigins: ['https://trade.example.com'] } });
  alice = await buildUser(t.db);
  const session = await loginAs(t.app, alice);
  cookie = session.cookie;
  const trader = session.user.traders[0];
  if (!trader) throw new Error('no trader');
  uuid = trader.uuid;
  token = trader.token;
});
afterAll(() => t.close());

function post(url: string, headers: Record<string, string>, payload?: object) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { host: HOST, ...headers },
    cookies: { ct_sid: cookie },
    ...(payload ? { payload } : {}),
  });
}

const openOrder = () => ({ uuid, token, symbol: 'EURUSD', cmd: 0, volume: '0.01', comment: '' });

function expectRefused(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(403);
}

describe('CSRF: writes are accepted from this site only', () => {
  it('refuses a bodiless logout from another port of the same host, and the session lives on', async () => {
    const res = await post('/user/api/v1/account/logout', { origin: EVIL });
    expectRefused(res);
    expect(res.json()).toEqual({ code: 40300, msg: CROSS_SITE_MESSAGE, data: null });
    const session = await t.app.inject({
      method: 'GET',
      url: '/user/api/v1/account/session',
      cookies: { ct_sid: cookie },
    });
    expect(session.statusCode).toBe(200);
  });

  it('answers in each family’s shape: /api with detail, the login with status', async () => {
    const api = await post('/api/strategies/', { origin: EVIL }, { name: 'x', code: 'pass' });
    expect(api.statusCode).toBe(403);
    expect(api.json()).toEqual({
      code: 40300,
      msg: CROSS_SITE_MESSAGE,
      detail: CROSS_SITE_MESSAGE,
    });
    const login = await post(
      '/user/api/v1/account/login',
      { origin: EVIL },
      loginBody(alice.email, alice.password),
    );
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({ status: 40300, msg: CROSS_SITE_MESSAGE, data: [] });
    expect(sessionCookie(login)).toBeUndefined();
  });

  it('compares the whole origin: https:// of the page’s http:// host and port is another site', async () => {
    const https = `https://${HOST}`;
    expectRefused(await post('/api/strategies/', { origin: https }, { name: 'x', code: 'pass' }));
    expectRefused(
      await post('/api/strategies/', { referer: `${https}/chart` }, { name: 'x', code: 'pass' }),
    );
    expectRefused(
      await post('/user/api/v1/account/login', { origin: https }, loginBody(alice.email, 'x')),
    );
  });

  it('takes the scheme from a trusted proxy’s X-Forwarded-Proto, and only from it', async () => {
    const behind = await createTestApp({ config: { trustProxy: '127.0.0.1' } });
    try {
      const write = (headers: Record<string, string>, remoteAddress: string) =>
        behind.app.inject({
          method: 'POST',
          url: '/api/strategies/',
          headers: { host: 'trade.example.com', ...headers },
          payload: { name: 'x', code: 'pass' },
          remoteAddress,
        });
      const https = { origin: 'https://trade.example.com', 'x-forwarded-proto': 'https' };
      // not refused as cross-site (401: no session), from the proxy
      expect((await write(https, '127.0.0.1')).statusCode).toBe(401);
      // from a peer that is not the proxy the header is ignored: http, another origin
      expect((await write(https, '10.1.2.3')).statusCode).toBe(403);
      expect((await write({ origin: 'http://trade.example.com' }, '10.1.2.3')).statusCode).toBe(
        401,
      );
    } finally {
      await behind.close();
    }
  });

  it('refuses a foreign Referer when there is no Origin, and Origin "null"', async () => {
    expectRefused(await post('/trading/order/open', { referer: `${EVIL}/desktop` }, openOrder()));
    expectRefused(await post('/trading/order/open', { origin: 'null' }, openOrder()));
  });

  it('accepts the page’s own origin, a configured public origin, an own Referer, and no header at all', async () => {
    const before = await t.app.inject({
      method: 'GET',
      url: `/trading/order/position?uuid=${uuid}&token=${encodeURIComponent(token)}`,
      cookies: { ct_sid: cookie },
    });
    expect(before.statusCode).toBe(200);
    const accepted: Record<string, string>[] = [
      { origin: OWN },
      { origin: 'https://trade.example.com' },
      { referer: `${OWN}/chart?instrumentId=1` },
      {},
    ];
    for (const headers of accepted) {
      const res = await post('/api/strategies/', headers, { name: 'Mine', code: 'pass' });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
  });

  it('refuses every write route from a foreign origin before it runs, changing nothing', async () => {
    const writes = servedRoutes(t.app).filter((route) => !route.startsWith('GET '));
    expect(writes.length).toBeGreaterThan(20);
    const digest = await stateDigest(t.db);
    for (const route of writes) {
      const [method, path] = route.split(' ') as ['POST' | 'PUT' | 'DELETE' | 'PATCH', string];
      const url = path.replace(/:[^/]+/g, 'x');
      const res = await t.app.inject({
        method,
        url,
        headers: { host: HOST, origin: EVIL },
        cookies: { ct_sid: cookie },
        payload: { uuid, token },
      });
      expect(res.statusCode, route).toBe(403);
    }
    expect(await stateDigest(t.db)).toBe(digest);
  });
});

describe('security headers', () => {
  it('sends a CSP without inline scripts or remote origins, frame-ancestors self, nosniff and a referrer policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).not.toMatch(/https?:\/\//);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  describe('with FRAME_ANCESTORS', () => {
    let framed: TestApp;
    beforeAll(async () => {
      framed = await createTestApp({
        config: { frameAncestors: ['https://portal.example.com', 'http://127.0.0.1:5555'] },
      });
    });
    afterAll(() => framed.close());

    it.each(['/api/health', '/chart?instrumentId=1', '/d/1'])(
      'lets those origins frame %s: frame-ancestors lists them, and no X-Frame-Options',
      async (url) => {
        const res = await framed.app.inject({ method: 'GET', url });
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toContain(
          "frame-ancestors 'self' https://portal.example.com http://127.0.0.1:5555;",
        );
        // the rest of the policy is unchanged: frames inside our pages are still ours only
        expect(csp).toContain("frame-src 'self';");
        expect(csp).toContain("script-src 'self';");
        expect(res.headers['x-frame-options']).toBeUndefined();
      },
    );

    it('keeps X-Frame-Options and frame-ancestors self on the pages of an app without them', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/chart?instrumentId=1' });
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self';");
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    });
  });
});

describe('Secure cookies and the trusted proxy', () => {
  let other: TestApp;
  let bob: BuiltUser;
  beforeAll(async () => {
    other = await createTestApp({ config: { trustProxy: '127.0.0.1' } });
    bob = await buildUser(other.db);
  });
  afterAll(() => other.close());

  const login = (app: TestApp, user: BuiltUser, headers: Record<string, string>) =>
    app.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/login',
      payload: loginBody(user.email, user.password),
      headers,
      remoteAddress: '127.0.0.1',
    });
  const sidCookie = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'ct_sid');

  it('marks the session cookie Secure behind a trusted proxy that says https', async () => {
    const res = await login(other, bob, { 'x-forwarded-proto': 'https' });
    expect(sidCookie(res)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  });

  it('keeps it non-Secure over plain http', async () => {
    const res = await login(other, bob, {});
    expect(sidCookie(res)?.secure).toBeFalsy();
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
    const res = await login(t, alice, { 'x-forwarded-proto': 'https' });
    expect(sidCookie(res)?.secure).toBeFalsy();
  });

  it('takes the client address from X-Forwarded-For only from a trusted proxy', async () => {
    // 5 failures from one forwarded client: that client is refused, another one is not
    const attempt = (app: TestApp, user: BuiltUser, forwardedFor: string, password: string) =>
      app.app.inject({
        method: 'POST',
        url: '/user/api/v1/account/login',
        payload: loginBody(user.email, password),
        headers: { 'x-forwarded-for': forwardedFor },
        remoteAddress: '127.0.0.1',
      });
    for (let i = 0; i < 5; i++) await attempt(other, bob, '203.0.113.7', 'wrong');
    expect((await attempt(other, bob, '203.0.113.7', bob.password)).statusCode).toBe(429);
    expect((await attempt(other, bob, '198.51.100.1', bob.password)).json()).toMatchObject({
      status: 0,
    });
  });
});
