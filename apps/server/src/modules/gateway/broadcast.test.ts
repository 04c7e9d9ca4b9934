import { afterEach, expect, it } from 'vitest';
import { waitFor } from '../../test/wait-for.ts';
import { DEFAULT_GATEWAY_OPTIONS, GatewayHub, type Transport } from './hub.ts';
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

/** A session of `hub` on a recording transport, connected and subscribed to `channels`. */
async function subscriber(hub: GatewayHub, channels: string[]): Promise<Sent[]> {
  const sent: Sent[] = [];
  const transport: Transport = {
    send: (message) => sent.push(message),
    close: () => undefined,
    bufferedAmount: () => 0,
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
  await waitFor(() => sent.length > 0);
  sent.length = 0;
  return sent;
}

const textOf = (message: Sent | undefined) => message?.toString() ?? '';

it('sends subscribers of the same channels one message per turn, encoded once for all', async () => {
  const hub = new GatewayHub(
    createGatewayPolicy({ secret: 's', now: Date.now, isKnownSymbol: (s) => KNOWN.has(s) }),
    DEFAULT_GATEWAY_OPTIONS,
  );
  hubs.push(hub);
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
