import { afterEach, expect, it } from 'vitest';
import { waitFor } from '../../test/wait-for.ts';
import {
  DEFAULT_GATEWAY_OPTIONS,
  GatewayHub,
  type ClientSession,
  type GatewayOptions,
  type Transport,
} from './hub.ts';
import { createGatewayPolicy } from './policy.ts';

/*
 * The ping round: every session is pinged once in `pingSeconds`, but on the tick of its own
 * slot (a tick a second), so that a round's pings and the pongs they draw do not all come in
 * one turn, in front of the publications of thousands of subscribers. Pongs are still
 * counted against the connection's budget.
 */

const hubs: GatewayHub[] = [];
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
});

type Socket = { session: ClientSession; sent: string[]; closes: number[] };

function newHub(options: Partial<GatewayOptions> = {}): GatewayHub {
  const hub = new GatewayHub(
    createGatewayPolicy({ secret: 's', now: Date.now, isKnownSymbol: () => true }),
    { ...DEFAULT_GATEWAY_OPTIONS, ...options },
  );
  hubs.push(hub);
  return hub;
}

/** A connected session of `hub` on a recording transport (its connect reply put aside). */
async function connected(hub: GatewayHub): Promise<Socket> {
  const sent: string[] = [];
  const closes: number[] = [];
  const transport: Transport = {
    send: (message) => sent.push(message.toString()),
    close: (code) => closes.push(code),
    bufferedAmount: () => 0,
  };
  const session = hub.open(transport);
  session.receive(JSON.stringify({ id: 1, connect: {} }), Date.now());
  await waitFor(() => sent.length === 1);
  sent.length = 0;
  return { session, sent, closes };
}

const pings = (socket: Socket) => socket.sent.filter((message) => message === '{}').length;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

it('pings each session once a round, a share of the sessions on each tick of the round', async () => {
  const hub = newHub({ pingSeconds: 4 });
  const sockets: Socket[] = [];
  for (let i = 0; i < 8; i++) sockets.push(await connected(hub));

  const pingedPerTick: number[] = [];
  for (let tick = 0; tick < 4; tick++) {
    const before = sockets.reduce((sum, socket) => sum + pings(socket), 0);
    hub.tick();
    await nextTurn();
    pingedPerTick.push(sockets.reduce((sum, socket) => sum + pings(socket), 0) - before);
  }

  expect(pingedPerTick).toEqual([2, 2, 2, 2]);
  expect(sockets.map(pings)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  // the next round pings them again, in the same order (the sessions took the slots in turn)
  hub.tick();
  await nextTurn();
  expect(sockets.map(pings)).toEqual([2, 1, 1, 1, 2, 1, 1, 1]);
});

it("cuts off a silent session on its own tick, and forgets a closed session's slot", async () => {
  const hub = newHub({ pingSeconds: 2, pongTimeoutSeconds: 1 });
  const [first, second] = [await connected(hub), await connected(hub)];
  if (!first || !second) throw new Error('no sessions');
  first.session.lastSeenAt -= 10_000; // silent for longer than a round and the pong timeout

  hub.tick(); // the first one's slot
  await nextTurn();
  expect(first.closes).toEqual([3012]);
  expect(second.closes).toEqual([]);
  expect(pings(second)).toBe(0);

  hub.tick();
  await nextTurn();
  expect(pings(second)).toBe(1);
  expect(hub.connectionCount).toBe(1);
});

it('counts pongs against the budget: a flood of them is cut off with 3013', async () => {
  const hub = newHub({
    commandLimits: {
      ...DEFAULT_GATEWAY_OPTIONS.commandLimits,
      total: { burst: 3, perSecond: 0 },
    },
    refusals: { burst: 2, perSecond: 0 },
  });
  const socket = await connected(hub); // the connect took one of the 3
  const now = Date.now();
  for (let i = 0; i < 4; i++) socket.session.receive('{}', now); // 2 admitted, 2 refused
  await nextTurn();
  expect(socket.closes).toEqual([]);
  expect(socket.sent).toEqual([]); // a pong has no answer, refused or not

  socket.session.receive('{}', now);
  await waitFor(() => socket.closes.length > 0);
  expect(socket.closes).toEqual([3013]);
});

it('still closes a pong sent before the connect with 3501', async () => {
  const hub = newHub();
  const closes: number[] = [];
  const session = hub.open({
    send: () => undefined,
    close: (code) => closes.push(code),
    bufferedAmount: () => 0,
  });
  session.receive('{}', Date.now());
  await waitFor(() => closes.length > 0);
  expect(closes).toEqual([3501]);
});
