import fastifyWebsocket from '@fastify/websocket';
import { Centrifuge, type PublicationContext } from 'centrifuge';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
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

async function startGateway(options: Partial<GatewayOptions> = {}, port = 0): Promise<Server> {
  const app = Fastify();
  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });
  const hub = new GatewayHub(
    createGatewayPolicy({ secret: SECRET, now: Date.now, isKnownSymbol: (s) => KNOWN.has(s) }),
    { ...DEFAULT_GATEWAY_OPTIONS, ...options },
  );
  gatewayRoutes(app, hub, Date.now);
  app.addHook('onClose', async () => hub.close());
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const server = { app, hub, port: actualPort, url: `ws://127.0.0.1:${actualPort}${LIVE_PATH}` };
  servers.push(server);
  return server;
}

function officialClient(url: string, token?: string): Centrifuge {
  const client = new Centrifuge(url, {
    websocket: WebSocket,
    data: { type: 1 },
    minReconnectDelay: 50,
    maxReconnectDelay: 300,
    ...(token ? { token } : {}),
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
    const client = officialClient(server.url, signLiveToken({ sub: '7', exp }, SECRET));
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
    const client = officialClient(server.url, 'not-a-token');
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
