import fastifyWebsocket from '@fastify/websocket';
import { Centrifuge, type PublicationContext } from 'centrifuge';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { waitFor } from '../../test/wait-for.ts';
import { DEFAULT_GATEWAY_OPTIONS, GatewayHub, type GatewayOptions } from './hub.ts';
import { signLiveToken } from './jwt.ts';
import { createGatewayPolicy } from './policy.ts';
import { LIVE_PATH, gatewayRoutes } from './routes.ts';

const SECRET = 'test-secret';
const KNOWN = new Set(['BTCUSDT', 'ETHUSDT']);

type Server = { app: FastifyInstance; hub: GatewayHub; url: string; port: number };
const servers: Server[] = [];
const clients: Centrifuge[] = [];
const sockets: WebSocket[] = [];

async function startGateway(
  options: Partial<GatewayOptions> = {},
  port = 0,
  now: () => number = Date.now,
): Promise<Server> {
  const app = Fastify();
  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });
  const hub = new GatewayHub(
    createGatewayPolicy({ secret: SECRET, now, isKnownSymbol: (s) => KNOWN.has(s) }),
    { ...DEFAULT_GATEWAY_OPTIONS, ...options },
    now,
  );
  gatewayRoutes(app, hub, now);
  app.addHook('onClose', async () => hub.close());
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const server = { app, hub, port: actualPort, url: `ws://127.0.0.1:${actualPort}${LIVE_PATH}` };
  servers.push(server);
  return server;
}

/** The server's clock in these tests: it stands still unless moved. */
function manualClock() {
  let ms = Date.now();
  return {
    now: () => ms,
    seconds: () => Math.floor(ms / 1000),
    advance: (seconds: number) => {
      ms += seconds * 1000;
    },
  };
}

const userToken = (userId: number, exp: number) =>
  signLiveToken({ sub: String(userId), exp }, SECRET);
const channelToken = (userId: number, channel: string, exp: number) =>
  signLiveToken({ sub: String(userId), exp, channel }, SECRET);

type Frame = Record<string, unknown>;
const parseLines = (text: string): Frame[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Frame);

/** A WebSocket for the official client that records the frames the server sent it. */
function recordingWebSocket(received: Frame[]) {
  return class extends WebSocket {
    constructor(address: string, protocols?: string) {
      super(address, protocols);
      this.on('message', (data) => received.push(...parseLines(data.toString())));
    }
  };
}

type ClientOptions = {
  token?: string;
  getToken?: () => Promise<string>;
  /** Collects the frames the server sends. */
  received?: Frame[];
};

function officialClient(
  url: string,
  { token, getToken, received }: ClientOptions = {},
): Centrifuge {
  const client = new Centrifuge(url, {
    websocket: received ? recordingWebSocket(received) : WebSocket,
    data: { type: 1 },
    minReconnectDelay: 50,
    maxReconnectDelay: 300,
    ...(token ? { token } : {}),
    ...(getToken ? { getToken } : {}),
  });
  clients.push(client);
  return client;
}

function rawSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  sockets.push(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function closeCode(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

function framesOf(ws: WebSocket): Frame[] {
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(...parseLines(data.toString())));
  return frames;
}

const lines = (...commands: object[]) => commands.map((c) => JSON.stringify(c)).join('\n');

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const server of servers.splice(0)) await server.app.close();
});

