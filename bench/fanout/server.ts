// Benchmark server: our live gateway (`gateway`) or a bare `ws` broadcast, with a publisher
// driven by the orchestrator over IPC. Prints nothing; talks over process.send. Two bare
// broadcasts: `ws` sends each publication as its own message to every socket; `ws-turn`
// joins the publications of one event-loop turn into one message, encoded once and handed to
// every socket (the least any server can do for the same frames: the gateway's floor). Both
// send the gateway's frames, byte for byte, so that their clients do the same work.
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import { pathToFileURL } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import type * as Gateway from '@ct/server/gateway';
import { CHANNELS } from './channels.ts';

/**
 * The frame of a publication on every server: the gateway's push (Centrifuge protocol), so
 * that the clients of the bare broadcasts read the same bytes as the gateway's.
 */
const encodePublication = (channel: string, data: unknown) =>
  JSON.stringify({ push: { channel, pub: { data } } });

const mode = process.argv[2] ?? 'gateway';
/** `reference`: the gateway entry of another checkout (its index.ts), measured the same way. */
const referenceEntry = process.argv[3] ?? '';
const now = () => performance.timeOrigin + performance.now();

type Publish = (channel: string, data: unknown) => void;

async function startGateway(entry: string): Promise<{ port: number; publish: Publish }> {
  const { createGatewayPolicy, DEFAULT_GATEWAY_OPTIONS, GatewayHub, gatewayRoutes } = (await import(
    entry
  )) as typeof Gateway;
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

async function startBareWs(perTurn: boolean): Promise<{ port: number; publish: Publish }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const clients = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
  });
  const address = wss.address();
  if (address === null) throw new Error('no address');
  const port = typeof address === 'object' ? address.port : 0;
  if (!perTurn) {
    return {
      port,
      publish: (channel, data) => {
        const text = encodePublication(channel, data); // encoded once, like the gateway
        for (const ws of clients) ws.send(text);
      },
    };
  }
  let pending: string[] = [];
  const flush = () => {
    const bytes = Buffer.from(pending.join('\n'));
    pending = [];
    for (const ws of clients) ws.send(bytes, { binary: false });
  };
  return {
    port,
    publish: (channel, data) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push(encodePublication(channel, data));
    },
  };
}

const server =
  mode === 'gateway'
    ? await startGateway('@ct/server/gateway')
    : mode === 'reference'
      ? await startGateway(pathToFileURL(referenceEntry).href)
      : await startBareWs(mode === 'ws-turn');
process.send?.({ type: 'ready', port: server.port });

process.on('message', (message: { type: string; ratePerChannel: number; seconds: number }) => {
  if (message.type !== 'publish') return;
  const intervalMs = 1000 / message.ratePerChannel;
  const started = now();
  const cpu = process.cpuUsage();
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
        // the server's CPU time for the publishing and its deliveries (they end within a turn
        // or two of the last publication, or are still queued: then the stop comes later)
        setTimeout(() => {
          const used = process.cpuUsage(cpu);
          process.send?.({ type: 'cpu', cpuMs: (used.user + used.system) / 1000 });
        }, 1000);
      }
    },
    Math.max(1, Math.floor(intervalMs / 2)),
  );
});
