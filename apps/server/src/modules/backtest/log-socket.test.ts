import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';
import { LIVE_PATH } from '../gateway/routes.ts';
import { DEFAULT_LOG_SOCKET_LIMITS, SLOW_READER_CLOSE } from './log-hub.ts';
import { LOG_SOCKET_GREETING } from './routes.ts';
import { login, type Session } from '../../test/backtest.ts';

/*
 * The log socket's abuse bounds (issue 18, item 1): a client that never reads is cut instead
 * of growing the server's memory, the others keep their lines; sockets are capped per user
 * and per client id; another site's page cannot open either WebSocket.
 */

const PUBLIC = 'https://trade.example.com';
let t: TestApp;
let alice: Session;
let bob: Session;
let base = '';
let origin = '';
const opened: WebSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ config: { publicOrigins: [PUBLIC] } });
  alice = await login(t.app, await buildUser(t.db));
  bob = await login(t.app, await buildUser(t.db));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  base = `ws://127.0.0.1:${port}`;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const ws of opened) ws.terminate();
  await t.close();
});

type Opened = { ws: WebSocket; lines: string[]; ready: Promise<void>; closed: Promise<number> };

function open(path: string, cookie: string | null, headers: Record<string, string> = {}): Opened {
  const lines: string[] = [];
  const ws = new WebSocket(`${base}${path}`, {
    headers: { ...(cookie ? { cookie: `ct_sid=${cookie}` } : {}), ...headers },
  });
  opened.push(ws);
  ws.on('message', (data) => lines.push(data.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, lines, ready, closed };
}

/** A client that stops reading once greeted: its socket's bytes pile up on the server. */
async function nonReading(clientId: string, cookie: string): Promise<Opened> {
  const socket = open(`/ws/${clientId}`, cookie);
  await socket.ready;
  await waitFor(() => socket.lines.length === 1);
  (socket.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  return socket;
}

/** Unsent bytes the server holds for its log sockets (their memory, beside the kernel's). */
function serverBuffered(): number {
  let total = 0;
  for (const client of t.app.websocketServer.clients) total += client.bufferedAmount;
  return total;
}

const flushTurn = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('a log socket that does not read', () => {
  it('is cut with 3008 while the server holds at most its bound; a reading twin gets every line', async () => {
    const userId = alice.user.user.id;
    const slow = await Promise.all([
      nonReading('tab-1', alice.cookie),
      nonReading('tab-1', alice.cookie),
      nonReading('tab-1', alice.cookie),
    ]);
    const reader = open('/ws/tab-1', alice.cookie);
    await reader.ready;
    await waitFor(() => t.app.services.backtest.logs.count(userId, 'tab-1') === 4);
    const closeCodes = slow.map((s) => s.closed);
    // the codes the server closes its sockets with (a cut client that reads again only after
    // the server's grace sees the connection end, 1006, instead of the frame)
    const sentCodes: number[] = [];
    for (const client of t.app.websocketServer.clients) {
      const close = client.close.bind(client);
      client.close = (code?: number, reason?: string | Buffer) => {
        if (code !== undefined) sentCodes.push(code);
        close(code, reason);
      };
    }

    const line = 'x'.repeat(64 * 1024);
    const lines = 400; // 25 MiB to each socket: far past the kernel's buffers and the bound
    let peak = 0;
    for (let i = 0; i < lines; i += 1) {
      t.app.services.backtest.logs.publish(userId, 'tab-1', `${i} ${line}`);
      peak = Math.max(peak, serverBuffered());
      if (i % 8 === 0) await flushTurn();
    }
    // only the non-reading sockets were cut; the reader is still registered
    await waitFor(() => t.app.services.backtest.logs.count(userId, 'tab-1') === 1);
    const bound = DEFAULT_LOG_SOCKET_LIMITS.maxBufferedBytes;
    expect(peak).toBeLessThanOrEqual(4 * (bound + line.length + 16));
    expect(sentCodes).toEqual([
      SLOW_READER_CLOSE.code,
      SLOW_READER_CLOSE.code,
      SLOW_READER_CLOSE.code,
    ]);
    // the cut clients see the slow-reader close or the connection's end once they read again
    for (const s of slow) (s.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await waitFor(() => reader.lines.length === 1 + lines, 20_000);
    expect(reader.lines[0]).toBe(LOG_SOCKET_GREETING);
    expect(reader.lines.at(-1)).toBe(`${lines - 1} ${line}`);
    expect(reader.ws.readyState).toBe(WebSocket.OPEN);

    const codes = await Promise.all(closeCodes);
    for (const code of codes) expect([SLOW_READER_CLOSE.code, 1006]).toContain(code);
    reader.ws.close();
    await waitFor(() => t.app.services.backtest.logs.count(userId, 'tab-1') === 0);
  }, 60_000);
});

describe('caps', () => {
  it(`at most ${DEFAULT_LOG_SOCKET_LIMITS.maxPerClient} sockets per client id, ${DEFAULT_LOG_SOCKET_LIMITS.maxPerUser} per user; closing one frees a place`, async () => {
    const userId = bob.user.user.id;
    const { maxPerClient, maxPerUser } = DEFAULT_LOG_SOCKET_LIMITS;
    const same = Array.from({ length: maxPerClient }, () => open('/ws/same', bob.cookie));
    await Promise.all(same.map((s) => s.ready));
    const extra = open('/ws/same', bob.cookie);
    await expect(extra.ready).rejects.toThrow(/Unexpected server response: 429/);

    const others = Array.from({ length: maxPerUser - maxPerClient }, (_, i) =>
      open(`/ws/other-${i % 10}`, bob.cookie),
    );
    await Promise.all(others.map((s) => s.ready));
    expect(t.app.services.backtest.logs.countOfUser(userId)).toBe(maxPerUser);
    const overUser = open('/ws/fresh', bob.cookie);
    await expect(overUser.ready).rejects.toThrow(/429/);
    // another user is not affected by bob's sockets
    const alices = open('/ws/same', alice.cookie);
    await alices.ready;
    alices.ws.close();

    same[0]?.ws.close();
    await waitFor(() => t.app.services.backtest.logs.countOfUser(userId) === maxPerUser - 1);
    const again = open('/ws/same', bob.cookie);
    await again.ready;
    for (const s of [...same, ...others, again]) s.ws.close();
    await waitFor(() => t.app.services.backtest.logs.countOfUser(userId) === 0);
  });
});

describe('Origin of the WebSocket upgrades', () => {
  it.each([['/ws/tab-9'], [LIVE_PATH]])(
    '%s refuses another site (403) and takes our own and the public origin',
    async (path) => {
      const foreign = open(path, alice.cookie, { origin: 'https://evil.example' });
      await expect(foreign.ready).rejects.toThrow(/Unexpected server response: 403/);
      const nullOrigin = open(path, alice.cookie, { origin: 'null' });
      await expect(nullOrigin.ready).rejects.toThrow(/403/);
      for (const allowed of [origin, PUBLIC]) {
        const own = open(path, alice.cookie, { origin: allowed });
        await own.ready;
        own.ws.close();
      }
    },
  );

  it('a refused log socket never registers', async () => {
    const foreign = open('/ws/tab-10', alice.cookie, { origin: 'http://127.0.0.1:1' });
    await expect(foreign.ready).rejects.toThrow(/403/);
    expect(t.app.services.backtest.logs.count(alice.user.user.id, 'tab-10')).toBe(0);
  });
});
