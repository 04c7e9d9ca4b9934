// Benchmark clients: N connections in this process, each subscribed to the five channels. A side
// of the bench may spread its connections over several such processes (`--client-processes`),
// the sample in the first; each reports its own tallies and the orchestrator merges them.
// All but a sample are light raw-protocol clients (decode each frame of a message, count it,
// take its `tm`): their own work would otherwise dominate the two cores the server shares
// with them. The sample measures the publish-to-receive latency users see: on the gateway
// the official `centrifuge` client, on the bare `ws` baseline a plain socket (there is no
// protocol; a message may hold several newline-joined frames). Light clients' latencies are
// reported too, apart.
import { performance } from 'node:perf_hooks';
import { Centrifuge } from 'centrifuge';
import WebSocket from 'ws';
import { CHANNELS } from './channels.ts';
import { record as recordLatency, type Histogram } from './latency.ts';

const [mode = 'gateway', countText = '100', url = '', sampleText = '50'] = process.argv.slice(2);
const count = Number(countText);
const sample = Math.min(count, Number(sampleText));
const now = () => performance.timeOrigin + performance.now();

type Tally = { latencies: Histogram; received: number };
const official: Tally = { latencies: {}, received: 0 };
const light: Tally = { latencies: {}, received: 0 };
let measuring = false;
/** Publications the orchestrator expects this slice to deliver; `drained` is sent on the last. */
let expected = Number.POSITIVE_INFINITY;
/** Server pings the light clients got while measuring (the bare baselines send none). */
let pings = 0;
/**
 * Connections closed since they were all open, by close code: a client process that falls
 * more than the gateway's pong limit behind is closed as silent, and the slice is void.
 */
const closes: Record<string, number> = {};
let connected = false;
const countClose = (code: number) => {
  if (connected) closes[code] = (closes[code] ?? 0) + 1;
};
let first = 0;
let last = 0;
/**
 * The event loop's use since the slice started: near 100 % the process was behind all along
 * (its own work, or starved of CPU), and the latencies measured are its backlog.
 */
let loopAtStart = performance.eventLoopUtilization();

const record = (tally: Tally, tm: number) => {
  if (!measuring) return;
  const t = now();
  if (official.received + light.received === 0) first = t;
  last = t;
  tally.received++;
  recordLatency(tally.latencies, t - tm);
  if (tally.received + (tally === light ? official : light).received >= expected) checkDrained();
};

const TM = '"tm":';

/** The `tm` of one frame's JSON text, without parsing the rest; NaN when it has none. */
function tmOf(frame: string): number {
  const at = frame.indexOf(TM);
  if (at < 0) return Number.NaN;
  return Number.parseFloat(frame.slice(at + TM.length, at + TM.length + 24));
}

/**
 * A message's frames (newline-separated): each publication counted; true when one of them
 * is the gateway's ping (alone in its message, or sent with the turn's publications).
 */
function onLightMessage(data: WebSocket.RawData): boolean {
  const text = data.toString();
  let ping = false;
  let from = 0;
  while (from < text.length) {
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    if (end - from === 2 && text.startsWith('{}', from)) ping = true;
    else {
      const tm = tmOf(text.slice(from, end));
      if (!Number.isNaN(tm)) record(light, tm);
    }
    from = end + 1;
  }
  if (ping && measuring) pings++;
  return ping;
}

async function openOfficialClient(): Promise<void> {
  const client = new Centrifuge(url, { websocket: WebSocket, data: { type: 1 } });
  const subs = CHANNELS.map((channel) => {
    const sub = client.newSubscription(channel);
    sub.on('publication', (ctx) => record(official, (ctx.data as { tm: number }).tm));
    sub.subscribe();
    return sub;
  });
  client.connect();
  await Promise.all(subs.map((sub) => sub.ready(60_000)));
  // the official client reconnects by itself: a reconnection counts as a close
  client.on('connecting', (ctx) => countClose(ctx.code));
}

/** The Centrifuge protocol by hand: connect, subscribe to the channels, wait for the answers. */
async function openLightGatewayClient(): Promise<void> {
  const ws = new WebSocket(url);
  ws.on('close', countClose);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const commands = [
    JSON.stringify({ id: 1, connect: { data: { type: 1 } } }),
    ...CHANNELS.map((channel, i) => JSON.stringify({ id: i + 2, subscribe: { channel } })),
  ];
  const answered = new Promise<void>((resolve, reject) => {
    let replies = 0;
    const onSetup = (data: WebSocket.RawData) => {
      for (const line of data.toString().split('\n')) {
        if (line === '{}')
          ws.send('{}'); // the server's ping
        else if (/"id":\d+/.test(line)) {
          if (line.includes('"error"')) reject(new Error(`refused: ${line}`));
          replies += 1;
        }
      }
      if (replies === commands.length) {
        ws.off('message', onSetup);
        ws.on('message', (message) => {
          if (onLightMessage(message)) ws.send('{}'); // the server's ping
        });
        resolve();
      }
    };
    ws.on('message', onSetup);
  });
  ws.send(commands.join('\n'));
  await answered;
}

async function openBareClient(tally: Tally): Promise<void> {
  const ws = new WebSocket(url);
  ws.on('close', countClose);
  ws.on('message', (data) => {
    if (tally === light) onLightMessage(data);
    else {
      for (const frame of data.toString().split('\n')) {
        record(
          tally,
          (JSON.parse(frame) as { push: { pub: { data: { tm: number } } } }).push.pub.data.tm,
        );
      }
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
}

const open = (i: number) => {
  const sampled = i < sample;
  if (mode !== 'gateway' && mode !== 'reference') return openBareClient(sampled ? official : light);
  return sampled ? openOfficialClient() : openLightGatewayClient();
};
for (let i = 0; i < count; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => open(i + k)));
}
connected = true;
process.send?.({ type: 'connected' });

function checkDrained(): void {
  if (official.received + light.received < expected) return;
  expected = Number.POSITIVE_INFINITY;
  process.send?.({ type: 'drained' });
}

process.on('message', (message: { type: string; expected?: number }) => {
  if (message.type === 'start') {
    // a new slice: what the last one measured is forgotten
    for (const tally of [official, light]) {
      tally.latencies = {};
      tally.received = 0;
    }
    pings = 0;
    loopAtStart = performance.eventLoopUtilization();
    first = 0;
    last = 0;
    expected = Number.POSITIVE_INFINITY;
    measuring = true;
  } else if (message.type === 'expect') {
    expected = Number(message.expected);
    checkDrained();
  } else if (message.type === 'stop') {
    measuring = false;
    process.send?.({
      type: 'report',
      received: official.received + light.received,
      seconds: (last - first) / 1000,
      sampled: sample,
      sampledLatencies: official.latencies,
      lightLatencies: light.latencies,
      pings,
      closes,
      busy: performance.eventLoopUtilization(loopAtStart).utilization,
    });
  }
});