describe('live gateway with the official centrifuge client', () => {
  it('connects, subscribes, receives publications and unsubscribes', async () => {
    const server = await startGateway();
    const client = officialClient(server.url);
    const received: unknown[] = [];
    const sub = client.newSubscription('public:BTCUSDT');
    sub.on('publication', (ctx: PublicationContext) => received.push(ctx.data));
    sub.subscribe();
    client.connect();
    await sub.ready(5000);
    const message = { price: 45000.5, size: 1, tm: 1, entry: '0', strike: 0 };
    server.hub.publish('public:BTCUSDT', message);
    server.hub.publish('public:ETHUSDT', { price: 1, size: 1, tm: 1, entry: '0', strike: 0 });
    await waitFor(() => received.length === 1);
    expect(received[0]).toEqual(message);

    sub.unsubscribe();
    await waitFor(() => server.hub.subscribers('public:BTCUSDT') === 0);
    server.hub.publish('public:BTCUSDT', message);
    client.newSubscription('public:ETHUSDT').subscribe();
    await waitFor(() => server.hub.subscribers('public:ETHUSDT') === 1);
    expect(received).toHaveLength(1);
  });

  it('refuses unknown channels and private channels without a token', async () => {
    const server = await startGateway();
    const client = officialClient(server.url);
    client.connect();
    const errors: number[] = [];
    for (const channel of ['public:NOPE', 'account:abc']) {
      const sub = client.newSubscription(channel);
      // permanent subscribe errors end the subscription with the error's code
      sub.on('unsubscribed', (ctx) => errors.push(ctx.code));
      sub.subscribe();
    }
    await waitFor(() => errors.length === 2);
    expect(errors.sort()).toEqual([102, 103]);
  });

  it('accepts a subscription token minted for the user and channel', async () => {
    const server = await startGateway();
    const exp = Math.floor(Date.now() / 1000) + 60;
    const client = officialClient(server.url, { token: signLiveToken({ sub: '7', exp }, SECRET) });
    const sub = client.newSubscription('account:abc', {
      token: signLiveToken({ sub: '7', exp, channel: 'account:abc' }, SECRET),
    });
    sub.subscribe();
    client.connect();
    await sub.ready(5000);
    const other = client.newSubscription('account:xyz', {
      token: signLiveToken({ sub: '7', exp, channel: 'account:abc' }, SECRET),
    });
    const errors: number[] = [];
    other.on('unsubscribed', (ctx) => errors.push(ctx.code));
    other.subscribe();
    await waitFor(() => errors.length === 1);
    expect(errors[0]).toBe(103);
  });

  it('closes a connection with a bad connect token and does not let it reconnect', async () => {
    const server = await startGateway();
    const client = officialClient(server.url, { token: 'not-a-token' });
    const disconnects: number[] = [];
    client.on('disconnected', (ctx) => disconnects.push(ctx.code));
    client.connect();
    await waitFor(() => disconnects.length === 1);
    expect(disconnects[0]).toBe(3500);
    expect(client.state).toBe('disconnected');
  });

  it('resubscribes after a server restart', async () => {
    const first = await startGateway();
    const client = officialClient(first.url);
    const received: unknown[] = [];
    const sub = client.newSubscription('public:ETHUSDT');
    sub.on('publication', (ctx) => received.push(ctx.data));
    sub.subscribe();
    client.connect();
    await sub.ready(5000);
    await first.app.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await startGateway({}, first.port);
    await waitFor(() => second.hub.subscribers('public:ETHUSDT') === 1, 10_000);
    second.hub.publish('public:ETHUSDT', { price: 3000, size: 1, tm: 2, entry: '1', strike: 0 });
    await waitFor(() => received.length === 1);
  });

  it('closes a connection that sends a malformed frame, and only that one', async () => {
    const server = await startGateway();
    const good = officialClient(server.url);
    const received: unknown[] = [];
    const sub = good.newSubscription('public:BTCUSDT');
    sub.on('publication', (ctx) => received.push(ctx.data));
    sub.subscribe();
    good.connect();
    await sub.ready(5000);

    const bad = await rawSocket(server.url);
    const closed = closeCode(bad);
    bad.send('{"connect":{},"id":1}\n{not json');
    expect(await closed).toBe(3501);

    const early = await rawSocket(server.url);
    const earlyClosed = closeCode(early);
    early.send('{"subscribe":{"channel":"public:BTCUSDT"},"id":1}');
    expect(await earlyClosed).toBe(3501);

    server.hub.publish('public:BTCUSDT', { price: 1, size: 1, tm: 1, entry: '0', strike: 0 });
    await waitFor(() => received.length === 1);
  });

  it('cuts off a client that stops reading while others keep receiving', async () => {
    const server = await startGateway({ maxQueuedBytes: 1024 * 1024 });
    const good = officialClient(server.url);
    let goodCount = 0;
    const sub = good.newSubscription('public:BTCUSDT');
    sub.on('publication', () => goodCount++);
    sub.subscribe();
    good.connect();
    await sub.ready(5000);

    const slow = await rawSocket(server.url);
    const closed = closeCode(slow);
    slow.send(
      '{"connect":{"data":{"type":1}},"id":1}\n{"subscribe":{"channel":"public:BTCUSDT"},"id":2}',
    );
    await waitFor(() => server.hub.subscribers('public:BTCUSDT') === 2);
    // stop reading: the kernel buffers fill, then the server's queue for it grows
    (slow as unknown as { _socket: { pause(): void } })._socket.pause();

    const padding = 'x'.repeat(8 * 1024);
    let sent = 0;
    while (server.hub.subscribers('public:BTCUSDT') === 2 && sent < 20_000) {
      for (let i = 0; i < 16; i++) {
        server.hub.publish('public:BTCUSDT', {
          price: 1,
          size: 1,
          tm: sent,
          entry: '0',
          strike: 0,
          padding,
        });
        sent++;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.hub.subscribers('public:BTCUSDT')).toBe(1);
    (slow as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await closed).toBe(3008);
    await waitFor(() => goodCount === sent, 20_000);
  });

  it('pings, and disconnects a client that never answers', async () => {
    const server = await startGateway({ pingSeconds: 1, pongTimeoutSeconds: 1 });
    const silent = await rawSocket(server.url);
    const frames: string[] = [];
    silent.on('message', (data) => frames.push(data.toString()));
    const closed = closeCode(silent);
    silent.send('{"connect":{"data":{"type":1}},"id":1}');
    await waitFor(() => frames.includes('{}'), 5000);
    expect(await closed).toBe(3012);

    const client = officialClient(server.url);
    client.connect();
    await client.ready(5000);
    const connectedAt = Date.now();
    await waitFor(() => Date.now() - connectedAt > 3500, 6000);
    expect(client.state).toBe('connected');
  });
});

describe('token lifecycle, as Centrifugo', () => {
  it('answers an expired connect token with 109: the client gets a new one and connects', async () => {
    const clock = manualClock();
    const server = await startGateway({}, 0, clock.now);
    const received: Frame[] = [];
    const getToken = vi.fn(async () => userToken(7, clock.seconds() + 600));
    const client = officialClient(server.url, {
      token: userToken(7, clock.seconds() - 1),
      getToken,
      received,
    });
    const disconnects: number[] = [];
    client.on('disconnected', (ctx) => disconnects.push(ctx.code));
    client.connect();
    await client.ready(5000);
    expect(client.state).toBe('connected');
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(received).toContainEqual({ id: 1, error: { code: 109, message: 'token expired' } });
    expect(disconnects).toEqual([]);
  });

  it('tells the client when the connection expires, and the client refreshes it', async () => {
    const clock = manualClock();
    const server = await startGateway({}, 0, clock.now);
    const received: Frame[] = [];
    const getToken = vi.fn(async () => userToken(7, clock.seconds() + 600));
    const client = officialClient(server.url, {
      token: userToken(7, clock.seconds() + 1),
      getToken,
      received,
    });
    client.connect();
    await client.ready(5000);
    expect(received[0]).toMatchObject({
      id: 1,
      connect: { client: expect.any(String), ping: 25, pong: true, expires: true, ttl: 1 },
    });
    // the client refreshes when the ttl has passed (1 s), within the server's grace
    await waitFor(() => received.some((frame) => 'refresh' in frame));
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(received.find((frame) => 'refresh' in frame)).toMatchObject({
      refresh: { client: expect.any(String), expires: true, ttl: 600 },
    });
    clock.advance(1 + DEFAULT_GATEWAY_OPTIONS.expiredCloseDelaySeconds);
    server.hub.expireAll();
    expect(server.hub.connectionCount).toBe(1);
    expect(client.state).toBe('connected');
  });

  it('closes a connection not refreshed within the grace with 3005; the client reconnects', async () => {
    const clock = manualClock();
    const server = await startGateway({ expiredCloseDelaySeconds: 10 }, 0, clock.now);
    const received: Frame[] = [];
    const getToken = vi.fn(async () => userToken(7, clock.seconds() + 600));
    const client = officialClient(server.url, {
      token: userToken(7, clock.seconds() + 600),
      getToken,
      received,
    });
    const connecting: number[] = [];
    client.on('connecting', (ctx) => connecting.push(ctx.code));
    client.connect();
    await client.ready(5000);
    clock.advance(600 + 9); // expired, still within the grace
    server.hub.expireAll();
    expect(server.hub.connectionCount).toBe(1);
    clock.advance(1);
    server.hub.expireAll();
    expect(server.hub.connectionCount).toBe(0);
    // the client reconnects with its token, is told it expired (109) and gets a new one
    await waitFor(() => connecting.includes(3005));
    await waitFor(() => client.state === 'connected');
    expect(connecting).toEqual([0, 3005]);
    expect(received).toContainEqual(
      expect.objectContaining({ error: { code: 109, message: 'token expired' } }),
    );
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(server.hub.connectionCount).toBe(1);
  });

  it("disconnects with 3500 a refresh that brings another user's token", async () => {
    const clock = manualClock();
    const server = await startGateway({}, 0, clock.now);
    const getToken = vi.fn(async () => userToken(8, clock.seconds() + 600));
    const client = officialClient(server.url, {
      token: userToken(7, clock.seconds() + 1),
      getToken,
    });
    const disconnects: number[] = [];
    client.on('disconnected', (ctx) => disconnects.push(ctx.code));
    client.connect();
    await waitFor(() => disconnects.length === 1);
    expect(disconnects).toEqual([3500]);
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(client.state).toBe('disconnected');
  });

  it('tells a subscription when its token expires, and the client refreshes it', async () => {
    const clock = manualClock();
    const server = await startGateway({}, 0, clock.now);
    const received: Frame[] = [];
    const client = officialClient(server.url, {
      token: userToken(7, clock.seconds() + 3600),
      received,
    });
    const getToken = vi.fn(async () => channelToken(7, 'account:abc', clock.seconds() + 600));
    const sub = client.newSubscription('account:abc', {
      token: channelToken(7, 'account:abc', clock.seconds() + 1),
      getToken,
    });
    sub.subscribe();
    client.connect();
    await sub.ready(5000);
    expect(received).toContainEqual({ id: 2, subscribe: { expires: true, ttl: 1 } });
    await waitFor(() => received.some((frame) => 'sub_refresh' in frame));
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(received.find((frame) => 'sub_refresh' in frame)).toMatchObject({
      sub_refresh: { expires: true, ttl: 600 },
    });
    clock.advance(1 + DEFAULT_GATEWAY_OPTIONS.expiredSubCloseDelaySeconds);
    server.hub.expireAll();
    expect(server.hub.subscribers('account:abc')).toBe(1);
    expect(sub.state).toBe('subscribed');
  });

  it('unsubscribes a subscription not refreshed within the grace (2501); the client subscribes again', async () => {
    const clock = manualClock();
    const server = await startGateway({ expiredSubCloseDelaySeconds: 10 }, 0, clock.now);
    const received: Frame[] = [];
    const client = officialClient(server.url, {
      token: userToken(7, clock.seconds() + 3600),
      received,
    });
    const getToken = vi.fn(async () => channelToken(7, 'account:abc', clock.seconds() + 600));
    const sub = client.newSubscription('account:abc', {
      token: channelToken(7, 'account:abc', clock.seconds() + 600),
      getToken,
    });
    const subscribing: number[] = [];
    let subscribed = 0;
    sub.on('subscribing', (ctx) => subscribing.push(ctx.code));
    sub.on('subscribed', () => subscribed++);
    sub.subscribe();
    client.connect();
    await sub.ready(5000);
    clock.advance(600 + 9); // expired, still within the grace
    server.hub.expireAll();
    expect(server.hub.subscribers('account:abc')).toBe(1);
    clock.advance(1);
    server.hub.expireAll();
    expect(server.hub.subscribers('account:abc')).toBe(0);
    // it subscribes again with its token, is told it expired (109) and gets a new one
    await waitFor(() => subscribed === 2);
    expect(received).toContainEqual({
      push: { channel: 'account:abc', unsubscribe: { code: 2501, reason: 'subscription expired' } },
    });
    expect(received).toContainEqual(
      expect.objectContaining({ error: { code: 109, message: 'token expired' } }),
    );
    expect(subscribing).toEqual([0, 2501]);
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(server.hub.subscribers('account:abc')).toBe(1);
    expect(client.state).toBe('connected');
  });

  it('answers refresh and sub_refresh commands like Centrifugo', async () => {
    const clock = manualClock();
    const server = await startGateway({}, 0, clock.now);
    const s = clock.seconds();
    const ws = await rawSocket(server.url);
    const frames = framesOf(ws);
    ws.send(
      lines(
        { connect: { token: userToken(7, s + 60) }, id: 1 },
        {
          subscribe: { channel: 'account:abc', token: channelToken(7, 'account:abc', s + 60) },
          id: 2,
        },
        { subscribe: { channel: 'public:BTCUSDT' }, id: 3 },
        { refresh: { token: userToken(7, s - 1) }, id: 4 },
        {
          sub_refresh: { channel: 'account:xyz', token: channelToken(7, 'account:xyz', s + 60) },
          id: 5,
        },
        {
          sub_refresh: { channel: 'account:abc', token: channelToken(7, 'account:xyz', s + 60) },
          id: 6,
        },
        {
          sub_refresh: { channel: 'account:abc', token: channelToken(8, 'account:abc', s + 60) },
          id: 7,
        },
        {
          sub_refresh: { channel: 'account:abc', token: channelToken(7, 'account:abc', s - 1) },
          id: 8,
        },
        {
          sub_refresh: { channel: 'account:abc', token: channelToken(7, 'account:abc', s + 90) },
          id: 9,
        },
        { refresh: { token: userToken(7, s + 120) }, id: 10 },
      ),
    );
    await waitFor(() => frames.some((frame) => frame.id === 10));
    const expired = { code: 109, message: 'token expired' };
    const denied = { code: 103, message: 'permission denied' };
    expect(frames.slice(1)).toEqual([
      { id: 2, subscribe: { expires: true, ttl: 60 } },
      { id: 3, subscribe: {} },
      { id: 4, error: expired },
      { id: 5, error: denied }, // not subscribed
      { id: 6, error: denied }, // another channel's token
      { id: 7, error: denied }, // another user's token
      { id: 8, error: expired },
      { id: 9, sub_refresh: { expires: true, ttl: 90 } },
      {
        id: 10,
        refresh: { client: expect.any(String), version: '1.0.0', expires: true, ttl: 120 },
      },
    ]);
    const closed = closeCode(ws);
    ws.send(JSON.stringify({ refresh: { token: 'not-a-token' }, id: 11 }));
    expect(await closed).toBe(3500);

    // an anonymous connection cannot become a user's by a refresh
    const anonymous = await rawSocket(server.url);
    const anonymousClosed = closeCode(anonymous);
    anonymous.send(
      lines({ connect: {}, id: 1 }, { refresh: { token: userToken(7, s + 60) }, id: 2 }),
    );
    expect(await anonymousClosed).toBe(3500);
  });
});

describe('the end of a login session (logout)', () => {
  it('disconnects with 3011 a connection whose token names the session; the client reconnects', async () => {
    const server = await startGateway();
    const exp = Math.floor(Date.now() / 1000) + 60;
    const tokens = [
      signLiveToken({ sub: '7', exp, sid: '5' }, SECRET),
      signLiveToken({ sub: '7', exp, sid: '6' }, SECRET),
    ];
    const client = officialClient(server.url, { getToken: async () => tokens.shift() ?? '' });
    const codes: number[] = [];
    client.on('connecting', (ctx) => codes.push(ctx.code));
    client.connect();
    await client.ready(5000);
    server.hub.endSession(6); // another session: nothing happens
    server.hub.endSession(5);
    await waitFor(() => codes.includes(3011));
    await client.ready(5000); // reconnected with the next token (session 6)
    expect(server.hub.connectionCount).toBe(1);
  });

  it('ends with 2000 (not resubscribed) a subscription whose token names the session', async () => {
    const server = await startGateway();
    const exp = Math.floor(Date.now() / 1000) + 60;
    const client = officialClient(server.url, { token: signLiveToken({ sub: '7', exp }, SECRET) });
    const sub = client.newSubscription('account:abc', {
      token: signLiveToken({ sub: '7', exp, channel: 'account:abc', sid: '5' }, SECRET),
    });
    const unsubscribed: number[] = [];
    sub.on('unsubscribed', (ctx) => unsubscribed.push(ctx.code));
    sub.subscribe();
    client.connect();
    await sub.ready(5000);
    server.hub.endSession(5);
    await waitFor(() => unsubscribed.length === 1);
    expect(unsubscribed[0]).toBe(2000);
    expect(server.hub.subscribers('account:abc')).toBe(0);
    expect(client.state).toBe('connected');
  });
});

describe('command budgets, as Centrifugo', () => {
  const { refresh } = DEFAULT_GATEWAY_OPTIONS.commandLimits;
  const refusals = DEFAULT_GATEWAY_OPTIONS.refusals;
  const tooMany = { code: 111, message: 'too many requests', temporary: true };
  const refreshes = (token: string, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ refresh: { token }, id: from + i }));

  it('counts each command of a message: refreshes over budget are answered 111, a flood is closed with 3013', async () => {
    const clock = manualClock();
    const server = await startGateway({}, 0, clock.now);
    const token = userToken(7, clock.seconds() + 120);
    const ws = await rawSocket(server.url);
    const frames = framesOf(ws);
    const closed = closeCode(ws);
    ws.send(lines({ connect: { token }, id: 1 }));
    await waitFor(() => frames.length === 1);
    // one message of 200 refresh commands, as a flooder sends them
    ws.send(lines(...refreshes(token, 2, 200)));
    expect(await closed).toBe(3013);
    const answered = frames.slice(1);
    expect(answered.filter((f) => 'refresh' in f)).toHaveLength(refresh.burst);
    expect(answered.filter((f) => 'error' in f)).toHaveLength(refusals.burst);
    for (const frame of answered.filter((f) => 'error' in f)) expect(frame.error).toEqual(tooMany);
    expect(server.hub.connectionCount).toBe(0);
  });

  it('keeps a connection that goes over now and then, and refills its budget with time', async () => {
    const clock = manualClock();
    const server = await startGateway({}, 0, clock.now);
    const token = userToken(7, clock.seconds() + 120);
    const ws = await rawSocket(server.url);
    const frames = framesOf(ws);
    ws.send(lines({ connect: { token }, id: 1 }, ...refreshes(token, 2, refresh.burst + 3)));
    await waitFor(() => frames.some((f) => f.id === refresh.burst + 4));
    expect(frames.slice(-3).map((f) => f.error)).toEqual([tooMany, tooMany, tooMany]);
    // one refresh's worth of time later, one more is answered
    clock.advance(1 / refresh.perSecond);
    ws.send(lines(...refreshes(token, 100, 2)));
    await waitFor(() => frames.some((f) => f.id === 101));
    expect(frames.find((f) => f.id === 100)).toMatchObject({
      refresh: { ttl: expect.any(Number) },
    });
    expect(frames.find((f) => f.id === 101)).toEqual({ id: 101, error: tooMany });
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(server.hub.connectionCount).toBe(1);
  });

  it('closes with 3013, unanswered, a message of more commands than a client ever batches', async () => {
    const server = await startGateway();
    const ws = await rawSocket(server.url);
    const frames = framesOf(ws);
    const closed = closeCode(ws);
    ws.send(lines({ connect: {}, id: 1 }));
    await waitFor(() => frames.length === 1);
    const count = DEFAULT_GATEWAY_OPTIONS.maxCommandsPerMessage + 1;
    ws.send(
      lines(
        ...Array.from({ length: count }, (_, i) => ({
          unsubscribe: { channel: 'public:BTCUSDT' },
          id: 2 + i,
        })),
      ),
    );
    expect(await closed).toBe(3013);
    expect(frames).toHaveLength(1);
  });

  it('cuts a flooding connection while another client keeps its prices', async () => {
    const server = await startGateway();
    const exp = Math.floor(Date.now() / 1000) + 120;
    const honest = officialClient(server.url, { token: userToken(8, exp) });
    const received: unknown[] = [];
    const sub = honest.newSubscription('public:BTCUSDT');
    sub.on('publication', (ctx) => received.push(ctx.data));
    sub.subscribe();
    honest.connect();
    await sub.ready(5000);

    const flooder = await rawSocket(server.url);
    const closed = closeCode(flooder);
    const token = userToken(7, exp);
    flooder.send(lines({ connect: { token }, id: 1 }));
    for (let m = 0; m < 20 && flooder.readyState === WebSocket.OPEN; m++) {
      flooder.send(lines(...refreshes(token, 2 + m * 200, 200)));
    }
    expect(await closed).toBe(3013);
    server.hub.publish('public:BTCUSDT', { price: 1, size: 1, tm: 1, entry: '0', strike: 0 });
    await waitFor(() => received.length === 1);
    expect(honest.state).toBe('connected');
  });
});

describe('the official client over budget', () => {
  it('retries a subscribe answered 111 (temporary) and is subscribed once the budget refills', async () => {
    const server = await startGateway({
      commandLimits: {
        ...DEFAULT_GATEWAY_OPTIONS.commandLimits,
        subscribe: { burst: 1, perSecond: 5 },
      },
    });
    const received: Frame[] = [];
    const client = officialClient(server.url, { received });
    const subs = ['public:BTCUSDT', 'public:ETHUSDT'].map((channel) =>
      client.newSubscription(channel),
    );
    for (const sub of subs) sub.subscribe();
    client.connect();
    await Promise.all(subs.map((sub) => sub.ready(10_000)));
    expect(received).toContainEqual(
      expect.objectContaining({
        error: { code: 111, message: 'too many requests', temporary: true },
      }),
    );
    expect(client.state).toBe('connected');
  });
});
