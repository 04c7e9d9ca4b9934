import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connectLive,
  disconnectLive,
  forgetLive,
  forgetProvisionalLive,
  getLiveClient,
  identifyLive,
  liveConnectToken,
  liveUrl,
  useConnectionStore,
} from './connection';

const URL = 'ws://test/connection/websocket';

type Command = {
  id?: number;
  connect?: { token?: string; data?: unknown };
  refresh?: { token: string };
};

/**
 * A WebSocket stand-in speaking just enough of the Centrifuge JSON protocol: it accepts
 * connects (109 for a token in `expired`; `expires`/`ttl` for a token when `ttl` is set)
 * and refreshes, and records every command.
 */
function fakeGateway(behaviour: 'accept' | 'refuse' = 'accept') {
  const commands: Command[] = [];
  const sockets: FakeWebSocket[] = [];
  const state = { expired: new Set<string>(), ttl: null as number | null };

  const answer = (command: Command): object | null => {
    const { id } = command;
    if (command.connect) {
      const token = command.connect.token;
      if (token && state.expired.has(token)) {
        return { id, error: { code: 109, message: 'token expired' } };
      }
      const expiry = token && state.ttl !== null ? { expires: true, ttl: state.ttl } : {};
      return { id, connect: { client: 'c1', version: '0', ping: 25, pong: true, ...expiry } };
    }
    if (command.refresh) return { id, refresh: { client: 'c1', expires: true, ttl: 600 } };
    return null;
  };

  class FakeWebSocket {
    onopen: (() => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    onclose: ((e: { code: number; reason: string }) => void) | null = null;
    onmessage: ((e: { data: string }) => void) | null = null;
    private closed = false;
    constructor(readonly url: string) {
      sockets.push(this);
      setTimeout(() => {
        if (behaviour === 'refuse') {
          this.onerror?.(new Event('error'));
          this.onclose?.({ code: 1006, reason: '' });
        } else this.onopen?.();
      }, 1);
    }
    send(data: string) {
      for (const line of data.split('\n')) {
        const command = JSON.parse(line) as Command;
        commands.push(command);
        const reply = answer(command);
        if (reply) setTimeout(() => this.onmessage?.({ data: JSON.stringify(reply) }), 1);
      }
    }
    close() {
      this.serverClose(1000, '');
    }
    /** The gateway closes the socket. */
    serverClose(code: number, reason: string) {
      if (this.closed) return;
      this.closed = true;
      setTimeout(() => this.onclose?.({ code, reason }), 1);
    }
  }

  /** The tokens of the connect commands so far (undefined: anonymous). */
  const connectTokens = () => commands.filter((c) => c.connect).map((c) => c.connect?.token);
  return { FakeWebSocket, commands, sockets, state, connectTokens };
}

const connected = () =>
  vi.waitFor(() => expect(useConnectionStore.getState().status).toBe('connected'), {
    timeout: 5000,
  });

describe('live connection', () => {
  afterEach(() => disconnectLive());

  it('connects anonymously with connect data { type: 1 } and reports connected', async () => {
    const { FakeWebSocket, commands } = fakeGateway();
    const statuses: string[] = [];
    const stop = useConnectionStore.subscribe((s) => statuses.push(s.status));
    await connectLive({ url: URL, websocket: FakeWebSocket });
    stop();
    expect(commands[0]).toMatchObject({ connect: { data: { type: 1 } }, id: 1 });
    expect(commands[0]?.connect?.token).toBeUndefined();
    expect(statuses).toEqual(['connecting', 'connected']);
    expect(getLiveClient()).not.toBeNull();
  });

  it('fails with the reason when the gateway cannot be reached, and drops the client', async () => {
    const { FakeWebSocket } = fakeGateway('refuse');
    await expect(
      connectLive({ url: URL, websocket: FakeWebSocket, timeoutMs: 300 }),
    ).rejects.toThrow(/ws:\/\/test\/connection\/websocket, no connection within 0 s/);
    expect(getLiveClient()).toBeNull();
    expect(useConnectionStore.getState().status).toBe('disconnected');
  });

  it('derives the gateway URL from the page origin', () => {
    expect(liveUrl()).toBe(`ws://${window.location.host}/connection/websocket`);
    vi.stubEnv('VITE_API_BASE', 'https://api.example.com/');
    expect(liveUrl()).toBe('wss://api.example.com/connection/websocket');
    vi.unstubAllEnvs();
  });
});

describe('connect tokens (the client’s getToken)', () => {
  afterEach(() => disconnectLive());

  it("is '' while anonymous and the identified user's fresh token otherwise", async () => {
    await expect(liveConnectToken()).resolves.toBe('');
    let minted = 0;
    const getToken = vi.fn(async () => `tok-${++minted}`);
    identifyLive('12', getToken);
    await expect(liveConnectToken()).resolves.toBe('tok-1');
    await expect(liveConnectToken()).resolves.toBe('tok-2');
    forgetLive(async () => 'another source'); // not the current one: no effect
    await expect(liveConnectToken()).resolves.toBe('tok-3');
    forgetLive(getToken);
    await expect(liveConnectToken()).resolves.toBe('');
  });

  it('reconnects once as the identified user, with a token from getToken', async () => {
    const gateway = fakeGateway();
    await connectLive({ url: URL, websocket: gateway.FakeWebSocket });
    const getToken = vi.fn(async () => 'tok-1');
    identifyLive('12', getToken);
    await vi.waitFor(() => expect(gateway.connectTokens()).toEqual([undefined, 'tok-1']));
    await connected();
    // the same user again (another of their accounts) keeps the connection
    identifyLive('12', async () => 'tok-2');
    await Promise.resolve();
    expect(gateway.connectTokens()).toEqual([undefined, 'tok-1']);
    expect(getToken).toHaveBeenCalledTimes(1);
  });

  it('gets a new token when the gateway says the token expired (109)', async () => {
    const gateway = fakeGateway();
    await connectLive({ url: URL, websocket: gateway.FakeWebSocket });
    let minted = 0;
    const getToken = vi.fn(async () => `tok-${++minted}`);
    identifyLive('12', getToken);
    await vi.waitFor(() => expect(gateway.connectTokens()).toEqual([undefined, 'tok-1']));
    await connected();
    // the connection drops after its token expired: the client retries with that token,
    // is told it expired, asks getToken and connects
    gateway.state.expired.add('tok-1');
    gateway.sockets.at(-1)?.serverClose(3005, 'connection expired');
    await vi.waitFor(
      () => expect(gateway.connectTokens()).toEqual([undefined, 'tok-1', 'tok-1', 'tok-2']),
      { timeout: 5000 },
    );
    await connected();
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  it('refreshes the connection with a token from getToken before it expires', async () => {
    const gateway = fakeGateway();
    gateway.state.ttl = 0; // expires at once: the client refreshes straight away
    await connectLive({ url: URL, websocket: gateway.FakeWebSocket });
    let minted = 0;
    const getToken = vi.fn(async () => `tok-${++minted}`);
    identifyLive('12', getToken);
    await vi.waitFor(() =>
      expect(gateway.commands.filter((c) => c.refresh)).toEqual([
        expect.objectContaining({ refresh: { token: 'tok-2' } }),
      ]),
    );
    expect(gateway.connectTokens()).toEqual([undefined, 'tok-1']);
    expect(useConnectionStore.getState().status).toBe('connected');
  });

  it('reconnects anonymously when the user is forgotten, not on an account switch', async () => {
    const gateway = fakeGateway();
    await connectLive({ url: URL, websocket: gateway.FakeWebSocket });
    const first = async () => 'tok-1';
    identifyLive('12', first);
    await vi.waitFor(() => expect(gateway.connectTokens()).toEqual([undefined, 'tok-1']));
    await connected();
    // an account switch leaves one account and joins the next in the same turn
    const second = async () => 'tok-2';
    forgetLive(first);
    identifyLive('12', second);
    await Promise.resolve();
    expect(gateway.connectTokens()).toEqual([undefined, 'tok-1']);
    // a logout leaves the account: the user's tokens are no longer renewed
    forgetLive(second);
    await vi.waitFor(() =>
      expect(gateway.connectTokens()).toEqual([undefined, 'tok-1', undefined]),
    );
    await connected();
  });

  it('stays the user’s while another holder (the drawings channel) still identifies it', async () => {
    const gateway = fakeGateway();
    await connectLive({ url: URL, websocket: gateway.FakeWebSocket });
    const drawings = vi.fn(async () => 'tok-drawings');
    const account = vi.fn(async () => 'tok-account');
    identifyLive('12', drawings);
    await vi.waitFor(() => expect(gateway.connectTokens()).toEqual([undefined, 'tok-drawings']));
    await connected();
    identifyLive('12', account);
    await expect(liveConnectToken()).resolves.toBe('tok-account');
    // the account is left (logged out of the trading account): the drawings still hold it
    forgetLive(account);
    await Promise.resolve();
    await Promise.resolve();
    expect(gateway.connectTokens()).toEqual([undefined, 'tok-drawings']);
    await expect(liveConnectToken()).resolves.toBe('tok-drawings');
    forgetLive(drawings);
    await vi.waitFor(() =>
      expect(gateway.connectTokens()).toEqual([undefined, 'tok-drawings', undefined]),
    );
  });

  it('opens as the stored session’s user at once: the first private channel reconnects nothing', async () => {
    const gateway = fakeGateway();
    await connectLive({
      url: URL,
      websocket: gateway.FakeWebSocket,
      identity: { userId: '12', getToken: async () => 'tok-start' },
    });
    expect(gateway.connectTokens()).toEqual(['tok-start']);
    const account = vi.fn(async () => 'tok-account');
    identifyLive('12', account);
    await Promise.resolve();
    expect(gateway.sockets).toHaveLength(1);
    await expect(liveConnectToken()).resolves.toBe('tok-account');
    // the account's identity took over: leaving it goes anonymous, as before
    forgetLive(account);
    await vi.waitFor(() => expect(gateway.connectTokens()).toEqual(['tok-start', undefined]));
  });

  it('opens anonymously when the stored session has no token, and the user’s channel reconnects', async () => {
    const gateway = fakeGateway();
    await connectLive({
      url: URL,
      websocket: gateway.FakeWebSocket,
      identity: {
        userId: '12',
        getToken: () => Promise.reject(new Error('session ended')),
      },
    });
    expect(gateway.connectTokens()).toEqual([undefined]);
    identifyLive('12', async () => 'tok-account');
    await vi.waitFor(() => expect(gateway.connectTokens()).toEqual([undefined, 'tok-account']));
  });

  it('goes anonymous on a logout before any channel took over', async () => {
    const gateway = fakeGateway();
    await connectLive({
      url: URL,
      websocket: gateway.FakeWebSocket,
      identity: { userId: '12', getToken: async () => 'tok-start' },
    });
    forgetProvisionalLive();
    await vi.waitFor(() => expect(gateway.connectTokens()).toEqual(['tok-start', undefined]));
    await connected();
  });

  it('opens anonymously when the session is found ended while its token is asked for', async () => {
    // a 50002 answer logs out (forgetting the start-up identity) before the request fails
    const gateway = fakeGateway();
    await connectLive({
      url: URL,
      websocket: gateway.FakeWebSocket,
      identity: {
        userId: '12',
        getToken: async () => {
          forgetProvisionalLive();
          throw new Error('Token验证失败');
        },
      },
    });
    await connected();
    expect(gateway.connectTokens()).toEqual([undefined]);
    expect(gateway.sockets).toHaveLength(1);
  });
});
