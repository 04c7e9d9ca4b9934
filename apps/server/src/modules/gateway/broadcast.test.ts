import { afterEach, expect, it } from 'vitest';
import { waitFor } from '../../test/wait-for.ts';
import { DEFAULT_GATEWAY_OPTIONS, GatewayHub, type ClientSession, type Transport } from './hub.ts';
import { createGatewayPolicy } from './policy.ts';

/*
 * The broadcast's cost per connection: subscribers of the same channels get one message
 * per event-loop turn, whose bytes are encoded once and shared by every socket.
 */

const KNOWN = new Set(['BTCUSDT', 'ETHUSDT']);
const hubs: GatewayHub[] = [];
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
});

type Sent = string | Buffer;
/** What a subscriber's socket saw: messages, closes, and how often its backlog was asked. */
type Socket = {
  session: ClientSession;
  sent: Sent[];
  closes: number[];
  asked: number;
  backlog: number;
};

/** A session of `hub` on a recording transport, connected and subscribed to `channels`. */
async function subscriberSocket(hub: GatewayHub, channels: string[]): Promise<Socket> {
  const sent: Sent[] = [];
  const socket = { sent, closes: [] as number[], asked: 0, backlog: 0 };
  const transport: Transport = {
    send: (message) => socket.sent.push(message),
    close: (code) => socket.closes.push(code),
    bufferedAmount: () => {
      socket.asked += 1;
      return socket.backlog;
    },
  };
  const session = hub.open(transport);
  const commands = [
    JSON.stringify({ id: 1, connect: {} }),
    ...channels.map((channel, i) => JSON.stringify({ id: i + 2, subscribe: { channel } })),
  ];
  session.receive(commands.join('\n'), Date.now());
  await waitFor(() =>
    channels.every((channel) => hub.subscribers(channel) > 0 && session.channels.has(channel)),
  );
  await waitFor(() => socket.sent.length > 0);
  socket.sent.length = 0;
  socket.asked = 0;
  return Object.assign(socket, { session });
}

async function subscriber(hub: GatewayHub, channels: string[]): Promise<Sent[]> {
  return (await subscriberSocket(hub, channels)).sent;
}

function newHub(): GatewayHub {
  const hub = new GatewayHub(
    createGatewayPolicy({ secret: 's', now: Date.now, isKnownSymbol: (s) => KNOWN.has(s) }),
    DEFAULT_GATEWAY_OPTIONS,
  );
  hubs.push(hub);
  return hub;
}

const textOf = (message: Sent | undefined) => message?.toString() ?? '';

it('sends subscribers of the same channels one message per turn, encoded once for all', async () => {
  const hub = newHub();
  const both = ['public:BTCUSDT', 'public:ETHUSDT'];
  const alike = await Promise.all([subscriber(hub, both), subscriber(hub, both)]);
  const other = await subscriber(hub, ['public:ETHUSDT']);

  hub.publish('public:BTCUSDT', { price: 1 });
  hub.publish('public:ETHUSDT', { price: 2 });
  await waitFor(() => alike.every((s) => s.length === 1) && other.length === 1);

  const [first, second] = alike.map((s) => s[0]);
  // the same bytes object: joined and encoded once for both sockets
  expect(Buffer.isBuffer(first)).toBe(true);
  expect(second).toBe(first);
  expect(
    textOf(first)
      .split('\n')
      .map((line) => JSON.parse(line) as unknown),
  ).toEqual([
    { push: { channel: 'public:BTCUSDT', pub: { data: { price: 1 } } } },
    { push: { channel: 'public:ETHUSDT', pub: { data: { price: 2 } } } },
  ]);
  expect(JSON.parse(textOf(other[0]))).toEqual({
    push: { channel: 'public:ETHUSDT', pub: { data: { price: 2 } } },
  });
});

it("does a subscriber's work once per turn, however many publications the turn has", async () => {
  const hub = newHub();
  const both = ['public:BTCUSDT', 'public:ETHUSDT'];
  const sockets = await Promise.all([subscriberSocket(hub, both), subscriberSocket(hub, both)]);

  for (let i = 0; i < 5; i++) {
    hub.publish('public:BTCUSDT', { price: i });
    hub.publish('public:ETHUSDT', { price: i });
  }
  await waitFor(() => sockets.every((s) => s.sent.length === 1));

  // one look at the socket's backlog and one message for the turn's ten publications
  expect(sockets.map((s) => s.asked)).toEqual([1, 1]);
  expect(textOf(sockets[0]?.sent[0]).split('\n')).toHaveLength(10);
});

it('closes a subscriber whose socket holds more than the limit with 3008; the others get the turn', async () => {
  const hub = newHub();
  const [slow, reading] = await Promise.all([
    subscriberSocket(hub, ['public:BTCUSDT']),
    subscriberSocket(hub, ['public:BTCUSDT']),
  ]);
  if (!slow || !reading) throw new Error('no subscribers');
  slow.backlog = DEFAULT_GATEWAY_OPTIONS.maxQueuedBytes;

  hub.publish('public:BTCUSDT', { price: 1 });
  await waitFor(() => reading.sent.length === 1);

  expect(slow.closes).toEqual([3008]);
  expect(slow.sent).toEqual([]);
  expect(hub.subscribers('public:BTCUSDT')).toBe(1);
});

it("hands the socket bytes only: a reply, a lone ping, and a ping sent with the turn's publications", async () => {
  const hub = newHub();
  const socket = await subscriberSocket(hub, ['public:BTCUSDT']);
  const session = socket.session;

  session.receive(JSON.stringify({ id: 9, subscribe: { channel: 'public:ETHUSDT' } }), Date.now());
  await waitFor(() => socket.sent.length === 1);
  hub.pingAll();
  await waitFor(() => socket.sent.length === 2);
  hub.pingAll();
  hub.publish('public:BTCUSDT', { price: 1 });
  await waitFor(() => socket.sent.length === 3);

  expect(socket.sent.every((message) => Buffer.isBuffer(message))).toBe(true);
  expect(socket.sent.map((message) => textOf(message))).toEqual([
    JSON.stringify({ id: 9, subscribe: {} }),
    '{}',
    `{}\n${JSON.stringify({ push: { channel: 'public:BTCUSDT', pub: { data: { price: 1 } } } })}`,
  ]);
});
