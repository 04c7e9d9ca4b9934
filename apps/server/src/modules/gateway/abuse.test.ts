import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';
import { DEFAULT_GATEWAY_OPTIONS } from './hub.ts';
import { LIVE_PATH } from './routes.ts';

/*
 * WebSocket abuse (issue 18, "in the suite from now on"), beside the non-reading clients
 * (gateway.test.ts, backtest/log-socket.test.ts) and bad frames (upgrade.test.ts): a flood of
 * subscribe or refresh commands is answered up to the connection's budget, then cut (3013),
 * and does not starve others; an oversized frame on the log socket is cut like one on the
 * live socket.
 */

let t: TestApp;
let base = '';
const opened: WebSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const ws of opened.splice(0)) ws.terminate();
});
afterAll(() => t.close());

type Frame = Record<string, unknown>;

function open(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${base}${path}`, { headers });
  opened.push(ws);
  const frames: Frame[] = [];
  ws.on('message', (data) => {
    for (const line of data.toString().split('\n').filter(Boolean)) {
      // the log socket's lines are text; the live socket's frames JSON
      frames.push(line.startsWith('{') ? (JSON.parse(line) as Frame) : { text: line });
    }
  });
  const ready = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, frames, ready, closed };
}

const SYMBOLS = ['EURUSD', 'GBPUSD', 'USDJPY'];

describe('a flood of subscribe commands', () => {
  it('is answered command by command up to its budget, then closed with 3013; another client keeps its prices', async () => {
    const { hub, market } = t.app.services;
    const symbol = SYMBOLS.find((s) => market.has(s));
    if (!symbol) throw new Error('no known symbol');
    const honest = open(LIVE_PATH);
    await honest.ready;
    honest.ws.send(JSON.stringify({ id: 1, connect: {} }));
    honest.ws.send(JSON.stringify({ id: 2, subscribe: { channel: `public:${symbol}` } }));
    await waitFor(() => honest.frames.some((f) => f.id === 2));

    const flooder = open(LIVE_PATH);
    await flooder.ready;
    flooder.ws.send(JSON.stringify({ id: 1, connect: {} }));
    // up to 20 messages of 250 subscribe commands: known channels, then unknown ones
    let id = 2;
    for (let m = 0; m < 20 && flooder.ws.readyState === WebSocket.OPEN; m++) {
      const lines: string[] = [];
      for (let i = 0; i < 250; i++, id++) {
        const channel = id % 2 === 0 ? `public:${symbol}` : `public:NOPE${id}`;
        lines.push(JSON.stringify({ id, subscribe: { channel } }));
      }
      flooder.ws.send(lines.join('\n'));
    }
    expect(await flooder.closed).toBe(3013);
    const { commandLimits, refusals } = DEFAULT_GATEWAY_OPTIONS;
    const answers = flooder.frames.filter((f) => f.id !== undefined && f.id !== 1);
    expect(answers).toHaveLength(commandLimits.subscribe.burst + refusals.burst);
    const errors = answers.flatMap((f) => (f.error ? [(f.error as { code: number }).code] : []));
    // one subscription to the known channel, then 105 (already subscribed); unknown ones
    // 102; over the budget 111
    expect(new Set(errors)).toEqual(new Set([102, 105, 111]));
    expect(errors.filter((code) => code === 111)).toHaveLength(refusals.burst);
    await waitFor(() => hub.subscribers(`public:${symbol}`) === 1);
    expect(DEFAULT_GATEWAY_OPTIONS.maxChannelsPerConnection).toBeLessThanOrEqual(256);

    // the honest client still gets its prices
    const before = honest.frames.length;
    hub.publish(`public:${symbol}`, { price: 1, size: 1, tm: 1, entry: '0', strike: 0 });
    await waitFor(() => honest.frames.length > before);
  });
});

describe('a flood of refresh commands with a live token', () => {
  it("is cut with 3013 after its budget, having checked only that many tokens; another user's client is not held up", async () => {
    const { hub, market } = t.app.services;
    const symbol = SYMBOLS.find((s) => market.has(s));
    if (!symbol) throw new Error('no known symbol');
    const honest = open(LIVE_PATH);
    await honest.ready;
    honest.ws.send(JSON.stringify({ id: 1, connect: {} }));
    honest.ws.send(JSON.stringify({ id: 2, subscribe: { channel: `public:${symbol}` } }));
    await waitFor(() => honest.frames.some((f) => f.id === 2));

    // a live token as the web client gets it
    const user = await buildUser(t.db);
    const session = await loginAs(t.app, user);
    const trader = session.user.traders[0];
    if (!trader) throw new Error('no trader');
    const tokens = await t.app.inject({
      method: 'GET',
      url: `/api/live/token?uuid=${trader.uuid}&token=${encodeURIComponent(trader.token)}`,
      cookies: { ct_sid: session.cookie },
    });
    expect(tokens.statusCode).toBe(200);
    const { connectToken } = tokens.json<{ connectToken: string }>();

    const flooder = open(LIVE_PATH);
    await flooder.ready;
    flooder.ws.send(JSON.stringify({ id: 1, connect: { token: connectToken } }));
    await waitFor(() => flooder.frames.some((f) => f.id === 1));
    // 120 messages of 200 refresh commands, as the report's flood
    let id = 2;
    for (let m = 0; m < 120 && flooder.ws.readyState === WebSocket.OPEN; m++) {
      const lines: string[] = [];
      for (let i = 0; i < 200; i++, id++) {
        lines.push(JSON.stringify({ id, refresh: { token: connectToken } }));
      }
      flooder.ws.send(lines.join('\n'));
    }
    expect(await flooder.closed).toBe(3013);
    const { commandLimits, refusals } = DEFAULT_GATEWAY_OPTIONS;
    expect(flooder.frames.filter((f) => 'refresh' in f)).toHaveLength(commandLimits.refresh.burst);
    expect(flooder.frames.filter((f) => 'error' in f)).toEqual(
      Array.from({ length: refusals.burst }, () =>
        expect.objectContaining({
          error: { code: 111, message: 'too many requests', temporary: true },
        }),
      ),
    );

    const before = honest.frames.length;
    hub.publish(`public:${symbol}`, { price: 1, size: 1, tm: 1, entry: '0', strike: 0 });
    await waitFor(() => honest.frames.length > before);
  });
});

describe('an oversized frame', () => {
  it('on the log socket: closed with 1009, the server keeps serving', async () => {
    const user = await buildUser(t.db);
    const { cookie } = await loginAs(t.app, user);
    const socket = open('/ws/abuse-client', { cookie: `ct_sid=${cookie}` });
    await socket.ready;
    socket.ws.send('x'.repeat(DEFAULT_GATEWAY_OPTIONS.maxMessageBytes + 1));
    expect(await socket.closed).toBe(1009);
    const again = open('/ws/abuse-client-2', { cookie: `ct_sid=${cookie}` });
    await again.ready;
  });

  it('on the live socket: closed with 1009', async () => {
    const socket = open(LIVE_PATH);
    await socket.ready;
    socket.ws.send('x'.repeat(DEFAULT_GATEWAY_OPTIONS.maxMessageBytes + 1));
    expect(await socket.closed).toBe(1009);
  });
});
