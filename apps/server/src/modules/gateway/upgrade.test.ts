import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../app.ts';
import { openTestDatabase, testConfig, type TestDatabase } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';
import { LIVE_PATH } from './routes.ts';

/*
 * WebSocket upgrades (issue 18, item 11): an upgrade to a path without a WebSocket gets a
 * 404 instead of 101-then-close; a client's bad frames are logged once per connection at
 * warn, without a stack.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let port = 0;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  testDb = await openTestDatabase();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        logged.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  app = await buildApp({
    db: testDb.db,
    config: testConfig(),
    logger: { level: 'info', stream },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  await testDb.close();
});

function upgrade(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    ws.once('open', () => {
      ws.terminate();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(String(res.statusCode));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

describe('upgrade to a path without a WebSocket', () => {
  it.each([['/no-such-socket'], ['/api/health'], ['/some/page/of/the/app'], ['/ws']])(
    '%s answers 404, not 101',
    async (path) => {
      expect(await upgrade(path)).toBe('404');
    },
  );

  it('the live gateway still upgrades', async () => {
    expect(await upgrade(LIVE_PATH)).toBe('open');
  });
});

/** Opens the live socket by hand and writes raw bytes after the handshake. */
async function rawSocket(): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `GET ${LIVE_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  await new Promise<void>((resolve) => {
    socket.once('data', (data) => {
      expect(data.toString()).toMatch(/^HTTP\/1.1 101/);
      resolve();
    });
  });
  return socket;
}

describe('a client sending bad frames', () => {
  it('is cut and logged once at warn, without a stack', async () => {
    const before = logged.length;
    const socket = await rawSocket();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // 200 unmasked text frames (a client must mask): each is a protocol error
    const frame = Buffer.from([0x81, 0x02, 0x68, 0x69]);
    socket.write(Buffer.concat(Array.from({ length: 200 }, () => frame)));
    await closed;
    await waitFor(() => logged.length > before);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = logged.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, code: 'WS_ERR_EXPECTED_MASK' });
    expect(JSON.stringify(lines[0])).not.toMatch(/stack|\bat /);
  });

  it('an oversized frame too', async () => {
    const before = logged.length;
    const socket = await rawSocket();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // a masked text frame announcing 1 MiB (the limit is 64 KiB)
    const header = Buffer.alloc(14);
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(1024 * 1024), 2);
    socket.write(header);
    await closed;
    await waitFor(() => logged.length > before);
    const lines = logged.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' });
    expect(lines[0]).not.toHaveProperty('err');
  });
});
