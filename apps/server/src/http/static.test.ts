import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createTestApp, testConfig, type TestApp } from '../test/helpers.ts';
import { withFrameAncestors } from './static.ts';

let t: TestApp;
let built: FastifyInstance;
let webDist: string;

beforeAll(async () => {
  t = await createTestApp();
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-web-dist-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>Chart Terminal</title>',
  );
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1);');
  // what the web build's precompress step writes next to a file
  fs.writeFileSync(
    path.join(webDist, 'assets', 'index-abc123.js.br'),
    zlib.brotliCompressSync('console.log(1);'),
  );
  built = await buildApp({ db: t.db, config: testConfig({ webDist }), now: t.clock.now });
});
afterAll(async () => {
  await built.close();
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('the built web app', () => {
  it.each(['/', '/desktop', '/chart?instrumentId=3', '/profile/deep/link'])(
    'serves index.html for %s',
    async (url) => {
      const res = await built.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>Chart Terminal</title>');
    },
  );

  it('serves /index.html itself like a page, without a frame-ancestors meta', async () => {
    const res = await built.inject({ method: 'GET', url: '/index.html' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe('<!doctype html><title>Chart Terminal</title>');
  });

  it('serves hashed assets as immutable', async () => {
    const res = await built.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the brotli copy to a browser that accepts it, the plain file otherwise', async () => {
    const br = await built.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1);');
    const plain = await built.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1);');
  });

  it('answers 404 for a missing asset rather than index.html', async () => {
    const res = await built.inject({ method: 'GET', url: '/assets/gone-000.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<title>');
  });

  it('never falls back to index.html under the server prefixes', async () => {
    const res = await built.inject({ method: 'GET', url: '/api/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 40400 });
  });

  it('still answers the API', async () => {
    const res = await built.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toEqual({ status: 'ok', time: t.clock.now() });
  });
});

describe('with FRAME_ANCESTORS', () => {
  let framed: FastifyInstance;
  const META =
    '<meta name="ct-frame-ancestors" content="https://portal.example.com http://127.0.0.1:5555" />';
  beforeAll(async () => {
    fs.writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><html><head><title>Chart Terminal</title></head><body></body></html>',
    );
    framed = await buildApp({
      db: t.db,
      config: testConfig({
        webDist,
        frameAncestors: ['https://portal.example.com', 'http://127.0.0.1:5555'],
      }),
      now: t.clock.now,
    });
  });
  afterAll(() => framed.close());

  it.each(['/', '/index.html', '/chart?instrumentId=3', '/d/1'])(
    'tells the page of %s the allowed origins in a meta',
    async (url) => {
      const res = await framed.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(
        `<!doctype html><html><head>\n    ${META}<title>Chart Terminal</title></head><body></body></html>`,
      );
    },
  );

  it('puts the meta first even without a head, and adds none without origins', () => {
    expect(withFrameAncestors('<p>x</p>', ['https://a.example'])).toBe(
      '<meta name="ct-frame-ancestors" content="https://a.example" /><p>x</p>',
    );
    expect(withFrameAncestors('<head><title>x</title>', [])).toBe('<head><title>x</title>');
  });
});

describe('without a built web app', () => {
  it('explains how to build it in plain text', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/desktop' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('not built');
    expect(res.body).toContain('npm start');
  });
});
