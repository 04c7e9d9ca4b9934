// The gateway hub's own CPU time per subscriber and turn, without sockets (a transport that
// only counts): `node --import tsx bench/fanout/hub-cost.ts [connections] [turns]`. Each
// turn publishes once on each of the 5 channels every connection is subscribed to. CPU time,
// not wall time: on the shared machine it moves far less with the neighbours' load.
import { createGatewayPolicy, DEFAULT_GATEWAY_OPTIONS, GatewayHub } from '@ct/server/gateway';
import { CHANNELS } from './channels.ts';

const connections = Number(process.argv[2] ?? 2000);
const turns = Number(process.argv[3] ?? 2000);
const hub = new GatewayHub(
  createGatewayPolicy({ secret: 'bench', now: Date.now, isKnownSymbol: () => true }),
  DEFAULT_GATEWAY_OPTIONS,
);
let sent = 0;
const commands = [
  JSON.stringify({ id: 1, connect: {} }),
  ...CHANNELS.map((channel, i) => JSON.stringify({ id: i + 2, subscribe: { channel } })),
].join('\n');
for (let i = 0; i < connections; i++) {
  const session = hub.open({
    send: () => {
      sent += 1;
    },
    close: () => undefined,
    bufferedAmount: () => 0,
  });
  session.receive(commands, Date.now());
}
while (CHANNELS.some((channel) => hub.subscribers(channel) < connections)) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const turn = () =>
  new Promise<void>((resolve) => {
    for (const channel of CHANNELS) {
      hub.publish(channel, { price: 100, size: 1, tm: Date.now(), entry: '0', strike: 0 });
    }
    // the hub flushes on the next turn; this resolves on the one after
    setImmediate(() => setImmediate(resolve));
  });
for (let i = 0; i < turns / 5; i++) await turn(); // warm-up
sent = 0;
const cpu = process.cpuUsage();
for (let i = 0; i < turns; i++) await turn();
const used = process.cpuUsage(cpu);
console.log(
  `${connections} connections × 5 channels, ${turns} turns: ` +
    `${((used.user + used.system) / turns / connections).toFixed(3)} µs of CPU per connection and turn, ` +
    `${(sent / turns / connections).toFixed(2)} messages per connection and turn`,
);
hub.close();
