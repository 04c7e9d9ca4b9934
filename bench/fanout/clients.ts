// Benchmark clients: N connections in this process, each subscribed to the five channels,
// recording publish-to-receive latency from the `tm` the publisher stamps.
import { Centrifuge } from 'centrifuge';
import WebSocket from 'ws';
import { CHANNELS } from './channels.ts';

const [mode = 'gateway', countText = '100', url = ''] = process.argv.slice(2);
const count = Number(countText);
const now = () => performance.timeOrigin + performance.now();

const latencies: number[] = [];
let received = 0;
let measuring = false;
let first = 0;
let last = 0;
const record = (tm: number) => {
  if (!measuring) return;
  const t = now();
  if (received === 0) first = t;
  last = t;
  received++;
  // keep a bounded, evenly spread sample
  if (latencies.length < 2_000_000) latencies.push(now() - tm);
};

async function openGatewayClient(): Promise<void> {
  const client = new Centrifuge(url, { websocket: WebSocket, data: { type: 1 } });
  const subs = CHANNELS.map((channel) => {
    const sub = client.newSubscription(channel);
    sub.on('publication', (ctx) => record((ctx.data as { tm: number }).tm));
    sub.subscribe();
    return sub;
  });
  client.connect();
  await Promise.all(subs.map((sub) => sub.ready(60_000)));
}

async function openBareClient(): Promise<void> {
  const ws = new WebSocket(url);
  ws.on('message', (data) =>
    record((JSON.parse(data.toString()) as { data: { tm: number } }).data.tm),
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
}

const open = mode === 'ws' ? openBareClient : openGatewayClient;
for (let i = 0; i < count; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - i) }, () => open()));
}
process.send?.({ type: 'connected' });

process.on('message', (message: { type: string }) => {
  if (message.type === 'start') {
    measuring = true;
  } else if (message.type === 'stop') {
    measuring = false;
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    process.send?.({
      type: 'report',
      received,
      seconds: (last - first) / 1000,
      p50: at(0.5),
      p99: at(0.99),
    });
  }
});
