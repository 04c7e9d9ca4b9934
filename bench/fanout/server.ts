// Benchmark server: our live gateway (`gateway`) or a bare `ws` broadcast (`ws`), with a
// publisher driven by the orchestrator over IPC. Prints nothing; talks over process.send.
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  createGatewayPolicy,
  DEFAULT_GATEWAY_OPTIONS,
  GatewayHub,
  gatewayRoutes,
} from '@ct/server/gateway';
import { CHANNELS } from './channels.ts';

const mode = process.argv[2] === 'ws' ? 'ws' : 'gateway';
const now = () => performance.timeOrigin + performance.now();

type Publish = (channel: string, data: unknown) => void;

async function startGateway(): Promise<{ port: number; publish: Publish }> {
  const app = Fastify();
  await app.register(fastifyWebsocket);
  const symbols = new Set(CHANNELS.map((c) => c.slice('public:'.length)));
  const hub = new GatewayHub(
    createGatewayPolicy({ secret: 'bench', now: Date.now, isKnownSymbol: (s) => symbols.has(s) }),
    { ...DEFAULT_GATEWAY_OPTIONS, pingSeconds: 25 },
  );
  gatewayRoutes(app, hub, Date.now);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    publish: (channel, data) => hub.publish(channel, data),
  };
}

async function startBareWs(): Promise<{ port: number; publish: Publish }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const clients = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
  });
  const address = wss.address();
  if (address === null) throw new Error('no address');
  return {
    port: typeof address === 'object' ? address.port : 0,
    publish: (channel, data) => {
      const text = JSON.stringify({ channel, data }); // encoded once, like the gateway
      for (const ws of clients) ws.send(text);
    },
  };
}

const server = mode === 'ws' ? await startBareWs() : await startGateway();
process.send?.({ type: 'ready', port: server.port });

process.on('message', (message: { type: string; ratePerChannel: number; seconds: number }) => {
  if (message.type !== 'publish') return;
  const intervalMs = 1000 / message.ratePerChannel;
  const started = now();
  let sent = 0;
  const timer = setInterval(
    () => {
      const elapsed = now() - started;
      const due = Math.min(
        Math.floor(elapsed / intervalMs) + 1,
        message.ratePerChannel * message.seconds,
      );
      while (sent < due) {
        // stamped with the time the publication was due, not when this loop got to it: a
        // publisher that falls behind (a slow broadcast) shows in the latency
        const dueAt = started + sent * intervalMs;
        for (const channel of CHANNELS) {
          server.publish(channel, {
            price: 100 + (sent % 10),
            size: 1,
            tm: dueAt,
            entry: '0',
            strike: 0,
          });
        }
        sent++;
      }
      if (sent >= message.ratePerChannel * message.seconds) {
        clearInterval(timer);
        process.send?.({
          type: 'published',
          publications: sent * CHANNELS.length,
          elapsedMs: now() - started,
        });
      }
    },
    Math.max(1, Math.floor(intervalMs / 2)),
  );
});
