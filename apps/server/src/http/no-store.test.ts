// Answers that carry secrets or session data are never kept by a cache on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginAs, loginBody, type BuiltUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';

let t: TestApp;
let alice: BuiltUser;
let cookie: string;
let uuid: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await buildUser(t.db);
  const session = await loginAs(t.app, alice);
  cookie = session.cookie;
  const trader = session.user.traders[0];
  if (!trader) throw new Error('no trader');
  uuid = trader.uuid;
  token = trader.token;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, cookies: { ct_sid: cookie }, ...(payload ? { payload } : {}) });

describe('Cache-Control: no-store', () => {
  it('on the login answer, its success and its refusals', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/login',
      payload: loginBody(alice.email, alice.password),
    });
    expect(ok.json()).toMatchObject({ status: 0 });
    expect(ok.headers['cache-control']).toBe('no-store');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/user/api/v1/account/login',
      payload: loginBody(alice.email, 'wrong password'),
      remoteAddress: '10.77.0.1',
    });
    expect(wrong.json()).toMatchObject({ status: 1 });
    expect(wrong.headers['cache-control']).toBe('no-store');
  });

  it('on the AI settings, read and saved', async () => {
    const read = await call('GET', '/api/settings');
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    const saved = await call('POST', '/api/settings', {
      provider: 'qwen',
      baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'qwen-plus',
      apiKey: 'sk-abcdefghijklmnop',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.headers['cache-control']).toBe('no-store');
  });

  it('on the session, the trading account and the live tokens', async () => {
    const query = `uuid=${uuid}&token=${encodeURIComponent(token)}`;
    for (const url of [
      '/user/api/v1/account/session',
      `/user/api/v1/account/trader?${query}`,
      `/api/live/token?${query}`,
      '/api/charts/live-token',
    ]) {
      const res = await call('GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    // a refusal too: it tells whether the session lives
    const refused = await t.app.inject({ method: 'GET', url: '/user/api/v1/account/session' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});
