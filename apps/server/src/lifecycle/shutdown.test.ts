import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { caller, dailyBars, login } from '../test/backtest.ts';
import { testSandbox } from '../test/backtest.ts';
import { buildUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { waitFor } from '../test/wait-for.ts';
import { drain, shutdownOnSignals } from './shutdown.ts';

const UID_BASE = 56_000;
const BARS = dailyBars(60);

/** A strategy that takes `seconds` (the sandbox's wall time allows it) and trades nothing. */
const slowStrategy = (seconds: number) =>
  `import time\n\ndef main(data_array):\n    print('working')\n    time.sleep(${seconds})\n    return []\n`;

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function listeningApp(): Promise<{ t: TestApp; port: number }> {
  const app = await createTestApp({
    config: { sandbox: testSandbox({ uidBase: UID_BASE, timeoutMs: 20_000 }) },
  });
  t = app;
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return { t: app, port: (app.app.server.address() as AddressInfo).port };
}

/** Resolves with the error code of a TCP connection attempt (null when it connected). */
function connectOutcome(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/** A live gateway client, connected (anonymous), recording how its socket was closed. */
async function liveClient(port: number): Promise<{ closedWith: () => number | null }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/connection/websocket`);
  let code: number | null = null;
  let connected = false;
  socket.on('message', (data: Buffer) => {
    if (data.toString().includes('"connect"')) connected = true;
  });
  socket.on('close', (closeCode: number) => {
    code = closeCode;
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ connect: { data: { type: 1 }, name: 'js' }, id: 1 }));
  await waitFor(() => connected, 10_000);
  return { closedWith: () => code };
}

describe('graceful shutdown (drain)', () => {
  it('a running backtest finishes, live sockets get the reconnect code 3001, new connections are refused', async () => {
    const { t, port } = await listeningApp();
    const alice = await login(t.app, await buildUser(t.db));
    const asAlice = caller(t.app, alice.cookie);
    const live = await liveClient(port);
    const { sandbox } = t.app.services.backtest;

    const running = asAlice('POST', '/api/backtest/code', {
      code: slowStrategy(1.5),
      filename: 'slow.py',
      historical_data: BARS,
    });
    await waitFor(() => sandbox.runningCount() === 1, 20_000);

    const drained = drain(t.app, { graceMs: 20_000 });
    // the live client is told to come back later (Centrifuge reconnects after 3000–3499)
    await waitFor(() => live.closedWith() !== null, 5000);
    expect(live.closedWith()).toBe(3001);
    // nothing new: no TCP connection, and a request that still arrives gets a 503
    expect(await connectOutcome(port)).toBe('ECONNREFUSED');
    const late = await asAlice('GET', '/api/strategy/template');
    expect(late.statusCode).toBe(503);
    expect(late.json()).toEqual({ detail: 'The server is shutting down; try again' });
    expect(late.headers.connection).toBe('close');
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.shutdown).toEqual({
      ok: false,
      detail: 'the server is shutting down',
    });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    // the backtest that was running when the drain began ends normally
    const finished = await running;
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json()).toMatchObject({ error: null, deals: [] });
    const report = await drained;
    expect(report).toMatchObject({ timedOut: false, left: { requests: 0, backtests: 0 } });
  });

  it('waits at most the grace, then says what was left', async () => {
    const { t } = await listeningApp();
    const alice = await login(t.app, await buildUser(t.db));
    const asAlice = caller(t.app, alice.cookie);
    const { sandbox } = t.app.services.backtest;
    const running = asAlice('POST', '/api/backtest/code', {
      code: slowStrategy(15),
      filename: 'slow.py',
      historical_data: BARS,
    });
    await waitFor(() => sandbox.runningCount() === 1, 20_000);

    const started = performance.now();
    const report = await drain(t.app, { graceMs: 300 });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(report).toMatchObject({ timedOut: true, left: { requests: 1, backtests: 1 } });
    // closing the app stops the run that outlived the grace
    await t.app.close();
    const ended = await running;
    expect(ended.statusCode).toBe(200);
    expect(ended.json().error).not.toBeNull();
  });

  it('SIGTERM drains, closes the app and the database, then exits 0; a second signal exits 1', async () => {
    const { t } = await listeningApp();
    const exits: number[] = [];
    let resourcesClosed = false;
    const remove = shutdownOnSignals(t.app, {
      graceMs: 5000,
      closeResources: async () => {
        resourcesClosed = true;
      },
      exit: (code) => exits.push(code),
    });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([1]);
      await waitFor(() => exits.length === 2, 10_000);
      expect(exits).toEqual([1, 0]);
      expect(resourcesClosed).toBe(true);
      expect(t.app.server.listening).toBe(false);
    } finally {
      remove();
    }
  });
});
