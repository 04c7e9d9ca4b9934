import type { LiveToken } from '@ct/domain';
import { Centrifuge, UnauthorizedError } from 'centrifuge';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_TOKEN_TTL_SECONDS } from '../trading/live-token.ts';
import { buildUser, loginAs, type BuiltUser, type LoggedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { waitFor } from '../../test/wait-for.ts';

/*
 * Live tokens end with the login session (issue 18 item 7): the official centrifuge client,
 * with tokens from GET /api/live/token as the web app gets them, against the whole app.
 */

let t: TestApp;
let url: string;
const clients: Centrifuge[] = [];

beforeAll(async () => {
  // a short session for the expiry case: 10 minutes
  t = await createTestApp({ config: { sessionTtlHours: 1 / 6 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/connection/websocket`;
});
afterAll(() => t.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

async function liveToken(session: LoggedIn): Promise<LiveToken | null> {
  const trader = session.user.traders[0];
  if (!trader) throw new Error('no trader');
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/live/token?uuid=${trader.uuid}&token=${encodeURIComponent(trader.token)}`,
    cookies: { ct_sid: session.cookie },
  });
  if (res.statusCode === 401) return null;
  expect(res.statusCode).toBe(200);
  return res.json<LiveToken>();
}

/** As the web app does: tokens from the HTTP route; a refused session ends the tries. */
function userClient(session: LoggedIn) {
  const fresh = async (pick: (token: LiveToken) => string) => {
    const token = await liveToken(session);
    if (!token) throw new UnauthorizedError('session over');
    return pick(token);
  };
  const client = new Centrifuge(url, {
    websocket: WebSocket,
    minReconnectDelay: 50,
    maxReconnectDelay: 300,
    getToken: () => fresh((token) => token.connectToken),
  });
  clients.push(client);
  const channel = `account:${session.user.traders[0]?.uuid}`;
  const sub = client.newSubscription(channel, {
    getToken: () => fresh((token) => token.subscriptionToken),
  });
  const received: unknown[] = [];
  sub.on('publication', (ctx) => received.push(ctx.data));
  const closeCodes: number[] = [];
  client.on('connecting', (ctx) => closeCodes.push(ctx.code));
  client.on('disconnected', (ctx) => closeCodes.push(ctx.code));
  sub.subscribe();
  client.connect();
  return { client, sub, channel, received, closeCodes };
}

const logout = (session: LoggedIn) =>
  t.app.inject({
    method: 'POST',
    url: '/user/api/v1/account/logout',
    cookies: { ct_sid: session.cookie },
  });

/** One raw connect command with `token`; resolves with the server's reply frame. */
function rawConnect(token: string): Promise<Record<string, unknown>> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, connect: { token } })));
    ws.once('message', (data) => {
      resolve(JSON.parse(data.toString()) as Record<string, unknown>);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

describe('live tokens end with the session', () => {
  let alice: BuiltUser;
  beforeAll(async () => {
    alice = await buildUser(t.db);
  });

  it('a logout disconnects the session’s live connection and ends its private subscription', async () => {
    const session = await loginAs(t.app, alice);
    const other = await loginAs(t.app, alice); // another tab or device of the same user
    const live = userClient(session);
    const kept = userClient(other);
    await live.sub.ready(5000);
    await kept.sub.ready(5000);
    t.app.services.hub.publish(live.channel, { n: 1 });
    await waitFor(() => live.received.length === 1 && kept.received.length === 1);

    expect((await logout(session)).statusCode).toBe(200);
    // closed with 3011 (reconnect): the client asks for a token, the session is over
    await waitFor(() => live.client.state === 'disconnected');
    expect(live.closeCodes).toContain(3011);
    t.app.services.hub.publish(live.channel, { n: 2 });
    await waitFor(() => kept.received.length === 2);
    expect(live.received).toHaveLength(1);
    // the other session of the user keeps its connection
    expect(kept.client.state).toBe('connected');
    expect(t.app.services.hub.subscribers(live.channel)).toBe(1);
  });

  it('a token minted before the logout no longer connects', async () => {
    const session = await loginAs(t.app, alice);
    const token = await liveToken(session);
    if (!token) throw new Error('no token');
    expect(await rawConnect(token.connectToken)).toMatchObject({ id: 1, connect: {} });
    await logout(session);
    expect(await rawConnect(token.connectToken)).toEqual({
      id: 1,
      error: { code: 109, message: 'token expired' },
    });
    expect(await liveToken(session)).toBeNull();
  });

  it('tokens last 2 minutes at most and never outlive the session; an expired session is cut', async () => {
    const session = await loginAs(t.app, alice);
    const nowSec = () => Math.floor(t.clock.now() / 1000);
    const sessionEnds = nowSec() + 10 * 60;
    const first = await liveToken(session);
    expect(first?.expiresAt).toBe(nowSec() + LIVE_TOKEN_TTL_SECONDS);
    expect(LIVE_TOKEN_TTL_SECONDS).toBeLessThanOrEqual(120);

    const live = userClient(session);
    await live.sub.ready(5000);
    t.clock.advance(9 * 60_000);
    expect((await liveToken(session))?.expiresAt).toBe(sessionEnds);

    // past the session's end and the gateway's grace: the connection is cut (3005) and the
    // client cannot get a new token
    t.clock.advance(60_000 + 2 * LIVE_TOKEN_TTL_SECONDS * 1000);
    t.app.services.hub.expireAll();
    await waitFor(() => live.client.state === 'disconnected');
    expect(live.closeCodes).toContain(3005);
    expect(t.app.services.hub.subscribers(live.channel)).toBe(0);
  });
});
