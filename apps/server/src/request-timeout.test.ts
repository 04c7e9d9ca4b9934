import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildUser } from './test/factories.ts';
import { createTestApp, type TestApp } from './test/helpers.ts';
import { login } from './test/backtest.ts';

/*
 * Request timeouts (issue 18, item 8): a client that promises a body and stalls is answered
 * 408 and cut within REQUEST_TIMEOUT_MS (plus Node's check interval), not held open; an
 * upgraded WebSocket is not a request any more and stays.
 */

const TIMEOUT_MS = 1000;
let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await createTestApp({ config: { requestTimeoutMs: TIMEOUT_MS } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Writes `text`, then waits until the server closes; the answer and the time it took. */
function stall(text: string): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer, ms: performance.now() - started }));
  });
}

describe('a stalled request', () => {
  it('a body that promised 100 bytes and sent 5 is answered 408 and cut', async () => {
    const { answer, ms } = await stall(
      `POST /api/strategies HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
    );
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('headers that never end are cut too', async () => {
    const { answer, ms } = await stall(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1`);
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('a WebSocket outlives the request timeout', async () => {
    const alice = await login(t.app, await buildUser(t.db));
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/tab-1`, {
      headers: { cookie: `ct_sid=${alice.cookie}` },
    });
    const lines: string[] = [];
    ws.on('message', (data) => lines.push(data.toString()));
    await new Promise((resolve) => ws.once('open', resolve));
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2.5));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    t.app.services.backtest.logs.publish(alice.user.user.id, 'tab-1', 'still here');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines.at(-1)).toBe('still here');
    ws.close();
  });
});
